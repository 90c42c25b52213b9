package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// addResult stores a result of exam 1807 made at a time, with an optional
// country, and its unpaid order.
func addResult(t *testing.T, s *store.Store, id string, at time.Time, country string) store.Order {
	t.Helper()
	r := store.Result{ID: id, ExamID: 1807, PageCode: "BMBTI", Locale: "en", Answers: "[]", ExamVersion: "v", ItemsVersion: "v",
		NormsVersion: "v", NormGroup: "all", Scores: "{}", ResultCode: "INFP-T", CreatedAt: at, UpdatedAt: at}
	if country != "" {
		r.Country = store.NullStr{String: country, Valid: true}
	}
	o := store.Order{ID: "o-" + id, OrderNumber: "N-" + id, ResultID: id, ExamID: 1807, Status: store.OrderCreated, CreatedAt: at, UpdatedAt: at}
	if err := s.CreateResultWithOrder(context.Background(), s.DB, r, o); err != nil {
		t.Fatal(err)
	}
	if country != "" {
		if _, err := s.DB.Exec(s.DB.Rebind(`UPDATE results SET country = ? WHERE id = ?`), country, id); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

func TestSocialQueries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Second)
		addResult(t, s, "r1", now.Add(-48*time.Hour), "DE")
		addResult(t, s, "r2", now.Add(-2*time.Minute), "DE")
		o := addResult(t, s, "r3", now.Add(-10*time.Minute), "")
		if _, err := s.DB.Exec(s.DB.Rebind(`UPDATE orders SET status = 'paid', country = 'FR', updated_at = ? WHERE id = ?`), now.Add(-time.Minute), o.ID); err != nil {
			t.Fatal(err)
		}

		c, err := s.ResultCounts(ctx, s.DB, 1807, now.Add(-24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if c.Total != 3 || c.Since != 2 || c.ByCountry["DE"] != 2 || len(c.ByCountry) != 1 {
			t.Errorf("counts = %+v; want total 3, since 2, DE 2", c)
		}
		if c, _ := s.ResultCounts(ctx, s.DB, 9999, now); c.Total != 0 {
			t.Errorf("another exam counts %d results", c.Total)
		}

		for i, score := range []int{5, 4, 2} {
			if err := s.SaveRating(ctx, s.DB, fmt.Sprintf("r%d", i+1), score, now); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.SaveRating(ctx, s.DB, "r3", 3, now); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveRating(ctx, s.DB, "r3", 6, now); err == nil {
			t.Error("a rating of 6 was accepted")
		}
		st, err := s.RatingStats(ctx, s.DB, 1807)
		if err != nil {
			t.Fatal(err)
		}
		if st.Count != 3 || st.Mean != 4 {
			t.Errorf("ratings = %+v; want 3 with mean 4 (r3 re-rated 3)", st)
		}

		acts, err := s.RecentActivity(ctx, s.DB, 1807, now.Add(-45*time.Minute), 10)
		if err != nil {
			t.Fatal(err)
		}
		want := []store.Activity{{Kind: "unlocked", Country: "FR"}, {Kind: "completed", Country: "DE"}, {Kind: "completed"}}
		if len(acts) != len(want) {
			t.Fatalf("activity = %+v; want %d events", acts, len(want))
		}
		for i, a := range acts {
			if a.Kind != want[i].Kind || a.Country != want[i].Country {
				t.Errorf("activity[%d] = %+v; want %+v", i, a, want[i])
			}
		}
		if !acts[0].At.Equal(now.Add(-time.Minute)) {
			t.Errorf("activity time = %v; want %v", acts[0].At, now.Add(-time.Minute))
		}

		for i, rv := range []store.Review{
			{ID: "a", Name: "Ana", TypeCode: "ENFP", Content: "Spot on.", Locale: "pt", Approved: true, CreatedAt: now.Add(-time.Hour)},
			{ID: "b", Name: "Bia", Content: "Hidden.", Locale: "pt", CreatedAt: now},
			{ID: "c", Name: "Cleo", Content: "Other language.", Locale: "fr", Approved: true, CreatedAt: now},
			{ID: "d", Name: "Duda", Content: "Newest.", Locale: "pt", Approved: true, CreatedAt: now, Location: "Recife"},
		} {
			if err := s.SaveReview(ctx, s.DB, rv); err != nil {
				t.Fatalf("review %d: %v", i, err)
			}
		}
		rs, err := s.ApprovedReviews(ctx, s.DB, "pt", 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != 2 || rs[0].ID != "d" || rs[1].ID != "a" || !rs[0].Approved || rs[0].Location != "Recife" {
			t.Errorf("reviews = %+v; want d then a", rs)
		}
	})
}
