package app

import (
	"context"
	"time"

	"selfmap/internal/site"
	"selfmap/internal/store"
)

// The packages below read the database through a narrow interface of their
// own (their tests give them a fake); these adapters run those reads on the
// database itself, outside any transaction.

// siteLoader lists the sites for the site directory.
func siteLoader(st *store.Store) site.Loader {
	return func(ctx context.Context) ([]site.Site, error) { return st.ListSites(ctx, st.DB) }
}

// socialSource is the landing pages' figures (social.Source).
type socialSource struct{ st *store.Store }

func (s socialSource) ResultCounts(ctx context.Context, examID int, since time.Time) (store.ResultCounts, error) {
	return s.st.ResultCounts(ctx, s.st.DB, examID, since)
}

func (s socialSource) RatingStats(ctx context.Context, examID int) (store.RatingStats, error) {
	return s.st.RatingStats(ctx, s.st.DB, examID)
}

func (s socialSource) RecentActivity(ctx context.Context, examID int, since time.Time, limit int) ([]store.Activity, error) {
	return s.st.RecentActivity(ctx, s.st.DB, examID, since, limit)
}

func (s socialSource) ApprovedReviews(ctx context.Context, locale string, limit int) ([]store.Review, error) {
	return s.st.ApprovedReviews(ctx, s.st.DB, locale, limit)
}

func (s socialSource) HasDemoData(ctx context.Context) (bool, error) {
	return s.st.HasDemoData(ctx, s.st.DB)
}
