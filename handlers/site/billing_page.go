package site

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/handlers/httpx"
	"selfmap/internal/money"
	"selfmap/internal/receipt"
	"selfmap/internal/subscription"
	"selfmap/internal/validate"
	"selfmap/views"
)

// flashPendingEmail keeps, for the next page, the new address a code was
// mailed to.
const flashPendingEmail = "billing_email"

// billingState is what a refused form puts back on the billing page: the
// form's name, what was typed and the messages.
type billingState struct {
	form   string
	values map[string]string
	errs   validate.FieldErrors
	// pending is the new address the code form is for ("" for none).
	pending string
}

// userBilling serves GET /userCenter/setting/billing: the plan, its card,
// the receipts, and the account's address and name.
func (s *Server) userBilling(c echo.Context) error {
	pending, err := s.TakeFlash(c, flashPendingEmail)
	if err != nil {
		return err
	}
	return s.renderBilling(c, http.StatusOK, billingState{pending: pending})
}

// renderBilling draws the billing page with a form's state.
func (s *Server) renderBilling(c echo.Context, status int, st billingState) error {
	o, err := s.Receipts.Overview(c.Request().Context(), httpx.User(c).ID)
	if err != nil {
		return err
	}
	frame, err := s.userCenterPage(c, "settings")
	if err != nil {
		return err
	}
	t := httpx.Tr(c)
	p := views.BillingPage{Frame: frame, CSS: s.Assets.URL("static/css/billing.css"), Email: httpx.User(c).Email,
		PlansHref: accountPath(c, "/paying/scheme/"+httpx.State(c).Home.String())}
	if sub := o.Subscription; sub != nil {
		p.Plan = billingPlan(c, *sub, o)
		base := accountPath(c, "/userCenter/setting/billing")
		if p.Plan.Ending && !p.Plan.Ended {
			p.ResumeForm = &views.AccountForm{Action: base + "/resume", Submit: t.T("billing.resume.submit"), TestID: "billing-resume",
				Fields: []views.AccountField{{Name: "subscription", Type: "hidden", Value: sub.ID}}}
		}
		if !sub.Ended() {
			s.cardForms(c, &p, *sub, st)
		}
	}
	for _, r := range o.Receipts {
		href := accountPath(c, "/userCenter/setting/billing/receipt/"+r.ID)
		p.Receipts = append(p.Receipts, views.ReceiptLine(c.Request().Context(), r, href, href+"/pdf"))
	}
	s.accountForms(c, &p, st)
	return s.Render(c, status, views.Billing(p))
}

// billingPlan is the subscription as the page shows it.
func billingPlan(c echo.Context, sub subscription.Subscription, o receipt.Overview) *views.BillingPlan {
	t := httpx.Tr(c)
	name := t.T("mail.sub.plan." + sub.PlanID)
	if name == "mail.sub.plan."+sub.PlanID {
		name = sub.PlanID
	}
	pl := &views.BillingPlan{Name: name, StatusKey: string(sub.Status), Status: t.T("billing.status." + string(sub.Status)),
		Ending: sub.CancelAtPeriodEnd && !sub.Ended(), Ended: sub.Ended(), Card: billingCard(sub)}
	if sub.TrialEnd.Valid && sub.Status == subscription.Trialing {
		pl.TrialEnd = httpx.Day(sub.TrialEnd.Time)
	}
	pl.PeriodEnd = httpx.Day(sub.CurrentPeriodEnd)
	if !o.NextCharge.IsZero() {
		pl.NextCharge = httpx.Day(o.NextCharge)
		if a, err := money.Format(o.NextAmount, sub.Currency); err == nil {
			pl.NextAmount = a
		}
	}
	return pl
}

// billingCard names the subscription's card, "" when the provider told
// nothing of it.
func billingCard(sub subscription.Subscription) string {
	if !sub.CardLast4.Valid || sub.CardLast4.String == "" {
		return ""
	}
	return views.CardBrandName(sub.CardBrand.String) + " •••• " + sub.CardLast4.String
}

// accountForms are the address and name forms, or the code form after a
// code was mailed.
func (s *Server) accountForms(c echo.Context, p *views.BillingPage, st billingState) {
	t := httpx.Tr(c)
	base := accountPath(c, "/userCenter/setting/billing")
	errsOf := func(form string) validate.FieldErrors {
		if st.form == form {
			return st.errs
		}
		return nil
	}
	email := emailField(c, st.values["email"])
	email.Label = t.T("billing.email.new")
	p.EmailForm = views.AccountForm{Action: base + "/email", Submit: t.T("billing.email.submit"), TestID: "billing-email-form",
		Heading: t.T("billing.email.title"), Text: t.T("billing.email.intro"), Errors: errsOf("email"),
		Fields: []views.AccountField{email, passwordField(c, "current", "account.field.current", "current-password", false)}}
	if st.pending != "" {
		p.CodeForm = &views.AccountForm{Action: base + "/email/confirm", Submit: t.T("billing.email.confirm"), TestID: "billing-code-form",
			Heading: t.T("billing.email.title"), Errors: errsOf("code"),
			Text:   httpx.Tr(c).TD("billing.email.sent", map[string]any{"Email": st.pending}),
			Fields: []views.AccountField{{Name: "email", Type: "hidden", Value: st.pending}, codeField(c)}}
	}
	name := st.values["name"]
	if st.form != "name" {
		name = httpx.User(c).Name
	}
	p.NameForm = views.AccountForm{Action: base + "/name", Submit: t.T("billing.name.submit"), TestID: "billing-name-form",
		Errors: errsOf("name"),
		Fields: []views.AccountField{{Name: "name", Label: t.T("account.field.name"), Type: "text", Value: name, Autocomplete: "name", MaxLength: 50}}}
}
