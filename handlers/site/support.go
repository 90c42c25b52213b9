package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/exam"
	"selfmap/internal/support"
	"selfmap/internal/validate"
	"selfmap/views"
)

// supportPage serves GET /support/{p}: quick answers (support.Service.QuickAnswers)
// and the contact form.
func (s *Server) supportPage(c echo.Context) error {
	return s.renderSupport(c, http.StatusOK, support.Input{}, nil)
}

// supportPost takes the contact form (POST /support/{p}). An invalid form
// comes back with what was typed and a message per field; a valid one is
// stored and queued for the support mailbox, then redirects with a thank-you
// (Post/Redirect/Get).
func (s *Server) supportPost(c echo.Context) error {
	st := httpx.State(c)
	in := support.Input{Name: c.FormValue("name"), Email: c.FormValue("email"), Topic: c.FormValue("topic"),
		Message: c.FormValue("message"), Locale: st.Locale.Tag}
	// The hidden website field is left empty by people and filled by
	// robots: a robot is thanked and nothing is kept.
	if c.FormValue("website") == "" {
		_, errs, err := s.Support.Send(c.Request().Context(), in)
		if err != nil {
			return err
		}
		if errs.Any() {
			return s.renderSupport(c, http.StatusUnprocessableEntity, in, errs)
		}
	}
	sess := s.Session(c)
	sess.AddFlash(httpx.Tr(c).T("support.sent"))
	if err := sess.Save(c.Request(), c.Response()); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, st.WithQuery(st.LocalPath("/support/"+httpx.Pair(c).String())))
}

func (s *Server) renderSupport(c echo.Context, status int, in support.Input, errs validate.FieldErrors) error {
	p, st := httpx.Pair(c), httpx.State(c)
	page := views.SupportPage{
		CSS: s.pagesCSS(), Pair: p.String(), HelpHref: st.LocalPath("/help/" + p.String()),
		Form: contactForm(c, p, in, errs),
	}
	articles, err := s.Support.QuickAnswers(c.Request().Context(), st.Locale.Tag, p.ExamID)
	if err != nil {
		return err
	}
	for _, a := range articles {
		page.Articles = append(page.Articles, helpArticleView(c, p, a))
	}
	return s.Render(c, status, views.Support(page))
}

// contactForm is the contact form's view model, posting to the support
// page of the pair.
func contactForm(c echo.Context, p exam.Pair, in support.Input, errs validate.FieldErrors) views.ContactFormData {
	return views.ContactFormData{
		Action: httpx.State(c).LocalPath("/support/" + p.String()),
		Name:   in.Name, Email: in.Email, Topic: in.Topic, Message: in.Message, Errors: errs,
		Topics: support.Topics, MaxName: support.MaxName, MaxMessage: support.MaxMessage,
		PrivacyHref: httpx.State(c).LocalPath(httpx.LegalPath("privacy", p.String())),
	}
}
