package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// Every account starts as a member; only SetUserRole (the admin command)
// makes one an admin, and it says when there is no such account.
func TestUserRoles(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
		if err := s.CreateUser(ctx, s.DB, store.User{ID: "u1", Email: "Staff@Example.com", CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		u, err := s.GetUser(ctx, s.DB, "u1")
		if err != nil || u.Role != store.RoleMember || u.Admin() {
			t.Fatalf("new user: role %q admin %v err %v; want member", u.Role, u.Admin(), err)
		}
		if err := s.SetUserRole(ctx, s.DB, "staff@example.COM", store.RoleAdmin, now); err != nil {
			t.Fatal(err)
		}
		if u, _ = s.GetUser(ctx, s.DB, "u1"); !u.Admin() {
			t.Fatalf("after grant: role %q, want admin", u.Role)
		}
		if err := s.SetUserRole(ctx, s.DB, "nobody@example.com", store.RoleAdmin, now); !errors.Is(err, apperr.ErrNotFound) {
			t.Fatalf("unknown e-mail: %v, want not found", err)
		}
	})
}
