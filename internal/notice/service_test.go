package notice_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/notice"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/internal/subscription"
)

// The service shows each reader what their plan opens, by its own clock: a
// visitor the notices for all, a user every notice with those above their
// plan locked; opening one marks it read once.
func TestServiceReadersAndReadState(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
		if err := s.CreateUser(ctx, s.DB, store.User{ID: "u1", Email: "nia@example.com", CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		add := func(slug, audience string, at time.Time) string {
			t.Helper()
			id, err := s.SaveNotice(ctx, s.DB, slug+"-id", slug, audience, &at,
				[]store.NoticeText{{Locale: "en", Title: "Title " + slug, Body: "Body of " + slug + "."}}, now)
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		forAll := add("for-all", notice.AudienceAll, now.Add(-2*time.Hour))
		premium := add("premium", notice.AudiencePremium, now.Add(-time.Hour))
		add("tomorrow", notice.AudienceAll, now.Add(24*time.Hour))
		svc := &notice.Service{Store: s, Now: func() time.Time { return now }}

		visitor := notice.Reader{Locale: "en", Tier: subscription.TierGuest}
		list, total, err := svc.List(ctx, visitor, "", 1)
		if err != nil || total != 1 || len(list) != 1 || list[0].ID != forAll {
			t.Fatalf("a visitor sees %+v (%d, %v); want the notice for all only", list, total, err)
		}

		user := notice.Reader{UserID: "u1", Locale: "en", Tier: subscription.TierBasic}
		list, total, err = svc.List(ctx, user, "", 1)
		if err != nil || total != 2 || list[0].ID != premium || !notice.Locked(list[0], user.Tier) || notice.Locked(list[1], user.Tier) {
			t.Fatalf("a basic user sees %+v (%d, %v); want both published, the premium one locked", list, total, err)
		}
		if _, total, _ := svc.List(ctx, user, "body of premium", 1); total != 0 {
			t.Error("a search found a locked notice by its text")
		}
		o, err := svc.Overview(ctx, user)
		if err != nil || o.Unread != 1 || o.Latest == nil || o.Latest.ID != forAll {
			t.Fatalf("overview = %+v, %v; want one unread and the readable notice as the latest", o, err)
		}

		if _, err := svc.Open(ctx, user, premium); !errors.Is(err, notice.ErrLocked) {
			t.Errorf("opening a premium notice on basic: %v; want ErrLocked", err)
		}
		if _, err := svc.Open(ctx, user, "no-such-id"); !errors.Is(err, apperr.ErrNotFound) {
			t.Errorf("opening an unknown id: %v; want not found", err)
		}
		for range 2 {
			n, err := svc.Open(ctx, user, forAll)
			if err != nil || !n.Read {
				t.Fatalf("open: %+v, %v", n, err)
			}
		}
		if n, err := svc.Unread(ctx, user); err != nil || n != 0 {
			t.Errorf("unread after opening = %d, %v; want 0", n, err)
		}

		now = now.Add(25 * time.Hour)
		if n, err := svc.Unread(ctx, user); err != nil || n != 1 {
			t.Errorf("unread the next day = %d, %v; want the notice published since", n, err)
		}
	})
}
