package support_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/support"
)

func TestCheck(t *testing.T) {
	ok := support.Input{Name: "  Ada   Lovelace ", Email: "Ada@Example.COM", Topic: "billing", Message: "\r\nI was charged twice.\x07\r\nThanks\n"}
	got, errs := support.Check(ok)
	if len(errs) != 0 {
		t.Fatalf("valid input refused: %v", errs)
	}
	if got.Name != "Ada Lovelace" || got.Email != "Ada@example.com" || got.Message != "I was charged twice.\nThanks" {
		t.Errorf("cleaned input = %+v", got)
	}
	for _, tc := range []struct {
		in    support.Input
		field string
		want  string
	}{
		{support.Input{Email: "a@b.co", Topic: "billing", Message: "long enough text"}, "name", "form.required"},
		{support.Input{Name: strings.Repeat("n", support.MaxName+1), Email: "a@b.co", Topic: "billing", Message: "long enough text"}, "name", "form.too_long"},
		{support.Input{Name: "<b>", Email: "a@b.co", Topic: "billing", Message: "long enough text"}, "name", "form.name.invalid"},
		{support.Input{Name: "A", Topic: "billing", Message: "long enough text"}, "email", "form.email.required"},
		{support.Input{Name: "A", Email: "nope", Topic: "billing", Message: "long enough text"}, "email", "form.email.invalid"},
		{support.Input{Name: "A", Email: "a@b.co", Topic: "hack", Message: "long enough text"}, "topic", "form.choose"},
		{support.Input{Name: "A", Email: "a@b.co", Topic: "billing", Message: " \n "}, "message", "form.required"},
		{support.Input{Name: "A", Email: "a@b.co", Topic: "billing", Message: "too short"}, "message", "contact.error.message_short"},
		{support.Input{Name: "A", Email: "a@b.co", Topic: "billing", Message: strings.Repeat("é", support.MaxMessage+1)}, "message", "contact.error.message_long"},
	} {
		_, errs := support.Check(tc.in)
		if errs[tc.field] != tc.want || len(errs) != 1 {
			t.Errorf("%+v: errors %v, want %s=%s only", tc.in, errs, tc.field, tc.want)
		}
	}
	if _, errs := support.Check(support.Input{Name: "A", Email: "a@b.co", Topic: "billing", Message: strings.Repeat("é", support.MaxMessage)}); len(errs) != 0 {
		t.Errorf("a message of exactly the limit is refused: %v", errs)
	}
}

// A valid message is stored and queued for the support mailbox together; an
// invalid one leaves no trace.
func TestSend(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
		svc := &support.Service{Store: s, Now: func() time.Time { return now }, To: "help@example.com"}
		if _, errs, err := svc.Send(ctx, support.Input{Name: "A"}); err != nil || len(errs) == 0 {
			t.Fatalf("invalid input: %v, %v", errs, err)
		}
		m, errs, err := svc.Send(ctx, support.Input{Name: "Bo Kim", Email: "bo@example.org", Topic: "report", Message: "My report did not arrive.", Locale: "ko"})
		if err != nil || len(errs) != 0 {
			t.Fatalf("send: %v, %v", errs, err)
		}
		msgs, err := s.ListContactMessages(ctx, s.DB, 10)
		if err != nil || len(msgs) != 1 || msgs[0].ID != m.ID || msgs[0].Locale != "ko" || msgs[0].Status != "new" {
			t.Fatalf("stored messages: %+v, %v", msgs, err)
		}
		mail, err := s.ListMail(ctx, s.DB, 10)
		if err != nil || len(mail) != 1 {
			t.Fatalf("outbox: %+v, %v", mail, err)
		}
		if got := mail[0]; got.Kind != "contact" || got.To != "help@example.com" || got.Ref != m.ID || got.Status != "queued" ||
			!strings.Contains(got.Body, "My report did not arrive.") || !strings.Contains(got.Body, "bo@example.org") || !strings.Contains(got.Subject, "report") {
			t.Errorf("queued mail: %+v", got)
		}
	})
}

// The support page offers the most asked-about help articles in its own
// order, leaving out the others and those its locale lacks.
func TestQuickAnswers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)
		var articles []store.HelpArticle
		for i, slug := range []string{"delete-my-data", "what-is-a-type", "refunds", "cancel-subscription"} {
			articles = append(articles, store.HelpArticle{Slug: slug, Locale: "en", Section: "faq", Sort: i, Title: slug, Body: slug, UpdatedAt: now})
		}
		articles = append(articles, store.HelpArticle{Slug: "find-my-report", Locale: "fr", Section: "faq", Title: "x", Body: "x", UpdatedAt: now})
		if _, err := s.SyncBuiltinContent(ctx, s.DB, articles, nil); err != nil {
			t.Fatal(err)
		}
		svc := &support.Service{Store: s, Now: func() time.Time { return now }}
		got, err := svc.QuickAnswers(ctx, "en", 1)
		if err != nil {
			t.Fatal(err)
		}
		var slugs []string
		for _, a := range got {
			slugs = append(slugs, a.Slug)
		}
		if want := "cancel-subscription refunds delete-my-data"; strings.Join(slugs, " ") != want {
			t.Errorf("quick answers = %v, want %s", slugs, want)
		}
	})
}
