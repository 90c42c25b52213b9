package report

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/internal/packs"
	"selfmap/internal/result"
	"selfmap/internal/retrieve"
	"selfmap/internal/store"
	"selfmap/internal/subscription"
)

// Service opens paid reports to whoever may read them and builds them with
// their instrument's Builder: the report screens, the PDF and the free
// result all go through it.
type Service struct {
	Store     *store.Store
	Exams     *exam.Registry
	Builders  Builders
	Catalog   *i18n.Catalog
	Results   *result.Service
	Retrieval *retrieve.Service
	Packs     *packs.Service
	// Members applies a member's plan to their reports before one is
	// opened (subscription.Service.Member): Premium unlocks them. Nil: no
	// plan opens a report (a provider without subscriptions).
	Members *subscription.Service
	Logger  *slog.Logger
	Now     func() time.Time
}

var (
	// ErrNotFound is a report that does not exist or that the caller may
	// not read: it answers exactly like a missing page.
	ErrNotFound = apperr.NotFound("api.not_found")
	// ErrNoResult is a visit naming no result at all: the visitor has not
	// taken the test in this browser yet.
	ErrNoResult = errors.New("report: no result named")
	// ErrNotPaid is the owner's report before it is open: neither bought
	// nor unlocked by a plan.
	ErrNotPaid = errors.New("report: not paid")
	// ErrPaid is a free result whose report is open (bought, or unlocked by
	// a plan): the full report replaces it.
	ErrPaid = errors.New("report: paid")
	// ErrRatingInvalid is a rating outside 1 to 5.
	ErrRatingInvalid = apperr.BadRequest("report.page.rating_invalid", nil)
)

// Visit is how a report screen was reached, as the request tells it.
type Visit struct {
	// Token is a report link's token (?t=), "" when none.
	Token string
	// Remembered is the hash of the report link this browser opened last.
	Remembered string
	// ResultID names the caller's own result (?r=); Latest is the one this
	// browser created last, used when ResultID is "".
	ResultID, Latest string
	// Owns reports whether the caller's browser or account holds a result.
	Owns func(resultID string) bool
	// Member is the signed-in account ("" for none): its plan may open its
	// own reports without paying.
	Member string
}

// Opened is the paid report a screen is about.
type Opened struct {
	Result result.Result
	// Owner is the test-taker's browser or account, which may buy more.
	Owner bool
	// Link is the hash of the report link the report was opened by, for a
	// holder who is not its owner: the session keeps it, so the report's
	// own links need no token. It is set too when that link has closed.
	Link string
}

// Open finds the report a screen is about: a report link (Token: anyone
// holding it, for retrieve.LinkLifetime and until its owner withdraws it),
// the browser or account that took the test (ResultID), or else the link
// this browser opened last (Remembered), or its latest result. A report
// that is not open, or a token that opens nothing, is ErrNotFound; a link
// that expired or was withdrawn is retrieve.ErrLinkClosed; the owner's
// report not open yet is ErrNotPaid. A signed-in member's plan is applied
// first (Unlocked), so Premium opens the member's own report.
func (s *Service) Open(ctx context.Context, v Visit) (Opened, error) {
	if v.Token != "" {
		return s.openLink(ctx, store.HashToken(v.Token), v.Owns)
	}
	if v.ResultID == "" && v.Remembered != "" {
		return s.openLink(ctx, v.Remembered, v.Owns)
	}
	id := cmp.Or(v.ResultID, v.Latest)
	if id == "" {
		return Opened{}, ErrNoResult
	}
	r, err := s.Results.Get(ctx, id, v.Owns)
	if err != nil {
		return Opened{}, err
	}
	if open, err := s.Unlocked(ctx, r.ID, v.Member); err != nil {
		return Opened{}, err
	} else if !open {
		return Opened{Result: r}, ErrNotPaid
	}
	return Opened{Result: r, Owner: true}, nil
}

// Unlocked is the one question of access to a report: is it open to this
// reader without paying. It is when its order is paid or a plan unlocked it
// (result.Service.Unlocked); member is the signed-in account ("" for
// none), whose plan is applied to its own reports first: a Premium
// member's report opens now, and stays open after Premium ends. Callers
// check first that the reader may see the result.
func (s *Service) Unlocked(ctx context.Context, resultID, member string) (bool, error) {
	if member != "" && s.Members != nil {
		if _, err := s.Members.Member(ctx, member); err != nil {
			return false, err
		}
	}
	return s.Results.Unlocked(ctx, resultID)
}

// openLink opens the paid report of a link, found by its token's hash. The
// owner's browser or account, holding a link too, keeps its own way in.
func (s *Service) openLink(ctx context.Context, hash string, owns func(string) bool) (Opened, error) {
	id, err := s.Retrieval.Open(ctx, hash)
	if err != nil {
		return Opened{Link: hash}, err
	}
	if open, err := s.Results.Unlocked(ctx, id); err != nil || !open {
		return Opened{}, cmp.Or(err, error(ErrNotFound))
	}
	r, err := s.Store.GetResult(ctx, s.Store.DB, id)
	if err != nil {
		return Opened{}, err
	}
	if owns(r.ID) {
		return Opened{Result: r, Owner: true}, nil
	}
	return Opened{Result: r, Link: hash}, nil
}

