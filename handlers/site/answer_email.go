package site

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/geo"
	"selfmap/internal/result"
	"selfmap/views"
)

// answerEmail serves GET /answer/email/{p}: the e-mail step, then the
// personal-details step, then on to the free result. Once the report is
// paid the steps are over: on to the report.
func (s *Server) answerEmail(c echo.Context) error {
	httpx.Sensitive(c)
	r, err := s.flowResult(c)
	if err != nil {
		return flowError(c, err)
	}
	if paid, err := s.Results.Paid(c.Request().Context(), r.ID); err != nil {
		return err
	} else if paid {
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/report/result", r.ID))
	}
	action := flowURL(c, "/answer/email", r.ID)
	if r.Email.Valid && r.FirstName.Valid {
		return c.Redirect(http.StatusSeeOther, flowURL(c, "/report/result-free-test", r.ID))
	}
	// A signed-in member finds what the account already knows filled in.
	u, _, err := s.CurrentUser(c)
	if err != nil {
		return err
	}
	if !r.Email.Valid {
		return s.Render(c, http.StatusOK, views.Email(views.EmailPage{Action: action, Email: u.Email, FromAccount: u.Email != ""}))
	}
	known, err := s.Results.KnownDetails(c.Request().Context(), u, httpx.State(c).Locale.FamilyNameFirst())
	if err != nil {
		return err
	}
	return s.Render(c, http.StatusOK, s.detailsView(c, r, action, known, nil, known != result.DetailsInput{}))
}

// answerEmailPost takes either step's form (POST /answer/email/{p}). An
// invalid form is shown again with the values kept and a message per field;
// a valid one redirects (Post/Redirect/Get). After payment the service
// refuses another address, norm group or country, field by field.
func (s *Server) answerEmailPost(c echo.Context) error {
	httpx.Sensitive(c)
	r, err := s.flowResult(c)
	if err != nil {
		return flowError(c, err)
	}
	ctx := c.Request().Context()
	action := flowURL(c, "/answer/email", r.ID)
	switch c.FormValue("step") {
	case "email":
		msg, err := s.Results.SetEmail(ctx, r, c.FormValue("email"))
		if err != nil {
			return err
		}
		if msg != "" {
			return s.Render(c, http.StatusUnprocessableEntity, views.Email(views.EmailPage{Action: action, Email: c.FormValue("email"), Error: msg}))
		}
	case "details":
		if !r.Email.Valid {
			// The details come after the e-mail: back to that step.
			return c.Redirect(http.StatusSeeOther, action)
		}
		in := result.DetailsInput{
			FirstName: c.FormValue("firstName"), LastName: c.FormValue("lastName"), BirthYear: c.FormValue("birthYear"),
			Gender: c.FormValue("gender"), Country: c.FormValue("country"),
		}
		errs, err := s.Results.SetDetails(ctx, r, in)
		if err != nil {
			return err
		}
		if len(errs) > 0 {
			return s.Render(c, http.StatusUnprocessableEntity, s.detailsView(c, r, action, in, errs, false))
		}
	default:
		return echo.ErrBadRequest
	}
	return c.Redirect(http.StatusSeeOther, action)
}

// detailsView is the details step of result r: the year of birth and sex
// only when its exam's instrument has norms (result.SetDetails reads them
// by the same rule).
func (s *Server) detailsView(c echo.Context, r result.Result, action string, in result.DetailsInput, errs map[string]string, known bool) templ.Component {
	e, _ := s.Exams.Exam(r.ExamID)
	return views.Details(views.DetailsPage{
		Action: action, FirstName: in.FirstName, LastName: in.LastName, BirthYear: in.BirthYear, Gender: in.Gender,
		Country: in.Country, Errors: errs, Genders: result.Genders, Countries: geo.Countries(httpx.State(c).Locale.Tag),
		MaxYear: s.Deps.Now().Year(), Norms: e.Instrument != nil && e.Instrument.NeedsNorms(), FromAccount: known,
	})
}
