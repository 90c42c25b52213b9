package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
	"selfmap/internal/mail"
	"selfmap/internal/subscription"
)

// billingMember is a verified member signed in on a new browser.
func billingMember(t *testing.T, k *apptest.Kit, email string) (*browser, string) {
	t.Helper()
	u := k.VerifiedUser(t, email)
	b := newBrowser(t, k.Handler)
	if rec := b.Login(email, apptest.Password); rec.Code != http.StatusSeeOther {
		t.Fatalf("log in %s: %d", email, rec.Code)
	}
	return b, u.ID
}

var receiptLink = regexp.MustCompile(`href="(/userCenter/setting/billing/receipt/[A-Za-z0-9]+)"`)

// receiptPaths are the receipts' pages linked from the billing page, in
// its order (newest first).
func receiptPaths(t *testing.T, b *browser) []string {
	t.Helper()
	var out []string
	for _, m := range receiptLink.FindAllStringSubmatch(b.Get("/userCenter/setting/billing").Body.String(), -1) {
		out = append(out, m[1])
	}
	return out
}

// The page for each state of a plan: none, trialing, active, cancelled at
// the period's end, each with what the rows say and nothing invented.
func TestBillingPageStates(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b, _ := billingMember(t, k, "nobody@example.com")
		page := b.Expect("/userCenter/setting/billing", http.StatusOK, `data-testid="billing-no-plan"`, "You have no plan at the moment.",
			`href="/paying/scheme/BMBTI-1807"`, `data-testid="billing-no-receipts"`, "nobody@example.com").Body.String()
		if strings.Contains(page, `data-testid="billing-card-form"`) || strings.Contains(page, `data-testid="billing-resume"`) {
			t.Error("a member without a plan is offered a card or a resume")
		}
		if rec := newBrowser(t, k.Handler).Get("/userCenter/setting/billing"); rec.Code != http.StatusSeeOther {
			t.Errorf("signed out: %d, want a redirect to log in", rec.Code)
		}
		b.Expect("/ja/userCenter/setting/billing", http.StatusOK, "現在ご利用中のプランはありません。")

		tb, tid := billingMember(t, k, "trial@example.com")
		u, _ := k.Store.GetUser(context.Background(), k.Store.DB, tid)
		trial := apptest.Subscribe(t, k.App.Subscriptions, subscription.StartInput{CustomerID: u.ID, Email: u.Email, PlanID: "basic-weekly"}, true)
		end, endISO := localDay("en", trial.TrialEnd.Time), trial.TrialEnd.Time.UTC().Format("2006-01-02")
		tb.Expect("/userCenter/setting/billing", http.StatusOK, `data-status="trialing"`, "Basic plan",
			`data-testid="billing-trial-end"><time datetime="`+endISO+`">`+end+`</time>`, "$19.99 on "+end, "Visa •••• 4242", `data-testid="billing-card-form"`, "Basic plan: trial", "$1.49")

		ab, aid := billingMember(t, k, "active@example.com")
		sub := k.ActiveSubscription(t, aid, "basic-weekly")
		next, nextISO := localDay("en", sub.CurrentPeriodEnd), sub.CurrentPeriodEnd.UTC().Format("2006-01-02")
		page = ab.Expect("/userCenter/setting/billing", http.StatusOK, `data-status="active"`, "$19.99 on "+next,
			"Basic plan: first period").Body.String()
		if strings.Contains(page, `data-testid="billing-trial-end"`) || strings.Contains(page, `data-testid="billing-resume"`) {
			t.Error("an active plan shows a trial end or a resume")
		}

		if _, err := k.App.Subscriptions.Cancel(context.Background(), aid, sub.ID); err != nil {
			t.Fatal(err)
		}
		page = ab.Expect("/userCenter/setting/billing", http.StatusOK, `data-testid="billing-ends"><time datetime="`+nextISO+`">`+next+`</time>`, `data-testid="billing-resume"`,
			"you keep your access until "+next).Body.String()
		if strings.Contains(page, `data-testid="billing-next-charge"`) || strings.Contains(page, "Your next payments will be charged to the new card") ||
			!strings.Contains(page, "Your plan will not renew, so nothing more will be charged") {
			t.Error("a cancelled plan shows a next payment, or says the new card will be charged")
		}
		ab.Expect("/de/userCenter/setting/billing", http.StatusOK, "Abo behalten", "Zahlungen", localDay("de", sub.CurrentPeriodEnd))
	})
}

