// Package result turns an answer submission into a stored, scored result
// with its unpaid report order, and completes it with the test-taker's
// e-mail and details. It knows nothing of HTTP.
package result

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/apperr"
	"selfmap/internal/exam"
	"selfmap/internal/geo"
	"selfmap/internal/ids"
	"selfmap/internal/store"
	"selfmap/internal/validate"
)

// Service is the results service.
type Service struct {
	Store *store.Store
	Exams *exam.Registry
	Now   func() time.Time
}

// ErrNotFound is a result that does not exist or is not the caller's.
var ErrNotFound = apperr.NotFound("api.not_found")

// Submit validates an answer submission, scores it against the pooled norms
// (sex and age come later, with the personal details) and stores the result
// with an unpaid order.
func (s *Service) Submit(ctx context.Context, body []byte, locale string) (store.Result, store.Order, error) {
	sub, err := s.Exams.ParseSubmission(body)
	if err != nil {
		return store.Result{}, store.Order{}, err
	}
	scored, err := sub.Exam.Instrument.Score(sub.Answers, exam.Profile{})
	if err != nil {
		return store.Result{}, store.Order{}, fmt.Errorf("result: score: %w", err)
	}
	answers, err := json.Marshal(sub.Answers)
	if err != nil {
		return store.Result{}, store.Order{}, err
	}
	scores, err := json.Marshal(scored.Detail)
	if err != nil {
		return store.Result{}, store.Order{}, err
	}
	now := s.Now().UTC()
	r := store.Result{
		ID: ids.New(), ExamID: sub.Exam.ID, PageCode: sub.Pair.Code, Locale: locale,
		Answers: string(answers), ExamVersion: sub.Exam.FullVersion(), ItemsVersion: scored.ItemsVersion,
		NormsVersion: scored.NormsVersion, NormGroup: scored.NormGroup, Scores: string(scores),
		ResultCode: scored.Code, DurationSeconds: sub.DurationSeconds, CreatedAt: now, UpdatedAt: now,
	}
	o := store.Order{
		ID: ids.New(), OrderNumber: ids.OrderNumber(now), ResultID: r.ID, ExamID: r.ExamID,
		Status: store.OrderCreated, CreatedAt: now, UpdatedAt: now,
	}
	if err := s.Store.InTx(ctx, func(tx *sqlx.Tx) error { return s.Store.CreateResultWithOrder(ctx, tx, r, o) }); err != nil {
		return store.Result{}, store.Order{}, err
	}
	return r, o, nil
}

// Get returns a result the caller may see: owns reports whether the caller's
// session holds it. A foreign id answers exactly like a missing one.
func (s *Service) Get(ctx context.Context, id string, owns func(string) bool) (store.Result, error) {
	if !ids.Valid(id) || !owns(id) {
		return store.Result{}, ErrNotFound
	}
	r, err := s.Store.GetResult(ctx, s.Store.DB, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.Result{}, ErrNotFound
	}
	return r, err
}

// SetEmail records the address the report goes to. The returned message id
// is a validation failure to show beside the field. Once the report is
// paid the address is part of what was bought: the same address is
// accepted again, another is refused.
func (s *Service) SetEmail(ctx context.Context, r store.Result, email string) (string, error) {
	clean, msg := validate.Email(email)
	if msg != "" {
		return msg, nil
	}
	if !strings.EqualFold(clean, r.Email.String) {
		paid, err := s.Paid(ctx, r.ID)
		if err != nil {
			return "", err
		}
		if paid {
			return MsgFrozenEmail, nil
		}
	}
	return "", notFoundAs(s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		return s.Store.SetResultEmail(ctx, tx, r.ID, clean, s.Now())
	}))
}

