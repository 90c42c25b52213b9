package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// Notice is a service notice as one user reads it: the text in their
// locale (English where that locale has none) and whether they opened it.
type Notice struct {
	ID          string    `db:"id"`
	Slug        string    `db:"slug"`
	Audience    string    `db:"audience"`
	PublishedAt time.Time `db:"published_at"`
	Title       string    `db:"title"`
	Body        string    `db:"body"`
	Read        bool      `db:"is_read"`
}

// NoticeText is a notice's title and body in one locale.
type NoticeText struct {
	Locale, Title, Body string
}

// NoticeQuery selects the notices a user sees at Now: published ones, in
// Locale, whose text contains Search (any case) when it is set. Audiences
// limits them (nil: every audience). Readable, when set, are the audiences
// whose bodies Search may match: a locked notice is found by its title
// only, so a search cannot spell out a body its reader may not open.
// Limit 0 means no limit.
type NoticeQuery struct {
	UserID, Locale, Search string
	Audiences, Readable    []string
	Now                    time.Time
	Limit, Offset          int
}

const noticeFrom = ` FROM notices n
	JOIN notice_texts e ON e.notice_id = n.id AND e.locale = 'en'
	LEFT JOIN notice_texts l ON l.notice_id = n.id AND l.locale = ?
	LEFT JOIN notice_reads r ON r.notice_id = n.id AND r.user_id = ?
	WHERE n.published_at IS NOT NULL AND n.published_at <= ?`

const noticeColumns = `n.id, n.slug, n.audience, n.published_at, COALESCE(l.title, e.title) AS title, COALESCE(l.body, e.body) AS body,
	CASE WHEN r.notice_id IS NULL THEN 0 ELSE 1 END AS is_read`

// where adds the query's filters after noticeFrom.
func (q NoticeQuery) where() (string, []any) {
	sql, args := noticeFrom, []any{q.Locale, q.UserID, q.Now.UTC()}
	if q.Audiences != nil {
		sql += ` AND n.audience IN (?)`
		args = append(args, q.Audiences)
	}
	if s := strings.TrimSpace(q.Search); s != "" {
		like := "%" + likeEscaper.Replace(strings.ToLower(s)) + "%"
		if q.Readable != nil {
			sql += ` AND (LOWER(COALESCE(l.title, e.title)) LIKE ? ESCAPE '!' OR (n.audience IN (?) AND LOWER(COALESCE(l.body, e.body)) LIKE ? ESCAPE '!'))`
			args = append(args, like, q.Readable, like)
		} else {
			sql += ` AND (LOWER(COALESCE(l.title, e.title)) LIKE ? ESCAPE '!' OR LOWER(COALESCE(l.body, e.body)) LIKE ? ESCAPE '!')`
			args = append(args, like, like)
		}
	}
	return sql, args
}

var likeEscaper = strings.NewReplacer("!", "!!", "%", "!%", "_", "!_")

// Notices lists the notices a query selects, newest first, and how many
// there are in all.
func (s *Store) Notices(ctx context.Context, db Querier, q NoticeQuery) ([]Notice, int, error) {
	where, args := q.where()
	var total int
	if err := s.inQuery(ctx, db, &total, false, `SELECT COUNT(*)`+where, args...); err != nil {
		return nil, 0, fmt.Errorf("store: count notices: %w", err)
	}
	list := `SELECT ` + noticeColumns + where + ` ORDER BY n.published_at DESC, n.id DESC`
	if q.Limit > 0 {
		list += ` LIMIT ? OFFSET ?`
		args = append(args, q.Limit, q.Offset)
	}
	var out []Notice
	if err := s.inQuery(ctx, db, &out, true, list, args...); err != nil {
		return nil, 0, fmt.Errorf("store: list notices: %w", err)
	}
	for i := range out {
		out[i].PublishedAt = out[i].PublishedAt.UTC()
	}
	return out, total, nil
}

// inQuery expands IN (?) lists, rebinds and runs a query into dest (a
// slice when many, else one value).
func (s *Store) inQuery(ctx context.Context, db Querier, dest any, many bool, query string, args ...any) error {
	query, args, err := sqlx.In(query, args...)
	if err != nil {
		return err
	}
	if many {
		return db.SelectContext(ctx, dest, db.Rebind(query), args...)
	}
	return db.GetContext(ctx, dest, db.Rebind(query), args...)
}

// GetNotice reads one published notice as the user sees it; a draft, a
// notice not yet published, or one outside the audiences is ErrNotFound.
func (s *Store) GetNotice(ctx context.Context, db Querier, q NoticeQuery, id string) (Notice, error) {
	q.Search = ""
	where, args := q.where()
	var n Notice
	err := s.inQuery(ctx, db, &n, false, `SELECT `+noticeColumns+where+` AND n.id = ?`, append(args, id)...)
	n.PublishedAt = n.PublishedAt.UTC()
	return n, found("get notice", err)
}

// UnreadNotices counts the published notices of the audiences the user
// has not opened.
func (s *Store) UnreadNotices(ctx context.Context, db Querier, userID string, audiences []string, now time.Time) (int, error) {
	var n int
	err := s.inQuery(ctx, db, &n, false, `SELECT COUNT(*) FROM notices n
		WHERE n.published_at IS NOT NULL AND n.published_at <= ? AND n.audience IN (?)
		AND NOT EXISTS (SELECT 1 FROM notice_reads r WHERE r.notice_id = n.id AND r.user_id = ?)`, now.UTC(), audiences, userID)
	if err != nil {
		return 0, fmt.Errorf("store: unread notices: %w", err)
	}
	return n, nil
}

// MarkNoticeRead records that the user opened a notice; opening it again
// keeps the first time.
func (s *Store) MarkNoticeRead(ctx context.Context, db Querier, userID, noticeID string, now time.Time) error {
	_, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO notice_reads (notice_id, user_id, read_at) VALUES (?, ?, ?)
		ON CONFLICT (user_id, notice_id) DO NOTHING`), noticeID, userID, now.UTC())
	if err != nil {
		return fmt.Errorf("store: mark notice read: %w", err)
	}
	return nil
}

// SaveNotice writes a notice by its slug with its texts: a new slug is
// published at publishedAt (a draft when nil); a known one keeps its id and
// publication time and takes the audience and texts given. Run it in a
// transaction: a notice is never seen without its texts.
func (s *Store) SaveNotice(ctx context.Context, db Querier, id, slug, audience string, publishedAt *time.Time, texts []NoticeText, now time.Time) (string, error) {
	var pub any
	if publishedAt != nil {
		pub = publishedAt.UTC()
	}
	if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO notices (id, slug, audience, published_at, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (slug) DO UPDATE SET audience = excluded.audience`), id, slug, audience, pub, now.UTC()); err != nil {
		return "", fmt.Errorf("store: save notice: %w", err)
	}
	if err := db.GetContext(ctx, &id, db.Rebind(`SELECT id FROM notices WHERE slug = ?`), slug); err != nil {
		return "", fmt.Errorf("store: save notice: %w", err)
	}
	for _, t := range texts {
		if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO notice_texts (notice_id, locale, title, body) VALUES (?, ?, ?, ?)
			ON CONFLICT (notice_id, locale) DO UPDATE SET title = excluded.title, body = excluded.body`), id, t.Locale, t.Title, t.Body); err != nil {
			return "", fmt.Errorf("store: save notice text: %w", err)
		}
	}
	return id, nil
}