// A receipt opens for its member only; another member gets the same 404
// as for a receipt that does not exist.
func TestBillingReceipt(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b, id := billingMember(t, k, "payer@example.com")
		k.ActiveSubscription(t, id, "basic-weekly")
		paths := receiptPaths(t, b)
		if len(paths) != 1 {
			t.Fatalf("receipts linked: %v", paths)
		}
		path := paths[0]
		b.Expect("/userCenter/setting/billing", http.StatusOK, `href="`+path+`/pdf"`)
		page := b.Expect(path, http.StatusOK, `data-testid="receipt-merchant">Selfmap`, `data-testid="receipt-amount"><strong>$19.99`,
			`data-testid="receipt-currency">USD`, `data-testid="receipt-card">Visa •••• 4242`, "Basic plan: first period",
			`data-testid="receipt-date"><time datetime="`+k.Clock.Now().UTC().Format("2006-01-02")+`">`+localDay("en", k.Clock.Now())+`</time>`).Body.String()
		number := regexp.MustCompile(`data-testid="receipt-number">([^<]+)<`).FindStringSubmatch(page)
		if number == nil || number[1] == "" {
			t.Fatal("the receipt has no number")
		}
		b.Expect("/ja"+path, http.StatusOK, "領収書番号", "PDFをダウンロード", localDay("ja", k.Clock.Now()))

		other, _ := billingMember(t, k, "other@example.com")
		missing := other.Get("/userCenter/setting/billing/receipt/snothere")
		foreign := other.Get(path)
		if foreign.Code != http.StatusNotFound || missing.Code != http.StatusNotFound {
			t.Fatalf("another member's receipt: %d, a missing one: %d", foreign.Code, missing.Code)
		}
		if strings.Contains(foreign.Body.String(), number[1]) {
			t.Error("the 404 shows the receipt")
		}
		if rec := other.Get(path + "/pdf"); rec.Code != http.StatusNotFound {
			t.Errorf("another member's PDF: %d", rec.Code)
		}
	})
}

// Resume takes back a cancel before the period ends; once it has ended
// the resume answers as a missing subscription, as it does for another
// member's.
func TestBillingResume(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		ctx := context.Background()
		b, id := billingMember(t, k, "resume@example.com")
		sub := k.ActiveSubscription(t, id, "basic-weekly")
		if _, err := k.App.Subscriptions.Cancel(ctx, id, sub.ID); err != nil {
			t.Fatal(err)
		}
		other, _ := billingMember(t, k, "stranger@example.com")
		if rec := other.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/resume", url.Values{"subscription": {sub.ID}}); rec.Code != http.StatusNotFound {
			t.Fatalf("another member's resume: %d", rec.Code)
		}
		if got, _ := k.Store.GetSubscription(ctx, k.Store.DB, sub.ID); !got.CancelAtPeriodEnd {
			t.Fatal("another member resumed it")
		}
		rec := b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/resume", url.Values{"subscription": {sub.ID}})
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("resume: %d %.300s", rec.Code, rec.Body.String())
		}
		got, _ := k.Store.GetSubscription(ctx, k.Store.DB, sub.ID)
		if got.CancelAtPeriodEnd || got.CanceledAt.Valid || got.Status != subscription.Active {
			t.Fatalf("after resume: %+v", got)
		}
		b.Expect("/userCenter/setting/billing", http.StatusOK, "Your subscription will renew again at the end of the period.",
			`data-testid="billing-next-charge"`)

		if _, err := k.App.Subscriptions.Cancel(ctx, id, sub.ID); err != nil {
			t.Fatal(err)
		}
		k.Clock.Set(sub.CurrentPeriodEnd.Add(time.Hour))
		if _, err := k.App.Subscriptions.RenewDue(ctx); err != nil {
			t.Fatal(err)
		}
		if got, _ := k.Store.GetSubscription(ctx, k.Store.DB, sub.ID); !got.Ended() {
			t.Fatalf("not ended after its period: %s", got.Status)
		}
		rec = b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/resume", url.Values{"subscription": {sub.ID}})
		if rec.Code != http.StatusNotFound {
			t.Fatalf("resume of an ended subscription: %d", rec.Code)
		}
		if got, _ := k.Store.GetSubscription(ctx, k.Store.DB, sub.ID); !got.Ended() || !got.CancelAtPeriodEnd {
			t.Fatalf("the refused resume changed it: %+v", got)
		}
	})
}

