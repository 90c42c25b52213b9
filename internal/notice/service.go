package notice

import (
	"context"
	"errors"
	"fmt"
	"time"

	"selfmap/internal/store"
	"selfmap/internal/subscription"
)

// Notice is a stored notice as one user reads it: the text in their locale
// and whether they opened it. The store keeps the row type; callers name it
// through this package, which owns who may read what.
type Notice = store.Notice

// PerPage is the length of a page of the notice lists, on the screen and in
// the API alike.
const PerPage = 10

// ErrLocked is a notice above the reader's plan: its title is listed, its
// text does not open.
var ErrLocked = errors.New("notice: above the reader's plan")

// Service lists the published notices a reader may see and keeps what each
// user has opened. A notice shows from its publication time by Now.
type Service struct {
	Store *store.Store
	Now   func() time.Time
}

// Reader is who reads the notices, in their locale: a signed-in user
// (UserID) with the tier of their plan, or a visitor (no UserID), who sees
// only the notices for all and has no read state.
type Reader struct {
	UserID, Locale string
	Tier           subscription.Tier
}

// Locked reports whether a notice is above a tier: its title shows, its
// text does not.
func Locked(n Notice, t subscription.Tier) bool {
	return !t.Includes(Required(n.Audience))
}

// Overview is the notices card of the user centre's home.
type Overview struct {
	// Unread counts the readable notices the user has not opened.
	Unread int
	// Latest is the newest notice the user may read; nil when none.
	Latest *Notice
}

// query selects what a reader sees now. A signed-in user's search finds a
// locked notice by its title only, so a search cannot spell out a text
// the reader may not open.
func (s *Service) query(r Reader) store.NoticeQuery {
	q := store.NoticeQuery{UserID: r.UserID, Locale: r.Locale, Now: s.Now().UTC()}
	if r.UserID == "" {
		q.Audiences = []string{AudienceAll}
	} else {
		q.Readable = For(r.Tier)
	}
	return q
}

// List is a page (from 1) of the notices a reader sees, newest first,
// whose text contains search when it is set, and how many there are in
// all. Notices above a signed-in user's plan are listed: the caller shows
// them Locked.
func (s *Service) List(ctx context.Context, r Reader, search string, page int) ([]Notice, int, error) {
	q := s.query(r)
	q.Search, q.Limit, q.Offset = search, PerPage, (page-1)*PerPage
	list, total, err := s.Store.Notices(ctx, s.Store.DB, q)
	if err != nil {
		return nil, 0, fmt.Errorf("notice: list: %w", err)
	}
	return list, total, nil
}

// Overview counts a signed-in user's unread notices and finds the newest
// one they may read.
func (s *Service) Overview(ctx context.Context, r Reader) (Overview, error) {
	unread, err := s.Unread(ctx, r)
	if err != nil {
		return Overview{}, err
	}
	q := s.query(r)
	q.Audiences, q.Limit = For(r.Tier), 1
	latest, _, err := s.Store.Notices(ctx, s.Store.DB, q)
	if err != nil {
		return Overview{}, fmt.Errorf("notice: latest: %w", err)
	}
	out := Overview{Unread: unread}
	if len(latest) > 0 {
		out.Latest = &latest[0]
	}
	return out, nil
}

// Unread counts the published notices of a signed-in user's plan they
// have not opened.
func (s *Service) Unread(ctx context.Context, r Reader) (int, error) {
	n, err := s.Store.UnreadNotices(ctx, s.Store.DB, r.UserID, For(r.Tier), s.Now().UTC())
	if err != nil {
		return 0, fmt.Errorf("notice: unread: %w", err)
	}
	return n, nil
}

// Open reads one published notice for a signed-in user and records that
// they opened it (the first time only). An unknown, unpublished or draft
// id is apperr.ErrNotFound; a notice above their plan is ErrLocked.
func (s *Service) Open(ctx context.Context, r Reader, id string) (Notice, error) {
	n, err := s.Store.GetNotice(ctx, s.Store.DB, store.NoticeQuery{UserID: r.UserID, Locale: r.Locale, Now: s.Now().UTC()}, id)
	if err != nil {
		return Notice{}, fmt.Errorf("notice: open: %w", err)
	}
	if Locked(n, r.Tier) {
		return Notice{}, ErrLocked
	}
	if !n.Read {
		if err := s.Store.MarkNoticeRead(ctx, s.Store.DB, r.UserID, n.ID, s.Now().UTC()); err != nil {
			return Notice{}, fmt.Errorf("notice: mark read: %w", err)
		}
		n.Read = true
	}
	return n, nil
}
