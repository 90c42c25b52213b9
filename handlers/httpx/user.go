package httpx

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/internal/account"
	"selfmap/internal/apperr"
	"selfmap/internal/exam"
	"selfmap/internal/geo"
	"selfmap/internal/payment"
	"selfmap/internal/site"
	"selfmap/internal/subscription"
	"selfmap/internal/theme"
	"selfmap/views"
)

// ErrSubscribeUnavailable answers when the payment provider cannot run
// subscriptions.
var ErrSubscribeUnavailable = &apperr.Error{Status: http.StatusServiceUnavailable, ID: "subscribe.unavailable"}

// Visitor is who asks for a subscription screen, as the subscription
// service reads them: the signed-in user, if any, and the region of their
// browser's language, which prices the plans when their tests gave no
// country.
func (s *Server) Visitor(c echo.Context) subscription.Visitor {
	v := subscription.Visitor{Locale: State(c).Locale.Tag}
	if region, ok := geo.FromAcceptLanguage(c.Request().Header.Get("Accept-Language")); ok {
		v.Region = region
	}
	if u, ok, err := s.CurrentUser(c); err == nil && ok {
		v.CustomerID, v.Email = u.ID, u.Email
	}
	return v
}

// Entitlement is the signed-in user's tier now; the user's id is their
// customer id. Without a subscription service everyone is a guest.
func (s *Server) Entitlement(c echo.Context) (subscription.Entitlement, error) {
	if s.Subscriptions == nil {
		return subscription.Entitlement{Tier: subscription.TierGuest}, nil
	}
	return s.Subscriptions.Entitlement(c.Request().Context(), User(c).ID, s.now())
}

// UserReports lists the user's results, newest first, each with its links.
func (s *Server) UserReports(c echo.Context) ([]views.UserReport, error) {
	own, err := s.Accounts.Reports(c.Request().Context(), User(c).ID)
	if err != nil {
		return nil, err
	}
	st := State(c)
	out := make([]views.UserReport, 0, len(own))
	for _, o := range own {
		r := o.Result
		// Each instrument names its results (the type and its title; a
		// screen and its band); only a type has a public page to share.
		h, err := s.Reports.Headline(c.Request().Context(), r, st.Locale)
		if err != nil {
			return nil, err
		}
		p := exam.Pair{Code: r.PageCode, ExamID: r.ExamID}.String()
		q := "?r=" + URLQueryEscape(r.ID)
		ur := views.UserReport{
			ID: r.ID, Letters: h.Code, Title: h.Title, Date: Day(r.CreatedAt),
			Paid:     o.Paid,
			ViewHref: st.LocalPath("/report/result/"+p) + q,
			PayHref:  st.LocalPath("/paying/buyreport/"+p) + q,
		}
		if h.TypePage != "" {
			ur.Letters, _, _ = strings.Cut(h.Code, "-")
			ur.ShareHref = st.LocalPath("/types/" + p + "/" + h.TypePage)
		}
		out = append(out, ur)
	}
	return out, nil
}

// SignIn starts the user's session and joins this browser's results to
// the account.
func (s *Server) SignIn(c echo.Context, u account.User) error {
	owned, _ := s.Session(c).Values["results"].([]string)
	if err := s.Accounts.ClaimOwnResults(c.Request().Context(), u.ID, owned); err != nil {
		return err
	}
	return s.startSession(c, u)
}

// Sandbox answers 404 unless the sandbox provider is set up: its pages
// exist only then.
func (s *Server) Sandbox() error {
	if _, ok := s.Checkout.Provider.(*payment.Sandbox); !ok {
		return echo.ErrNotFound
	}
	return nil
}

func (s *Server) SiteTheme(found site.Site) *theme.Theme {
	if th, ok := s.Themes.Get(found.Theme); ok {
		return th
	}
	return s.Themes.Default()
}

// now is the time by the one clock every service was given (Deps.Now).
func (s *Server) now() time.Time { return s.Deps.Now().UTC() }

// MemberID is the signed-in user's id, "" for a visitor without an
// account (or a session that no longer names one).
func (s *Server) MemberID(c echo.Context) string {
	if u, ok, err := s.CurrentUser(c); err == nil && ok {
		return u.ID
	}
	return ""
}
