package subscription

import (
	"context"
	"database/sql"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"selfmap/internal/i18n"
	"selfmap/internal/mail"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// mailMessageID is an untranslated message id ("e-mail." is text).
var mailMessageID = regexp.MustCompile(`\b(mail|sub|meta)\.[a-z_]+\.`)

func testMailer(t *testing.T) *Mailer {
	t.Helper()
	m, err := defaultMailer()
	if err != nil {
		t.Fatal(err)
	}
	return &Mailer{Templates: m.Templates, Catalog: m.Catalog, BaseURL: "https://selfmap.test"}
}

// Every kind, in each of its wordings, composes in every locale: subject,
// text and HTML in the subscription's language, with its amount, its date,
// the plan's name and absolute links; what came from outside is escaped.
func TestMailEveryKindInEveryLocale(t *testing.T) {
	m := testMailer(t)
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	end := time.Date(2026, 3, 29, 10, 0, 0, 0, time.UTC)
	retry := time.Date(2026, 3, 30, 10, 0, 0, 0, time.UTC)
	sub := store.Subscription{ID: "sub_1", PlanID: "basic-weekly", Status: Active, Price: 1999, Currency: "EUR",
		CurrentPeriodStart: start, CurrentPeriodEnd: end, CardBrand: sql.NullString{String: "<b>card</b>", Valid: true},
		CardLast4: sql.NullString{String: "4242", Valid: true}}
	inv := store.Invoice{ID: "inv_1", Kind: KindRenewal, PeriodStart: start, PeriodEnd: end, Amount: 149, Currency: "EUR",
		Attempts: 2, NextAttemptAt: retry}
	type mailCase struct {
		name   string
		kind   mailKind
		status Status
		// amount and day must show in the body (the day in the subject too
		// when subjectDay).
		amount     string
		day        time.Time
		subjectDay bool
		ref        string
	}
	trial := inv
	trial.Kind = KindTrial
	cases := []mailCase{
		{"receipt", mailKind{mailReceipt, inv}, Active, "€1,49", end, false, "inv_1"},
		{"receipt of a trial", mailKind{mailReceipt, trial}, Trialing, "€19,99", end, false, "inv_1"},
		{"payment failed", mailKind{mailPaymentFailed, inv}, PastDue, "€1,49", retry, false, "inv_1#2"},
		{"ended unpaid", mailKind{mailCanceledUnpaid, inv}, Canceled, "€1,49", time.Time{}, false, "sub_1"},
		{"canceled at period end", mailKind{kind: mailCanceled}, Active, "", end, false, "sub_1"},
		{"canceled now", mailKind{kind: mailCanceled}, Canceled, "", time.Time{}, false, "sub_1"},
		{"reminder", mailKind{kind: mailReminder}, Active, "€19,99", end, true, "sub_1@2026-03-29T10:00:00Z"},
		{"reminder of a trial", mailKind{kind: mailReminder}, Trialing, "€19,99", end, true, "sub_1@2026-03-29T10:00:00Z"},
	}
	wordings := map[string]map[string]bool{}
	for _, l := range i18n.Locales {
		tr := m.Catalog.Translator(l)
		plan := tr.T("mail.sub.plan.basic-weekly")
		prefix := "https://selfmap.test" + l.Prefix
		for _, c := range cases {
			s := sub
			s.Locale, s.Status = l.Tag, c.status
			got, ref, err := m.compose(c.kind, s)
			if err != nil {
				t.Fatalf("%s %s: %v", l.Tag, c.name, err)
			}
			if ref != c.ref || got.Kind != c.kind.kind {
				t.Errorf("%s %s: kind %q ref %q", l.Tag, c.name, got.Kind, ref)
			}
			if got.Subject == "" || mailMessageID.MatchString(got.Subject) || strings.Contains(got.Subject, "<no value>") {
				t.Errorf("%s %s: subject %q", l.Tag, c.name, got.Subject)
			}
			if c.subjectDay && !strings.Contains(got.Subject, mail.Date(tr, c.day)) {
				t.Errorf("%s %s: subject %q lacks the day", l.Tag, c.name, got.Subject)
			}
			for part, body := range map[string]string{"text": got.Text, "html": got.HTML} {
				want := []string{plan, prefix + "/userCenter", prefix + "/cancel/subscription/BMBTI-1807",
					prefix + "/legal/subscription-terms/BMBTI-1807"}
				if c.kind.kind != mailCanceled {
					want = append(want, "4242")
				}
				if c.amount != "" {
					want = append(want, c.amount)
				}
				if !c.day.IsZero() {
					want = append(want, mail.Date(tr, c.day))
				}
				for _, w := range want {
					if !strings.Contains(body, w) {
						t.Errorf("%s %s %s lacks %q:\n%s", l.Tag, c.name, part, w, body)
					}
				}
				if mailMessageID.MatchString(body) || strings.Contains(body, "<no value>") || strings.Contains(body, "basic-weekly") {
					t.Errorf("%s %s %s shows a message id, a missing value or a plan id:\n%s", l.Tag, c.name, part, body)
				}
			}
			if !strings.Contains(got.HTML, `<html lang="`+l.Tag+`">`) || strings.Contains(got.HTML, "<b>card</b>") ||
				(c.kind.kind != mailCanceled && !strings.Contains(got.HTML, "&lt;b&gt;card&lt;/b&gt;")) {
				t.Errorf("%s %s: HTML without its lang or with unescaped input", l.Tag, c.name)
			}
			if wordings[l.Tag] == nil {
				wordings[l.Tag] = map[string]bool{}
			}
			wordings[l.Tag][got.Text] = true
		}
		if len(wordings[l.Tag]) != len(cases) {
			t.Errorf("%s: %d different texts for %d cases", l.Tag, len(wordings[l.Tag]), len(cases))
		}
	}
}

// Dates read as each language writes them.
func TestMailDates(t *testing.T) {
	m := testMailer(t)
	for tag, want := range map[string]string{
		"en": "1 March 2026", "fr": "1er mars 2026", "de": "1. März 2026", "es": "1 de marzo de 2026", "pt": "1º de março de 2026",
		"ja": "2026年3月1日", "zh-CN": "2026年3月1日", "zh-HK": "2026年3月1日", "ko": "2026년 3월 1일",
	} {
		l, _ := i18n.ByTag(tag)
		if got := mail.Date(m.Catalog.Translator(l), time.Date(2026, 3, 1, 23, 0, 0, 0, time.UTC)); got != want {
			t.Errorf("%s: %q, want %q", tag, got, want)
		}
	}
	l, _ := i18n.ByTag("fr")
	if got := mail.Date(m.Catalog.Translator(l), time.Date(2026, 12, 24, 0, 0, 0, 0, time.UTC)); got != "24 décembre 2026" {
		t.Errorf("fr: %q", got)
	}
}

// A plan without a name of its own is named by its id, never by a message
// id; an invalid currency is an error, not a mail with an empty amount.
func TestMailFallbacks(t *testing.T) {
	m := testMailer(t)
	sub := store.Subscription{ID: "sub_2", Locale: "xx", PlanID: "gold-yearly", Status: Active, Price: 100, Currency: "USD",
		CurrentPeriodEnd: time.Date(2026, 5, 2, 0, 0, 0, 0, time.UTC)}
	c, _, err := m.compose(mailKind{kind: mailReminder}, sub)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.Text, "gold-yearly") || !strings.Contains(c.Text, "2 May 2026") || !strings.Contains(c.Text, "••••") ||
		!strings.Contains(c.HTML, `<html lang="en">`) {
		t.Errorf("fallbacks:\n%s", c.Text)
	}
	sub.Currency = "usd"
	if _, _, err := m.compose(mailKind{kind: mailReminder}, sub); err == nil {
		t.Error("a malformed currency composed")
	}
	if _, _, err := m.compose(mailKind{kind: "subscription_unknown"}, sub); err == nil {
		t.Error("an unknown kind composed")
	}
}