// Page is a report screen's content: the report, the accuracy rating it
// was given (0: none yet), and for its owner whether a pack is left to buy.
type Page struct {
	Report    Report
	Rated     int
	PacksLeft bool
}

// Page builds an opened report's screen in a locale.
func (s *Service) Page(ctx context.Context, o Opened, l i18n.Locale) (Page, error) {
	rep, err := s.Build(ctx, o.Result, l)
	if err != nil {
		return Page{}, err
	}
	p := Page{Report: rep, Rated: s.rating(ctx, o.Result.ID)}
	if o.Owner {
		p.PacksLeft = s.packsLeft(ctx, o.Result)
	}
	return p, nil
}

// Build is the full report of a paid result in a locale, made by its
// instrument's builder: the page and the PDF show the same report.
func (s *Service) Build(ctx context.Context, r result.Result, l i18n.Locale) (Report, error) {
	b, err := s.Builders.For(s.Exams, r.ExamID)
	if err != nil {
		return nil, err
	}
	o, err := s.Store.OrderForResult(ctx, s.Store.DB, r.ID)
	if err != nil {
		return nil, err
	}
	owned, err := s.Packs.Owned(ctx, r.ID)
	if err != nil {
		return nil, err
	}
	in := Input{Result: r, Order: o.OrderNumber, Locale: l, T: s.Catalog.Translator(l)}
	for _, p := range owned {
		in.Packs = append(in.Packs, p.SKUID.String)
	}
	return b.Build(ctx, in)
}

// Printable is the report of an open result (bought, or unlocked by a
// plan) to print in a locale: ErrNotPaid before it is open.
func (s *Service) Printable(ctx context.Context, resultID string, l i18n.Locale) (Report, error) {
	if open, err := s.Results.Unlocked(ctx, resultID); err != nil {
		return nil, err
	} else if !open {
		return nil, ErrNotPaid
	}
	r, err := s.Store.GetResult(ctx, s.Store.DB, resultID)
	if err != nil {
		return nil, err
	}
	return s.Build(ctx, r, l)
}

// Free is the free result of a result whose report is not open yet;
// ErrPaid once it is (member as in Unlocked: a Premium member goes to the
// full report instead).
func (s *Service) Free(ctx context.Context, r result.Result, member string, l i18n.Locale) (Report, error) {
	if open, err := s.Unlocked(ctx, r.ID, member); err != nil {
		return nil, err
	} else if open {
		return nil, ErrPaid
	}
	b, err := s.Builders.For(s.Exams, r.ExamID)
	if err != nil {
		return nil, err
	}
	return b.Free(ctx, Input{Result: r, Locale: l, T: s.Catalog.Translator(l)})
}

// Headline names a result in a line, as its instrument's builder does
// (the type and its title; a screen and its band): what lists of results
// show, whether the report is open or not.
func (s *Service) Headline(ctx context.Context, r result.Result, l i18n.Locale) (Headline, error) {
	b, err := s.Builders.For(s.Exams, r.ExamID)
	if err != nil {
		return Headline{}, err
	}
	f, err := b.Free(ctx, Input{Result: r, Locale: l, T: s.Catalog.Translator(l)})
	if err != nil {
		return Headline{}, err
	}
	return f.Headline(), nil
}

// Rate keeps how accurate the reader finds a report, 1 to 5, once per
// result (a second rating replaces the first): it feeds the landing pages'
// user-rated accuracy.
func (s *Service) Rate(ctx context.Context, resultID string, score int) error {
	if score < 1 || score > 5 {
		return ErrRatingInvalid
	}
	return s.Store.SaveRating(ctx, s.Store.DB, resultID, score, s.Now())
}

// rating is the accuracy rating a result was given, or 0; a failed read
// shows the form again rather than failing the report.
func (s *Service) rating(ctx context.Context, resultID string) int {
	score, err := s.Store.RatingFor(ctx, s.Store.DB, resultID)
	if err != nil {
		s.Logger.WarnContext(ctx, "report: read rating", "result", resultID, "err", err)
	}
	return score
}

// packsLeft reports whether a pack is left for the result's owner to buy; a
// failed read offers none rather than failing the report.
func (s *Service) packsLeft(ctx context.Context, r result.Result) bool {
	offers, err := s.Packs.Offers(ctx, r)
	if err != nil {
		s.Logger.WarnContext(ctx, "report: read pack offers", "result", r.ID, "err", err)
		return false
	}
	for _, o := range offers {
		if !o.Owned() {
			return true
		}
	}
	return false
}
