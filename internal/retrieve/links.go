package retrieve

import (
	"context"
	"errors"
	"net/http"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/store"
)

// LinkLifetime is how long a report link opens its report: long enough to
// come back to a report bought last month, short enough that a link found
// in an old mailbox or a forwarded e-mail stops working. A new link is one
// retrieval away (docs/report.md).
const LinkLifetime = 30 * 24 * time.Hour

var (
	// ErrLinkUnknown is a token no link was made with.
	ErrLinkUnknown = apperr.NotFound("api.not_found")
	// ErrLinkClosed is a link that expired or that the report's owner
	// withdrew: its holder is told to have a new one sent.
	ErrLinkClosed = &apperr.Error{Status: http.StatusGone, ID: "links.closed.title"}
)

// Open returns the id of the result a report link opens, found by its
// token's hash (the token itself is never kept): ErrLinkUnknown for no
// such link, ErrLinkClosed for one past LinkLifetime or withdrawn. Whether
// the report is paid is the caller's to check.
func (s *Service) Open(ctx context.Context, tokenHash string) (string, error) {
	l, err := s.Store.ReportLinkByHash(ctx, s.Store.DB, tokenHash)
	if errors.Is(err, store.ErrNotFound) {
		return "", ErrLinkUnknown
	}
	if err != nil {
		return "", err
	}
	if l.RevokedAt.Valid || !s.Now().Before(l.CreatedAt.Add(LinkLifetime)) {
		return "", ErrLinkClosed
	}
	return l.ResultID, nil
}

// OpenLinks counts the links that still open a result's report.
func (s *Service) OpenLinks(ctx context.Context, resultID string) (int, error) {
	return s.Store.CountOpenReportLinks(ctx, s.Store.DB, resultID, s.Now().Add(-LinkLifetime))
}

// Revoke withdraws every link of a report for its owner, the account the
// result belongs to. A result that is not the user's answers
// ErrLinkUnknown, exactly like a missing one.
func (s *Service) Revoke(ctx context.Context, userID, resultID string) error {
	owner, err := s.Store.ResultOwner(ctx, s.Store.DB, resultID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (owner == "" || owner != userID)) {
		return ErrLinkUnknown
	}
	if err != nil {
		return err
	}
	return s.Store.RevokeReportLinks(ctx, s.Store.DB, resultID, s.Now())
}