// SetOrderEmail is SetEmail for the result of an order, named by its
// number as the API does: an order that does not exist or whose result is
// not the caller's (owns) is ErrNotFound.
func (s *Service) SetOrderEmail(ctx context.Context, orderNumber, email string, owns func(string) bool) (string, error) {
	o, err := s.Store.GetOrderByNumber(ctx, s.Store.DB, orderNumber)
	if err != nil {
		return "", notFoundAs(err)
	}
	r, err := s.Get(ctx, o.ResultID, owns)
	if err != nil {
		return "", err
	}
	return s.SetEmail(ctx, r, email)
}

// The messages of a change refused because the report is paid for.
const (
	MsgFrozenEmail     = "links.frozen.email"
	MsgFrozenNormGroup = "links.frozen.norm_group"
	MsgFrozenCountry   = "links.frozen.country"
)

// Paid reports whether the result's report order is paid: the report
// opens, and what it was scored against and priced for stays as it was.
func (s *Service) Paid(ctx context.Context, resultID string) (bool, error) {
	o, err := s.Store.OrderForResult(ctx, s.Store.DB, resultID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return o.Paid(), nil
}

// notFoundAs turns a row that vanished mid-flow into the service's 404.
func notFoundAs(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return ErrNotFound
	}
	return err
}

// DetailsInput is the personal-details form as typed.
type DetailsInput struct {
	FirstName, LastName, BirthYear, Gender, Country string
}

// KnownDetails is what the details form shows a signed-in member before
// they type anything: the details of their newest result that has them,
// else what the account holds (its name, its sex and the year of its
// birthday). The member may change any of it; SetDetails checks it all.
func (s *Service) KnownDetails(ctx context.Context, u store.User, familyFirst bool) (DetailsInput, error) {
	if u.ID == "" {
		return DetailsInput{}, nil
	}
	rs, err := s.Store.UserResults(ctx, s.Store.DB, u.ID)
	if err != nil {
		return DetailsInput{}, fmt.Errorf("result: known details: %w", err)
	}
	for _, r := range rs {
		if r.FirstName.Valid {
			in := DetailsInput{FirstName: r.FirstName.String, LastName: r.LastName.String, Gender: "unspecified", Country: r.Country.String}
			if r.BirthYear.Valid {
				in.BirthYear = strconv.FormatInt(r.BirthYear.Int64, 10)
			}
			if r.Gender.Valid {
				in.Gender = r.Gender.String
			}
			return in, nil
		}
	}
	in := DetailsInput{}
	// The account keeps one name, written as its owner writes names: given
	// name first, or family name first (familyFirst: Chinese, Japanese,
	// Korean). A single word is a given name, except where the family name
	// comes first: there it is most likely the whole name run together
	// (山田花子), which no split gets right, so nothing is guessed.
	switch words := strings.Fields(u.Name); {
	case len(words) > 1 && familyFirst:
		in.LastName, in.FirstName = words[0], strings.Join(words[1:], " ")
	case len(words) > 1:
		in.FirstName, in.LastName = strings.Join(words[:len(words)-1], " "), words[len(words)-1]
	case len(words) == 1 && !familyFirst:
		in.FirstName = words[0]
	}
	switch u.Sex {
	case "male", "female":
		in.Gender = u.Sex
	case "confidential":
		in.Gender = "unspecified"
	}
	if d, err := time.Parse(time.DateOnly, u.Birthday); err == nil {
		in.BirthYear = strconv.Itoa(d.Year())
	}
	return in, nil
}

// Genders are the form's choices; "unspecified" scores against the pooled
// norm of both sexes.
var Genders = []string{"female", "male", "unspecified"}

