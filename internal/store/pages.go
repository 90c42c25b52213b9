package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// HelpArticle is one help centre article in one locale.
type HelpArticle struct {
	Slug       string       `db:"slug"`
	Locale     string       `db:"locale"`
	ExamID     int          `db:"exam_id"`
	Section    string       `db:"section"`
	Sort       int          `db:"sort"`
	Title      string       `db:"title"`
	Body       string       `db:"body"`
	SourceHash string       `db:"source_hash"`
	EditedAt   sql.NullTime `db:"edited_at"`
	UpdatedAt  time.Time    `db:"updated_at"`
}

// Protocol is one legal document in one locale; Flag says which one.
type Protocol struct {
	Slug       string       `db:"slug"`
	Locale     string       `db:"locale"`
	ExamID     int          `db:"exam_id"`
	Flag       int          `db:"flag"`
	Title      string       `db:"title"`
	Body       string       `db:"body"`
	Version    string       `db:"version"`
	SourceHash string       `db:"source_hash"`
	EditedAt   sql.NullTime `db:"edited_at"`
	UpdatedAt  time.Time    `db:"updated_at"`
}

const helpColumns = `slug, locale, exam_id, section, sort, title, body, source_hash, edited_at, updated_at`
const protocolColumns = `slug, locale, exam_id, flag, title, body, version, source_hash, edited_at, updated_at`

// SyncBuiltinContent brings the built-in help articles and legal documents
// up to date: a new row is inserted, a row whose source changed is
// rewritten unless someone edited it in the back office, and a built-in row
// no longer shipped is removed. It reports how many rows it wrote or
// removed. Run it in a transaction: readers see the old set or the new one,
// never half of each.
func (s *Store) SyncBuiltinContent(ctx context.Context, db Querier, articles []HelpArticle, protocols []Protocol) (int64, error) {
	var changed int64
	for _, a := range articles {
		res, err := db.NamedExecContext(ctx, `INSERT INTO help_articles (`+helpColumns+`)
			VALUES (:slug, :locale, :exam_id, :section, :sort, :title, :body, :source_hash, NULL, :updated_at)
			ON CONFLICT (slug, locale) DO UPDATE SET exam_id = excluded.exam_id, section = excluded.section,
				sort = excluded.sort, title = excluded.title, body = excluded.body,
				source_hash = excluded.source_hash, updated_at = excluded.updated_at
			WHERE help_articles.edited_at IS NULL AND help_articles.source_hash <> excluded.source_hash`, a)
		if err != nil {
			return changed, fmt.Errorf("store: sync help article %s/%s: %w", a.Slug, a.Locale, err)
		}
		changed += rowsAffected(res)
	}
	for _, p := range protocols {
		res, err := db.NamedExecContext(ctx, `INSERT INTO protocols (`+protocolColumns+`)
			VALUES (:slug, :locale, :exam_id, :flag, :title, :body, :version, :source_hash, NULL, :updated_at)
			ON CONFLICT (slug, locale) DO UPDATE SET exam_id = excluded.exam_id, flag = excluded.flag,
				title = excluded.title, body = excluded.body, version = excluded.version,
				source_hash = excluded.source_hash, updated_at = excluded.updated_at
			WHERE protocols.edited_at IS NULL AND protocols.source_hash <> excluded.source_hash`, p)
		if err != nil {
			return changed, fmt.Errorf("store: sync protocol %s/%s: %w", p.Slug, p.Locale, err)
		}
		changed += rowsAffected(res)
	}
	n, err := removeStale(ctx, db, "help_articles", keysOf(articles, func(a HelpArticle) [2]string { return [2]string{a.Slug, a.Locale} }))
	changed += n
	if err != nil {
		return changed, err
	}
	n, err = removeStale(ctx, db, "protocols", keysOf(protocols, func(p Protocol) [2]string { return [2]string{p.Slug, p.Locale} }))
	return changed + n, err
}

func keysOf[T any](rows []T, key func(T) [2]string) map[[2]string]bool {
	out := make(map[[2]string]bool, len(rows))
	for _, r := range rows {
		out[key(r)] = true
	}
	return out
}