// The sandbox's card form replaces the card (brand and last four); bad
// input is refused with the fields' messages, and another member's
// subscription answers 404, unchanged.
func TestBillingReplaceCard(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		ctx := context.Background()
		b, id := billingMember(t, k, "card@example.com")
		sub := k.ActiveSubscription(t, id, "basic-weekly")
		form := func(number string) url.Values {
			return url.Values{"subscription": {sub.ID}, "number": {number}, "expiry": {"12/30"}, "cvc": {"123"}}
		}

		other, _ := billingMember(t, k, "thief@example.com")
		if rec := other.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/card", form("5555 5555 5555 4444")); rec.Code != http.StatusNotFound {
			t.Fatalf("another member's card: %d", rec.Code)
		}
		rec := b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/card", url.Values{"subscription": {sub.ID},
			"number": {"4242 4242 4242 4241"}, "expiry": {"13/20"}, "cvc": {"1"}})
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `aria-invalid="true"`) {
			t.Fatalf("a bad card: %d", rec.Code)
		}
		if got, _ := k.Store.GetSubscription(ctx, k.Store.DB, sub.ID); got.CardLast4.String != "4242" || got.PaymentMethodRef != sub.PaymentMethodRef {
			t.Fatalf("refused cards changed it: %+v", got)
		}

		rec = b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/card", form("4111 1111 1111 1111"))
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "This card cannot be saved.") {
			t.Fatalf("a number the sandbox does not know: %d", rec.Code)
		}
		k.Clock.Add(time.Hour)
		rec = b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/card", form("4000 0000 0000 9995"))
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("replace card: %d %.400s", rec.Code, rec.Body.String())
		}
		got, _ := k.Store.GetSubscription(ctx, k.Store.DB, sub.ID)
		if got.CardBrand.String != "visa" || got.CardLast4.String != "9995" || got.PaymentMethodRef == sub.PaymentMethodRef {
			t.Fatalf("after replace: %+v", got)
		}
		b.Expect("/userCenter/setting/billing", http.StatusOK, "Your new card has been saved.", "Visa •••• 9995")
		// The first period was charged to the old card, and its receipt says so.
		b.Expect(receiptPaths(t, b)[0], http.StatusOK, `data-testid="receipt-card">Visa •••• 4242`)
		// The sandbox's Mastercard test number replaces it with another brand.
		if rec := b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/card", form("5555 5555 5555 4444")); rec.Code != http.StatusSeeOther {
			t.Fatalf("replace with a Mastercard: %d %.400s", rec.Code, rec.Body.String())
		}
		b.Expect("/userCenter/setting/billing", http.StatusOK, "Your new card has been saved.", `data-testid="billing-card">Mastercard •••• 4444`)
	})
}

