package store

import (
	"context"
	"fmt"
	"sort"
	"time"
)

// ResultCounts are the completed tests of one exam: all of them, those since
// a time, and all of them by the country the test-taker gave ("" when none).
type ResultCounts struct {
	Total     int
	Since     int
	ByCountry map[string]int
}

// ResultCounts counts the results of an exam in two queries, however many
// countries there are, so a cache can answer every region from one load.
func (s *Store) ResultCounts(ctx context.Context, db Querier, examID int, since time.Time) (ResultCounts, error) {
	out := ResultCounts{ByCountry: map[string]int{}}
	var rows []struct {
		Country string `db:"country"`
		N       int    `db:"n"`
	}
	if err := db.SelectContext(ctx, &rows, db.Rebind(`SELECT COALESCE(country, '') AS country, COUNT(*) AS n
		FROM results WHERE exam_id = ? GROUP BY COALESCE(country, '')`), examID); err != nil {
		return ResultCounts{}, fmt.Errorf("store: count results by country: %w", err)
	}
	for _, r := range rows {
		out.Total += r.N
		if r.Country != "" {
			out.ByCountry[r.Country] = r.N
		}
	}
	if err := db.GetContext(ctx, &out.Since, db.Rebind(`SELECT COUNT(*) FROM results WHERE exam_id = ? AND created_at >= ?`),
		examID, since.UTC()); err != nil {
		return ResultCounts{}, fmt.Errorf("store: count results since: %w", err)
	}
	return out, nil
}

// RatingStats are how many results of an exam were rated, and their mean
// score (1 to 5; 0 when none).
type RatingStats struct {
	Count int     `db:"n"`
	Mean  float64 `db:"mean"`
}

// RatingStats reads the count and mean of an exam's accuracy ratings.
func (s *Store) RatingStats(ctx context.Context, db Querier, examID int) (RatingStats, error) {
	var st RatingStats
	err := db.GetContext(ctx, &st, db.Rebind(`SELECT COUNT(*) AS n, CAST(COALESCE(AVG(ratings.score), 0) AS DOUBLE PRECISION) AS mean
		FROM ratings JOIN results ON results.id = ratings.result_id WHERE results.exam_id = ?`), examID)
	if err != nil {
		return RatingStats{}, fmt.Errorf("store: rating stats: %w", err)
	}
	return st, nil
}

