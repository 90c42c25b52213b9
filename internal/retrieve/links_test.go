package retrieve_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"selfmap/internal/i18n"
	"selfmap/internal/retrieve"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// A link opens its result until LinkLifetime has passed since it was made,
// and not once withdrawn; an unknown hash opens nothing. Only the account
// the result belongs to withdraws its links, all at once; what is
// withdrawn stays on record.
func TestLinksExpireAndOnlyTheOwnerWithdrawsThem(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		f := newFixture(t, s)
		ctx := context.Background()
		for token, age := range map[string]time.Duration{"fresh": time.Hour, "last-minute": retrieve.LinkLifetime - time.Minute,
			"expired": retrieve.LinkLifetime, "other": time.Hour} {
			result := "r1"
			if token == "other" {
				result = "r2"
			}
			if err := s.AddReportLink(ctx, s.DB, result, token, f.now.Add(-age)); err != nil {
				t.Fatal(err)
			}
		}
		for token, want := range map[string]error{"fresh": nil, "last-minute": nil, "expired": retrieve.ErrLinkClosed, "never-made": retrieve.ErrLinkUnknown} {
			id, err := f.svc.Open(ctx, store.HashToken(token))
			if !errors.Is(err, want) || (want == nil && id != "r1") {
				t.Errorf("%s opens %q, %v; want %v", token, id, err, want)
			}
		}
		if status(retrieve.ErrLinkClosed) != http.StatusGone || status(retrieve.ErrLinkUnknown) != http.StatusNotFound {
			t.Error("a closed link must answer 410, an unknown one 404")
		}
		if n, err := f.svc.OpenLinks(ctx, "r1"); err != nil || n != 2 {
			t.Errorf("open links of r1: %d, %v; want 2", n, err)
		}

		if err := s.CreateUser(ctx, s.DB, store.User{ID: "u-owner", Email: "ana@example.com", Name: "Ana", PasswordHash: "x",
			CreatedAt: f.now, UpdatedAt: f.now}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.DB.ExecContext(ctx, s.DB.Rebind(`UPDATE results SET user_id = ? WHERE id IN ('r1', 'r2')`), "u-owner"); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ user, result string }{{"u-other", "r1"}, {"", "r1"}, {"u-owner", "no-such-result"}} {
			if err := f.svc.Revoke(ctx, tc.user, tc.result); !errors.Is(err, retrieve.ErrLinkUnknown) {
				t.Errorf("%q withdrawing %s: %v", tc.user, tc.result, err)
			}
		}
		if _, err := f.svc.Open(ctx, store.HashToken("fresh")); err != nil {
			t.Fatalf("a refused withdrawal closed the link: %v", err)
		}

		f.now = f.now.Add(time.Minute)
		if err := f.svc.Revoke(ctx, "u-owner", "r1"); err != nil {
			t.Fatal(err)
		}
		for _, token := range []string{"fresh", "last-minute"} {
			if _, err := f.svc.Open(ctx, store.HashToken(token)); !errors.Is(err, retrieve.ErrLinkClosed) {
				t.Errorf("%s after withdrawing: %v", token, err)
			}
		}
		if id, err := f.svc.Open(ctx, store.HashToken("other")); err != nil || id != "r2" {
			t.Errorf("another report's link after withdrawing r1's: %q, %v", id, err)
		}
		if n, err := f.svc.OpenLinks(ctx, "r1"); err != nil || n != 0 {
			t.Errorf("open links of r1 after withdrawing: %d, %v", n, err)
		}
		l, err := s.ReportLinkByHash(ctx, s.DB, store.HashToken("fresh"))
		if err != nil || !l.RevokedAt.Valid || !l.RevokedAt.Time.Equal(f.now) || l.ResultID != "r1" {
			t.Errorf("the withdrawn link is kept as %+v, %v", l, err)
		}

		// A new link, as retrieval mails, opens the report again.
		if err := f.svc.Send(ctx, "ana@example.com", i18n.Default); err != nil {
			t.Fatal(err)
		}
		for _, r := range f.sent[len(f.sent)-1] {
			if _, err := f.svc.Open(ctx, store.HashToken(r.Token)); err != nil {
				t.Errorf("a retrieved link of %s: %v", r.ResultID, err)
			}
		}
	})
}