// The address changes only with the code mailed to the new address; an
// address another account has gets the same answer, no code, and no
// code works for it.
// emailChangeCode reads the code of the newest address-change e-mail to an
// address, which says what it is for, not "verify your address".
func emailChangeCode(t *testing.T, k *apptest.Kit, to string) string {
	t.Helper()
	mails, err := k.Store.ListMail(context.Background(), k.Store.DB, 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mails {
		if m.To != to || m.Kind != mail.KindEmailChange {
			continue
		}
		if m.Subject != "Confirm your new e-mail address" || !strings.Contains(m.Body, "the account keeps its current address") ||
			strings.Contains(m.Body, "verify your e-mail address") {
			t.Fatalf("the address-change e-mail: %q\n%s", m.Subject, m.Body)
		}
		if c := mailedCode.FindStringSubmatch(m.Body); c != nil {
			return c[1]
		}
	}
	t.Fatalf("no address-change code mailed to %s", to)
	return ""
}

func TestBillingChangeEmail(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		ctx := context.Background()
		b, id := billingMember(t, k, "old@example.com")
		k.VerifiedUser(t, "taken@example.com")

		rec := b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/email", url.Values{"email": {"new@example.com"}, "current": {"wrong"}})
		if rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("a wrong password: %d", rec.Code)
		}
		rec = b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/email", url.Values{"email": {"New@Example.com"}, "current": {apptest.Password}})
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("ask for a code: %d %.300s", rec.Code, rec.Body.String())
		}
		sent := b.Expect("/userCenter/setting/billing", http.StatusOK, `data-testid="billing-code-form"`,
			"If new@example.com can be used, we have sent a code to it.").Body.String()
		if u, _ := k.Store.GetUser(ctx, k.Store.DB, id); u.Email != "old@example.com" {
			t.Fatalf("the address changed before the code: %s", u.Email)
		}
		code := emailChangeCode(t, k, "new@example.com")
		wrong := "000000"
		if code == wrong {
			wrong = "111111"
		}
		rec = b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/email/confirm", url.Values{"email": {"new@example.com"}, "code": {wrong}})
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "This code is not correct") {
			t.Fatalf("a wrong code: %d", rec.Code)
		}
		rec = b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/email/confirm", url.Values{"email": {"new@example.com"}, "code": {code}})
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("confirm: %d %.300s", rec.Code, rec.Body.String())
		}
		if u, _ := k.Store.GetUser(ctx, k.Store.DB, id); u.Email != "new@example.com" || !u.Verified() {
			t.Fatalf("after the code: %+v", u)
		}
		b.Expect("/userCenter/setting/billing", http.StatusOK, "Your e-mail address has been changed.", `data-testid="billing-email">new@example.com`)

		// Taken: the same answer, no mail, no code works, nothing changes.
		rec = b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/email", url.Values{"email": {"taken@example.com"}, "current": {apptest.Password}})
		if rec.Code != http.StatusSeeOther {
			t.Fatalf("a taken address: %d", rec.Code)
		}
		taken := b.Expect("/userCenter/setting/billing", http.StatusOK, "If taken@example.com can be used, we have sent a code to it.").Body.String()
		if strings.ReplaceAll(taken, "taken@example.com", "X") == "" || len(sent) == 0 {
			t.Fatal("empty pages")
		}
		if n, _ := k.Store.CountEmailCodes(ctx, k.Store.DB, "taken@example.com", "email_change:"+id, k.Clock.Now().Add(-time.Hour)); n != 0 {
			t.Fatalf("%d codes mailed to an address another account has", n)
		}
		rec = b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/email/confirm", url.Values{"email": {"taken@example.com"}, "code": {"123456"}})
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "This code is not correct") {
			t.Fatalf("a code for a taken address: %d", rec.Code)
		}
		if u, _ := k.Store.GetUser(ctx, k.Store.DB, id); u.Email != "new@example.com" {
			t.Fatalf("the taken address was given: %s", u.Email)
		}
	})
}

// The name form saves the name, and refuses an empty one.
func TestBillingChangeName(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b, id := billingMember(t, k, "name@example.com")
		if rec := b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/name", url.Values{"name": {"  "}}); rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("an empty name: %d", rec.Code)
		}
		if rec := b.Submit("/userCenter/setting/billing", "/userCenter/setting/billing/name", url.Values{"name": {"Grace Hopper"}}); rec.Code != http.StatusSeeOther {
			t.Fatalf("a name: %d", rec.Code)
		}
		if u, _ := k.Store.GetUser(context.Background(), k.Store.DB, id); u.Name != "Grace Hopper" {
			t.Fatalf("name = %q", u.Name)
		}
	})
}