// On both databases: starting a trial and cancelling queue the receipt and
// the cancellation in the subscriber's language, with both parts and
// absolute links, once each however often the cancel is repeated.
func TestQueuedMailsAreLocalized(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 3, 28, 10, 0, 0, 0, time.UTC)
		clock := func() time.Time { return now }
		sb := storetest.Sandbox(st, clock)
		svc := &Service{Store: st, Provider: sb, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: clock, Mail: testMailer(t)}
		sub, err := svc.StartTrial(ctx, StartInput{CustomerID: "kim", Email: "kim@example.com", Locale: "ko", Country: "US",
			PlanID: "basic-weekly", Method: storetest.GoodCard(t, sb)})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if _, err := svc.Cancel(ctx, "kim", sub.ID); err != nil {
				t.Fatal(err)
			}
		}
		var rows []store.Mail
		if err := st.DB.Select(&rows, st.DB.Rebind(`SELECT id, kind, to_address, locale, subject, body, html_body, ref, status, created_at
			FROM mail_outbox WHERE to_address = ? ORDER BY kind`), "kim@example.com"); err != nil {
			t.Fatal(err)
		}
		if len(rows) != 2 || rows[0].Kind != mailCanceled || rows[1].Kind != mailReceipt {
			t.Fatalf("outbox: %+v", rows)
		}
		for _, r := range rows {
			if r.Locale != "ko" || r.Status != store.MailQueued || !r.HTMLBody.Valid || !strings.Contains(r.Subject, "Selfmap") ||
				!strings.Contains(r.Body, "https://selfmap.test/ko/userCenter") || !strings.Contains(r.HTMLBody.String, `<html lang="ko">`) ||
				!strings.Contains(r.Body, "베이직 요금제") {
				t.Errorf("%s: %+v", r.Kind, r)
			}
		}
		if r := rows[1]; !strings.Contains(r.Body, "$1.49") || !strings.Contains(r.Body, "2026년 4월 4일") ||
			!strings.Contains(r.Subject, "영수증") {
			t.Errorf("receipt: %s\n%s", r.Subject, r.Body)
		}
		if r := rows[0]; r.Ref != sub.ID || !strings.Contains(r.Body, "2026년 4월 4일") || !strings.Contains(r.Subject, "해지") {
			t.Errorf("cancellation: %s\n%s", r.Subject, r.Body)
		}
	})
}
