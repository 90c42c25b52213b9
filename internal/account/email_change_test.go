package account_test

import (
	"context"
	"testing"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// A new address is proved by the code mailed to it; one another account
// has is answered the same, without a mail, and never given.
func TestEmailChange(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		svc, _ := newService(s)
		u := register(t, svc, "ann@example.com")
		other := register(t, svc, "bob@example.com")

		if _, errs, err := svc.RequestEmailChange(ctx, u.ID, "new@example.com", "wrong password", "en"); err != nil || !errs.Has("current") {
			t.Fatalf("a wrong password: %v, %v", errs, err)
		}
		if _, errs, err := svc.RequestEmailChange(ctx, u.ID, "ANN@example.com", "correct horse", "en"); err != nil || !errs.Has("email") {
			t.Fatalf("the same address: %v, %v", errs, err)
		}
		email, errs, err := svc.RequestEmailChange(ctx, u.ID, "New@Example.com", "correct horse", "en")
		if err != nil || errs.Any() || email != "new@example.com" {
			t.Fatalf("request: %q %v %v", email, errs, err)
		}
		code := lastCode(t, s, "new@example.com")
		// The code is this account's: another account cannot use it.
		if errs, err := svc.ConfirmEmailChange(ctx, other.ID, "new@example.com", code); err != nil || !errs.Has("code") {
			t.Fatalf("another account with the code: %v, %v", errs, err)
		}
		if errs, err := svc.ConfirmEmailChange(ctx, u.ID, "new@example.com", code); err != nil || errs.Any() {
			t.Fatalf("confirm: %v, %v", errs, err)
		}
		got, _ := s.GetUser(ctx, s.DB, u.ID)
		if got.Email != "new@example.com" || !got.Verified() {
			t.Fatalf("after confirm: %+v", got)
		}
		if errs, err := svc.ConfirmEmailChange(ctx, u.ID, "new@example.com", code); err != nil || !errs.Has("code") {
			t.Fatalf("the code used twice: %v, %v", errs, err)
		}

		// Taken: the same answer, nothing mailed, nothing changes.
		before, _ := s.ListMail(ctx, s.DB, 100)
		email, errs, err = svc.RequestEmailChange(ctx, u.ID, "bob@example.com", "correct horse", "en")
		if err != nil || errs.Any() || email != "bob@example.com" {
			t.Fatalf("a taken address: %q %v %v", email, errs, err)
		}
		if after, _ := s.ListMail(ctx, s.DB, 100); len(after) != len(before) {
			t.Fatal("a mail went out for an address another account has")
		}
		if errs, err := svc.ConfirmEmailChange(ctx, u.ID, "bob@example.com", "123456"); err != nil || !errs.Has("code") {
			t.Fatalf("a code for a taken address: %v, %v", errs, err)
		}
		if got, _ := s.GetUser(ctx, s.DB, u.ID); got.Email != "new@example.com" {
			t.Fatalf("took the address: %s", got.Email)
		}

		if errs, err := svc.ChangeName(ctx, u.ID, " "); err != nil || !errs.Has("name") {
			t.Fatalf("empty name: %v, %v", errs, err)
		}
		if errs, err := svc.ChangeName(ctx, u.ID, "Ann Smith"); err != nil || errs.Any() {
			t.Fatalf("name: %v, %v", errs, err)
		}
	})
}