// SetDetails validates the personal details, rescores the result against
// the norm group they select, and stores both. Sex and birth year are read
// only when the exam's instrument has norms (exam.Instrument.NeedsNorms);
// otherwise they are neither asked, checked, stored nor used. Field errors
// come back keyed by field name; nothing is stored unless all fields are
// valid. Once the report is paid, its norm group (what it was scored
// against) and its country (what it was priced for) are frozen: a
// correction that keeps both, a name or a birth year in the same age band,
// is still taken.
func (s *Service) SetDetails(ctx context.Context, r store.Result, in DetailsInput) (map[string]string, error) {
	e, ok := s.Exams.Exam(r.ExamID)
	if !ok || e.FullVersion() != r.ExamVersion {
		return nil, fmt.Errorf("result: exam %d version %s of result %s is not served", r.ExamID, r.ExamVersion, r.ID)
	}
	if !e.Instrument.NeedsNorms() {
		in.BirthYear, in.Gender = "", "unspecified"
	}
	errs := map[string]string{}
	var d store.Details
	var msg string
	if d.FirstName, msg = validate.Name(in.FirstName, 50); msg != "" {
		errs["firstName"] = msg
	}
	if d.LastName, msg = validate.Name(in.LastName, 50); msg != "" {
		errs["lastName"] = msg
	}
	year := s.Now().UTC().Year()
	age := 0
	if y := strings.TrimSpace(in.BirthYear); y != "" {
		n, err := strconv.Atoi(y)
		if err != nil || n < year-110 || n > year-10 {
			errs["birthYear"] = "form.birth_year.invalid"
		} else {
			d.BirthYear = store.NullInt{Int64: int64(n), Valid: true}
			age = year - n
		}
	}
	switch in.Gender {
	case "female", "male":
		d.Gender = store.NullStr{String: in.Gender, Valid: true}
	case "unspecified":
	default:
		errs["gender"] = "form.choose"
	}
	if !geo.Valid(in.Country) {
		errs["country"] = "form.choose"
	}
	d.Country = in.Country
	if len(errs) > 0 {
		return errs, nil
	}
	if !e.Instrument.NeedsNorms() {
		if errs, err := s.frozen(ctx, r, d, r.NormGroup); err != nil || len(errs) > 0 {
			return errs, err
		}
		kept := store.Rescored{NormGroup: r.NormGroup, Scores: r.Scores, ResultCode: r.ResultCode}
		return nil, notFoundAs(s.Store.SetResultDetails(ctx, s.Store.DB, r.ID, d, kept, s.Now()))
	}
	var answers []int
	if err := json.Unmarshal([]byte(r.Answers), &answers); err != nil {
		return nil, fmt.Errorf("result: stored answers of %s: %w", r.ID, err)
	}
	scored, err := e.Instrument.Score(answers, exam.Profile{Sex: d.Gender.String, Age: age})
	if err != nil {
		return nil, fmt.Errorf("result: rescore %s: %w", r.ID, err)
	}
	if errs, err := s.frozen(ctx, r, d, scored.NormGroup); err != nil || len(errs) > 0 {
		return errs, err
	}
	scores, err := json.Marshal(scored.Detail)
	if err != nil {
		return nil, err
	}
	return nil, notFoundAs(s.Store.SetResultDetails(ctx, s.Store.DB, r.ID, d, store.Rescored{NormGroup: scored.NormGroup, Scores: string(scores), ResultCode: scored.Code}, s.Now()))
}

// frozen returns the field errors of details that would change a paid
// report's norm group or country; none when the report is not paid.
func (s *Service) frozen(ctx context.Context, r store.Result, d store.Details, normGroup string) (map[string]string, error) {
	if normGroup == r.NormGroup && d.Country == r.Country.String {
		return nil, nil
	}
	paid, err := s.Paid(ctx, r.ID)
	if err != nil || !paid {
		return nil, err
	}
	errs := map[string]string{}
	if d.Country != r.Country.String {
		errs["country"] = MsgFrozenCountry
	}
	if normGroup != r.NormGroup {
		if d.BirthYear != r.BirthYear {
			errs["birthYear"] = MsgFrozenNormGroup
		}
		if d.Gender != r.Gender || errs["birthYear"] == "" {
			errs["gender"] = MsgFrozenNormGroup
		}
	}
	return errs, nil
}