// SaveRating records how accurate a test-taker found their result (1 to 5);
// a second rating of the same result replaces the first.
func (s *Store) SaveRating(ctx context.Context, db Querier, resultID string, score int, now time.Time) error {
	if score < 1 || score > 5 {
		return fmt.Errorf("store: rating %d is outside 1..5", score)
	}
	_, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO ratings (result_id, score, created_at) VALUES (?, ?, ?)
		ON CONFLICT (result_id) DO UPDATE SET score = excluded.score, created_at = excluded.created_at`), resultID, score, now.UTC())
	if err != nil {
		return fmt.Errorf("store: save rating: %w", err)
	}
	return nil
}

// ActivityKind is what happened in an Activity.
type ActivityKind string

// The kinds of Activity: a test completed, a report paid for.
const (
	ActivityCompleted ActivityKind = "completed"
	ActivityUnlocked  ActivityKind = "unlocked"
)

// Activity is one recent event of an exam, with nothing that identifies the
// person: what happened, the country they gave ("" when none), and when.
type Activity struct {
	Kind    ActivityKind `db:"kind"`
	Country string       `db:"country"`
	At      time.Time    `db:"at"`
}

// RecentActivity lists, newest first, at most limit tests completed and
// reports paid since a time.
func (s *Store) RecentActivity(ctx context.Context, db Querier, examID int, since time.Time, limit int) ([]Activity, error) {
	var done, paid []Activity
	if err := db.SelectContext(ctx, &done, db.Rebind(`SELECT 'completed' AS kind, COALESCE(country, '') AS country, created_at AS at
		FROM results WHERE exam_id = ? AND created_at >= ? ORDER BY created_at DESC LIMIT ?`), examID, since.UTC(), limit); err != nil {
		return nil, fmt.Errorf("store: recent results: %w", err)
	}
	if err := db.SelectContext(ctx, &paid, db.Rebind(`SELECT 'unlocked' AS kind, COALESCE(country, '') AS country, updated_at AS at
		FROM orders WHERE exam_id = ? AND kind = 'report' AND status = 'paid' AND updated_at >= ? ORDER BY updated_at DESC LIMIT ?`), examID, since.UTC(), limit); err != nil {
		return nil, fmt.Errorf("store: recent orders: %w", err)
	}
	all := append(done, paid...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].At.After(all[j].At) })
	if len(all) > limit {
		all = all[:limit]
	}
	return all, nil
}

// Review is a review or testimonial in the language it was written in.
type Review struct {
	ID        string    `db:"id"`
	Name      string    `db:"name"`
	TypeCode  string    `db:"type_code"`
	Content   string    `db:"content"`
	Avatar    string    `db:"avatar"`
	Location  string    `db:"location"`
	Locale    string    `db:"locale"`
	Approved  bool      `db:"approved"`
	CreatedAt time.Time `db:"created_at"`
}

// SaveReview creates or replaces a review.
func (s *Store) SaveReview(ctx context.Context, db Querier, r Review) error {
	approved := 0
	if r.Approved {
		approved = 1
	}
	_, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO reviews (id, name, type_code, content, avatar, location, locale, approved, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET name = excluded.name, type_code = excluded.type_code, content = excluded.content,
		avatar = excluded.avatar, location = excluded.location, locale = excluded.locale, approved = excluded.approved`),
		r.ID, r.Name, r.TypeCode, r.Content, r.Avatar, r.Location, r.Locale, approved, r.CreatedAt.UTC())
	if err != nil {
		return fmt.Errorf("store: save review: %w", err)
	}
	return nil
}

// ApprovedReviews lists the newest approved reviews written in a locale.
func (s *Store) ApprovedReviews(ctx context.Context, db Querier, locale string, limit int) ([]Review, error) {
	var out []Review
	err := db.SelectContext(ctx, &out, db.Rebind(`SELECT id, name, type_code, content, avatar, location, locale, approved, created_at
		FROM reviews WHERE locale = ? AND approved = 1 ORDER BY created_at DESC, id LIMIT ?`), locale, limit)
	if err != nil {
		return nil, fmt.Errorf("store: approved reviews: %w", err)
	}
	return out, nil
}

// MarkDemoOrderPaid marks an order paid without a payment, for the demo data
// set only: real orders are paid through checkout.
func (s *Store) MarkDemoOrderPaid(ctx context.Context, db Querier, id, country string, at time.Time) error {
	_, err := db.ExecContext(ctx, db.Rebind(`UPDATE orders SET status = 'paid', country = ?, updated_at = ? WHERE id = ?`),
		country, at.UTC(), id)
	if err != nil {
		return fmt.Errorf("store: mark demo order paid: %w", err)
	}
	return nil
}

// MarkDemo records that `selfmap seed` loaded n rows of demo data of a kind.
func (s *Store) MarkDemo(ctx context.Context, db Querier, kind string, n int, now time.Time) error {
	_, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO demo_data (kind, rows_added, loaded_at) VALUES (?, ?, ?)
		ON CONFLICT (kind) DO UPDATE SET rows_added = excluded.rows_added, loaded_at = excluded.loaded_at`), kind, n, now.UTC())
	if err != nil {
		return fmt.Errorf("store: mark demo data: %w", err)
	}
	return nil
}

// HasDemoData reports whether the database holds demo data (MarkDemo).
func (s *Store) HasDemoData(ctx context.Context, db Querier) (bool, error) {
	var n int
	if err := db.GetContext(ctx, &n, `SELECT COUNT(*) FROM demo_data`); err != nil {
		return false, fmt.Errorf("store: demo data: %w", err)
	}
	return n > 0, nil
}
