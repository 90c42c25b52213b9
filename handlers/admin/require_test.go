package admin

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"

	"selfmap/internal/account"
	"selfmap/internal/store"
)

// Only an admin reaches a back-office handler; a member, or a user read as
// nobody, gets not found.
func TestRequireAdmin(t *testing.T) {
	for _, tc := range []struct {
		name    string
		user    account.User
		reached bool
	}{
		{"admin", account.User{ID: "a", Role: store.RoleAdmin}, true},
		{"member", account.User{ID: "m", Role: store.RoleMember}, false},
		{"no role", account.User{ID: "x"}, false},
		{"nobody", account.User{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reached := false
			h := requireAdmin(func(echo.Context) account.User { return tc.user })(func(echo.Context) error {
				reached = true
				return nil
			})
			c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, "/admin", nil), httptest.NewRecorder())
			err := h(c)
			if reached != tc.reached {
				t.Fatalf("reached = %v, want %v", reached, tc.reached)
			}
			var he *echo.HTTPError
			if !tc.reached && (!errors.As(err, &he) || he.Code != http.StatusNotFound) {
				t.Fatalf("err = %v, want 404", err)
			}
		})
	}
}
