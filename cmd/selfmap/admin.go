package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/config"
	"selfmap/internal/store"
)

// admin grants or revokes the back office to an account: the only way a
// role changes, so no screen or request can make anyone an admin.
//
//	selfmap admin grant EMAIL
//	selfmap admin revoke EMAIL
func admin(ctx context.Context, cfg config.Config, logger *slog.Logger, args []string) error {
	if len(args) != 2 || (args[0] != "grant" && args[0] != "revoke") {
		return errors.New("usage: selfmap admin grant|revoke EMAIL")
	}
	role := store.RoleAdmin
	if args[0] == "revoke" {
		role = store.RoleMember
	}
	st, err := openMigrated(ctx, cfg, logger)
	if err != nil {
		return err
	}
	defer st.Close()
	err = st.SetUserRole(ctx, st.DB, args[1], role, time.Now())
	if errors.Is(err, apperr.ErrNotFound) {
		return fmt.Errorf("no account has the e-mail %q", args[1])
	}
	if err != nil {
		return err
	}
	logger.Info("role set", "email", args[1], "role", role)
	return nil
}
