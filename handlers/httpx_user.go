package handlers

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

// errSubscribeUnavailable answers when the payment provider cannot run
// subscriptions.
var errSubscribeUnavailable = &apperr.Error{Status: http.StatusServiceUnavailable, ID: "subscribe.unavailable"}

// visitor is who asks for a subscription screen, as the subscription
// service reads them: the signed-in user, if any, and the region of their
// browser's language, which prices the plans when their tests gave no
// country.
func (s *Server) visitor(c echo.Context) subscription.Visitor {
	v := subscription.Visitor{Locale: state(c).Locale.Tag}
	if region, ok := geo.FromAcceptLanguage(c.Request().Header.Get("Accept-Language")); ok {
		v.Region = region
	}
	if u, ok, err := s.currentUser(c); err == nil && ok {
		v.CustomerID, v.Email = u.ID, u.Email
	}
	return v
}

// entitlement is the signed-in user's tier now; the user's id is their
// customer id. Without a subscription service everyone is a guest.
func (s *Server) entitlement(c echo.Context) (subscription.Entitlement, error) {
	if s.Subscriptions == nil {
		return subscription.Entitlement{Tier: subscription.TierGuest}, nil
	}
	return s.Subscriptions.Entitlement(c.Request().Context(), user(c).ID, s.now())
}

// userReports lists the user's results, newest first, each with its links.
func (s *Server) userReports(c echo.Context) ([]views.UserReport, error) {
	own, err := s.Accounts.Reports(c.Request().Context(), user(c).ID)
	if err != nil {
		return nil, err
	}
	st, t := state(c), tr(c)
	out := make([]views.UserReport, 0, len(own))
	for _, o := range own {
		r := o.Result
		letters, _, _ := strings.Cut(r.ResultCode, "-")
		p := exam.Pair{Code: r.PageCode, ExamID: r.ExamID}.String()
		q := "?r=" + urlQueryEscape(r.ID)
		out = append(out, views.UserReport{
			ID: r.ID, Letters: letters, Title: t.T("type." + letters + ".title"), Date: r.CreatedAt.UTC().Format("2006-01-02"),
			Paid:      o.Paid,
			ViewHref:  st.LocalPath("/report/result/"+p) + q,
			PayHref:   st.LocalPath("/paying/buyreport/"+p) + q,
			ShareHref: st.LocalPath("/types/" + p + "/" + strings.ToLower(letters)),
		})
	}
	return out, nil
}

// signIn starts the user's session and joins this browser's results to
// the account.
func (s *Server) signIn(c echo.Context, u account.User) error {
	owned, _ := s.session(c).Values["results"].([]string)
	if err := s.Accounts.ClaimOwnResults(c.Request().Context(), u.ID, owned); err != nil {
		return err
	}
	return s.startSession(c, u)
}

// sandbox answers 404 unless the sandbox provider is set up: its pages
// exist only then.
func (s *Server) sandbox() error {
	if _, ok := s.Checkout.Provider.(*payment.Sandbox); !ok {
		return echo.ErrNotFound
	}
	return nil
}

func (s *Server) siteTheme(found site.Site) *theme.Theme {
	if th, ok := s.Themes.Get(found.Theme); ok {
		return th
	}
	return s.Themes.Default()
}

// now is the time as the subscription service sees it (its clock is
// injected, so tests walk through renewals and period ends); without that
// service, the account service's clock.
func (s *Server) now() time.Time {
	if s.Subscriptions == nil || s.Subscriptions.Now == nil {
		return s.Accounts.Now().UTC()
	}
	return s.Subscriptions.Now().UTC()
}
