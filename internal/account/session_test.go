package account_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"selfmap/internal/account"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// A session signs its user in until it is idle for 30 days, its account
// moves to a new generation (log-out, password change) or is deleted; its
// last use is written back at most once an hour.
func TestSessionUser(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc, clk := newService(s)
		u := register(t, svc, "si@example.com")
		start := clk.now
		sess := svc.NewSession(u)
		if sess.UserID != u.ID || sess.Gen != u.SessionGen || !sess.SeenAt.Equal(start) {
			t.Fatalf("new session = %+v", sess)
		}

		clk.now = start.Add(account.SessionTouch - time.Minute)
		got, kept, err := svc.SessionUser(ctx, sess)
		if err != nil || got.ID != u.ID || !kept.SeenAt.Equal(start) {
			t.Fatalf("within the hour: %v, %+v, %v; want the user and no new last use", got.ID, kept, err)
		}
		clk.now = start.Add(account.SessionIdle)
		if _, kept, err = svc.SessionUser(ctx, sess); err != nil || !kept.SeenAt.Equal(clk.now) {
			t.Fatalf("after 30 days to the second: %+v, %v; want the last use moved to now", kept, err)
		}
		clk.now = start.Add(account.SessionIdle + time.Second)
		if _, _, err := svc.SessionUser(ctx, sess); !errors.Is(err, account.ErrSessionEnded) {
			t.Fatalf("idle past 30 days: %v, want ErrSessionEnded", err)
		}

		unknown := account.Session{UserID: u.ID, Gen: u.SessionGen}
		if _, kept, err := svc.SessionUser(ctx, unknown); err != nil || !kept.SeenAt.Equal(clk.now) {
			t.Fatalf("no last use: %+v, %v; want it counted from now", kept, err)
		}
		if _, _, err := svc.SessionUser(ctx, account.Session{UserID: u.ID, Gen: u.SessionGen + 1, SeenAt: clk.now}); !errors.Is(err, account.ErrSessionEnded) {
			t.Fatalf("another generation: %v, want ErrSessionEnded", err)
		}
		if _, _, err := svc.SessionUser(ctx, account.Session{UserID: "nobody", Gen: 1, SeenAt: clk.now}); !errors.Is(err, account.ErrSessionEnded) {
			t.Fatalf("no such account: %v, want ErrSessionEnded", err)
		}
		if err := svc.Logout(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, err := svc.SessionUser(ctx, svc.NewSession(u)); !errors.Is(err, account.ErrSessionEnded) {
			t.Fatalf("after log-out: %v, want ErrSessionEnded", err)
		}
	})
}
