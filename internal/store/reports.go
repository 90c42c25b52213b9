package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
)

// HashToken is how a report link's token is kept: its SHA-256, so the
// database alone opens no report.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// AddReportLink records a new link token of a result's report.
func (s *Store) AddReportLink(ctx context.Context, db Querier, resultID, token string, now time.Time) error {
	if _, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO report_links (token_hash, result_id, created_at) VALUES (?, ?, ?)`),
		HashToken(token), resultID, now.UTC()); err != nil {
		return fmt.Errorf("store: add report link: %w", err)
	}
	return nil
}

// ResultForToken finds the result a report link token was made for,
// whether or not the link still opens it (see ReportLinkByHash).
func (s *Store) ResultForToken(ctx context.Context, db Querier, token string) (Result, error) {
	var r Result
	err := db.GetContext(ctx, &r, db.Rebind(`SELECT `+prefixed("r.", resultColumns)+` FROM report_links l
		JOIN results r ON r.id = l.result_id WHERE l.token_hash = ?`), HashToken(token))
	if err != nil {
		return Result{}, notFound("result for token", err)
	}
	return r, nil
}

// ReportLink is one link to a report: only its token's hash is kept.
// RevokedAt is set when the report's owner withdrew it.
type ReportLink struct {
	TokenHash string       `db:"token_hash"`
	ResultID  string       `db:"result_id"`
	CreatedAt time.Time    `db:"created_at"`
	RevokedAt sql.NullTime `db:"revoked_at"`
}

// ReportLinkByHash finds a link by its token's hash (ErrNotFound when none).
func (s *Store) ReportLinkByHash(ctx context.Context, db Querier, tokenHash string) (ReportLink, error) {
	var l ReportLink
	if err := db.GetContext(ctx, &l, db.Rebind(`SELECT token_hash, result_id, created_at, revoked_at FROM report_links
		WHERE token_hash = ?`), tokenHash); err != nil {
		return ReportLink{}, notFound("report link", err)
	}
	l.CreatedAt, l.RevokedAt.Time = l.CreatedAt.UTC(), l.RevokedAt.Time.UTC()
	return l, nil
}

// RevokeReportLinks withdraws every link of a result not withdrawn yet.
func (s *Store) RevokeReportLinks(ctx context.Context, db Querier, resultID string, now time.Time) error {
	if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE report_links SET revoked_at = ? WHERE result_id = ? AND revoked_at IS NULL`),
		now.UTC(), resultID); err != nil {
		return fmt.Errorf("store: revoke report links: %w", err)
	}
	return nil
}

// CountOpenReportLinks counts a result's links made after since and not
// withdrawn: the links that still open the report.
func (s *Store) CountOpenReportLinks(ctx context.Context, db Querier, resultID string, since time.Time) (int, error) {
	var n int
	if err := db.GetContext(ctx, &n, db.Rebind(`SELECT COUNT(*) FROM report_links
		WHERE result_id = ? AND revoked_at IS NULL AND created_at > ?`), resultID, since.UTC()); err != nil {
		return 0, fmt.Errorf("store: count open report links: %w", err)
	}
	return n, nil
}

// ReportPDF is a report rendered as a PDF in one locale.
type ReportPDF struct {
	ResultID  string    `db:"result_id"`
	Locale    string    `db:"locale"`
	PDF       []byte    `db:"pdf"`
	Pages     int       `db:"pages"`
	CreatedAt time.Time `db:"created_at"`
}

// SaveReportPDF keeps a rendered PDF; a second rendering of the same result
// and locale (a retried job) leaves the first.
func (s *Store) SaveReportPDF(ctx context.Context, db Querier, p ReportPDF) error {
	if _, err := db.NamedExecContext(ctx, `INSERT INTO report_pdfs (result_id, locale, pdf, pages, created_at)
		VALUES (:result_id, :locale, :pdf, :pages, :created_at) ON CONFLICT (result_id, locale) DO NOTHING`, p); err != nil {
		return fmt.Errorf("store: save report pdf: %w", err)
	}
	return nil
}