// removeStale deletes the built-in rows of table (never edited ones) whose
// slug and locale are not in keep. The table name is one of ours, never
// input.
func removeStale(ctx context.Context, db Querier, table string, keep map[[2]string]bool) (int64, error) {
	var rows []struct {
		Slug   string `db:"slug"`
		Locale string `db:"locale"`
	}
	if err := db.SelectContext(ctx, &rows, `SELECT slug, locale FROM `+table+` WHERE edited_at IS NULL`); err != nil {
		return 0, fmt.Errorf("store: list %s: %w", table, err)
	}
	var n int64
	for _, r := range rows {
		if keep[[2]string{r.Slug, r.Locale}] {
			continue
		}
		res, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM `+table+` WHERE slug = ? AND locale = ? AND edited_at IS NULL`), r.Slug, r.Locale)
		if err != nil {
			return n, fmt.Errorf("store: remove stale %s %s/%s: %w", table, r.Slug, r.Locale, err)
		}
		n += rowsAffected(res)
	}
	return n, nil
}

func rowsAffected(res sql.Result) int64 {
	n, err := res.RowsAffected()
	if err != nil {
		return 0
	}
	return n
}

// ListHelpArticles returns the articles of a locale that apply to an exam
// (its own and those for every exam), in display order.
func (s *Store) ListHelpArticles(ctx context.Context, db Querier, locale string, examID int) ([]HelpArticle, error) {
	var out []HelpArticle
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+helpColumns+` FROM help_articles
		WHERE locale = ? AND exam_id IN (0, ?) ORDER BY sort, slug`), locale, examID)
	if err != nil {
		return nil, fmt.Errorf("store: list help articles: %w", err)
	}
	return out, nil
}

// GetHelpArticle reads one article in one locale.
func (s *Store) GetHelpArticle(ctx context.Context, db Querier, slug, locale string) (HelpArticle, error) {
	var a HelpArticle
	err := db.GetContext(ctx, &a, db.Rebind(`SELECT `+helpColumns+` FROM help_articles WHERE slug = ? AND locale = ?`), slug, locale)
	if err != nil {
		return HelpArticle{}, notFound("get help article", err)
	}
	return a, nil
}

// ListProtocols returns the legal documents of a locale that apply to an
// exam, by flag.
func (s *Store) ListProtocols(ctx context.Context, db Querier, locale string, examID int) ([]Protocol, error) {
	var out []Protocol
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT `+protocolColumns+` FROM protocols
		WHERE locale = ? AND exam_id IN (0, ?) ORDER BY flag, slug`), locale, examID)
	if err != nil {
		return nil, fmt.Errorf("store: list protocols: %w", err)
	}
	return out, nil
}

// GetProtocol reads one legal document in one locale.
func (s *Store) GetProtocol(ctx context.Context, db Querier, slug, locale string) (Protocol, error) {
	var p Protocol
	err := db.GetContext(ctx, &p, db.Rebind(`SELECT `+protocolColumns+` FROM protocols WHERE slug = ? AND locale = ?`), slug, locale)
	if err != nil {
		return Protocol{}, notFound("get protocol", err)
	}
	return p, nil
}

// ContactMessage is a message sent with the contact form.
type ContactMessage struct {
	ID        string    `db:"id"`
	Name      string    `db:"name"`
	Email     string    `db:"email"`
	Topic     string    `db:"topic"`
	Message   string    `db:"message"`
	Locale    string    `db:"locale"`
	Status    string    `db:"status"`
	CreatedAt time.Time `db:"created_at"`
}

// InsertContactMessage stores a contact message in tx.
func (s *Store) InsertContactMessage(ctx context.Context, db Querier, m ContactMessage) error {
	if _, err := db.NamedExecContext(ctx, `INSERT INTO contact_messages (id, name, email, topic, message, locale, status, created_at)
		VALUES (:id, :name, :email, :topic, :message, :locale, :status, :created_at)`, m); err != nil {
		return fmt.Errorf("store: insert contact message: %w", err)
	}
	return nil
}

// ListContactMessages returns the newest contact messages.
func (s *Store) ListContactMessages(ctx context.Context, db Querier, limit int) ([]ContactMessage, error) {
	var out []ContactMessage
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT id, name, email, topic, message, locale, status, created_at
		FROM contact_messages ORDER BY created_at DESC LIMIT ?`), limit)
	if err != nil {
		return nil, fmt.Errorf("store: list contact messages: %w", err)
	}
	return out, nil
}
