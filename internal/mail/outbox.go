package mail

import (
	"context"
	"fmt"

	"selfmap/internal/apperr"
	"selfmap/internal/store"
)

// Stored is a message as the outbox keeps it, with its delivery state.
type Stored = store.Mail

// Outbox reads the stored messages back, for the development mailbox
// (/dev/mail), where a developer sees every e-mail the service would send.
type Outbox struct {
	Store *store.Store
}

// Recent lists the newest messages, at most limit.
func (o *Outbox) Recent(ctx context.Context, limit int) ([]Stored, error) {
	out, err := o.Store.ListMail(ctx, o.Store.DB, limit)
	if err != nil {
		return nil, fmt.Errorf("mail: outbox: %w", err)
	}
	return out, nil
}

// HTML is one message's HTML part; a message without one is
// apperr.ErrNotFound, like an unknown id.
func (o *Outbox) HTML(ctx context.Context, id string) (string, error) {
	m, err := o.Store.GetMail(ctx, o.Store.DB, id)
	if err != nil {
		return "", fmt.Errorf("mail: outbox: %w", err)
	}
	if !m.HTMLBody.Valid {
		return "", fmt.Errorf("mail: outbox: %s has no HTML part: %w", id, apperr.ErrNotFound)
	}
	return m.HTMLBody.String, nil
}