// DropReportPDFs forgets a result's PDFs when what the report shows
// changed (a pack was bought): the next download prints it again.
func (s *Store) DropReportPDFs(ctx context.Context, db Querier, resultID string) error {
	if _, err := db.ExecContext(ctx, db.Rebind(`DELETE FROM report_pdfs WHERE result_id = ?`), resultID); err != nil {
		return fmt.Errorf("store: drop report pdfs: %w", err)
	}
	return nil
}

// GetReportPDF reads a rendered PDF.
func (s *Store) GetReportPDF(ctx context.Context, db Querier, resultID, locale string) (ReportPDF, error) {
	var p ReportPDF
	err := db.GetContext(ctx, &p, db.Rebind(`SELECT result_id, locale, pdf, pages, created_at FROM report_pdfs
		WHERE result_id = ? AND locale = ?`), resultID, locale)
	if err != nil {
		return ReportPDF{}, notFound("report pdf", err)
	}
	return p, nil
}

// prefixed qualifies every column of a comma-separated list with a table
// alias ("r." + "id, exam_id" -> "r.id, r.exam_id").
func prefixed(alias, columns string) string {
	parts := strings.Split(columns, ",")
	for i, p := range parts {
		parts[i] = alias + strings.TrimSpace(p)
	}
	return strings.Join(parts, ", ")
}

// TypeCount is how many results of an exam have a type (its four letters)
// and a gender ("" when not given).
type TypeCount struct {
	Letters string `db:"letters"`
	Gender  string `db:"gender"`
	N       int    `db:"n"`
}

// TypeCounts counts an exam's results by type and gender in one query.
func (s *Store) TypeCounts(ctx context.Context, db Querier, examID int) ([]TypeCount, error) {
	var out []TypeCount
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT SUBSTR(result_code, 1, 4) AS letters, COALESCE(gender, '') AS gender,
		COUNT(*) AS n FROM results WHERE exam_id = ? AND result_code <> '' GROUP BY SUBSTR(result_code, 1, 4), COALESCE(gender, '')`), examID)
	if err != nil {
		return nil, fmt.Errorf("store: count types: %w", err)
	}
	return out, nil
}

// CountryCount is how many results came from one country.
type CountryCount struct {
	Country string `db:"country"`
	N       int    `db:"n"`
}

// TopCountries lists the countries with the most results of an exam since a
// time, most first.
func (s *Store) TopCountries(ctx context.Context, db Querier, examID int, since time.Time, limit int) ([]CountryCount, error) {
	var out []CountryCount
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT country, COUNT(*) AS n FROM results
		WHERE exam_id = ? AND created_at >= ? AND country IS NOT NULL AND country <> ''
		GROUP BY country ORDER BY COUNT(*) DESC, country LIMIT ?`), examID, since.UTC(), limit)
	if err != nil {
		return nil, fmt.Errorf("store: top countries: %w", err)
	}
	return out, nil
}

// RecentScores returns the stored scores (JSON) of an exam's latest results.
func (s *Store) RecentScores(ctx context.Context, db Querier, examID, limit int) ([]string, error) {
	var out []string
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT scores FROM results WHERE exam_id = ? AND result_code <> ''
		ORDER BY created_at DESC LIMIT ?`), examID, limit)
	if err != nil {
		return nil, fmt.Errorf("store: recent scores: %w", err)
	}
	return out, nil
}

// RatingFor is the accuracy rating given to a result, or 0.
func (s *Store) RatingFor(ctx context.Context, db Querier, resultID string) (int, error) {
	var score int
	err := db.GetContext(ctx, &score, db.Rebind(`SELECT score FROM ratings WHERE result_id = ?`), resultID)
	if err != nil {
		if err := notFound("rating", err); errors.Is(err, ErrNotFound) {
			return 0, nil
		}
		return 0, fmt.Errorf("store: rating: %w", err)
	}
	return score, nil
}
