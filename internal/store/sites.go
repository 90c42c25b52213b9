package store

import (
	"context"
	"encoding/json"
	"fmt"

	"selfmap/internal/exam"
	"selfmap/internal/site"
	"selfmap/internal/tracking"
)

type siteRow struct {
	Host     string `db:"host"`
	Theme    string `db:"theme"`
	HomeCode string `db:"home_code"`
	HomeExam int    `db:"home_exam"`
	Tracking string `db:"tracking"`
}

// ListSites returns every configured site.
func (s *Store) ListSites(ctx context.Context, db Querier) ([]site.Site, error) {
	var rows []siteRow
	if err := db.SelectContext(ctx, &rows, `SELECT host, theme, home_code, home_exam, tracking FROM sites ORDER BY host`); err != nil {
		return nil, fmt.Errorf("store: list sites: %w", err)
	}
	out := make([]site.Site, len(rows))
	for i, r := range rows {
		tr, err := tracking.Parse(r.Tracking)
		if err != nil {
			// A bad configuration loads nothing rather than something unchecked.
			tr = tracking.Config{}
		}
		out[i] = site.Site{Host: r.Host, Theme: r.Theme, Home: exam.Pair{Code: r.HomeCode, ExamID: r.HomeExam}, Tracking: tr}
	}
	return out, nil
}

// SaveSite creates or replaces a site.
func (s *Store) SaveSite(ctx context.Context, db Querier, st site.Site) error {
	tr, err := json.Marshal(st.Tracking)
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, db.Rebind(`INSERT INTO sites (host, theme, home_code, home_exam, tracking) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (host) DO UPDATE SET theme = excluded.theme, home_code = excluded.home_code, home_exam = excluded.home_exam,
		tracking = excluded.tracking`),
		st.Host, st.Theme, st.Home.Code, st.Home.ExamID, string(tr))
	if err != nil {
		return fmt.Errorf("store: save site %s: %w", st.Host, err)
	}
	return nil
}

// CountSites returns how many sites exist; zero means a fresh database.
func (s *Store) CountSites(ctx context.Context, db Querier) (int, error) {
	var n int
	if err := db.GetContext(ctx, &n, `SELECT COUNT(*) FROM sites`); err != nil {
		return 0, fmt.Errorf("store: count sites: %w", err)
	}
	return n, nil
}
