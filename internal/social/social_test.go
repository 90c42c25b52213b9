package social_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"
	"time"

	"selfmap/internal/social"
	"selfmap/internal/store"
)

func TestBucket(t *testing.T) {
	for _, tc := range []struct {
		age  time.Duration
		want int
		ok   bool
	}{
		{-time.Second, 1, true}, // a clock a little ahead
		{0, 1, true},
		{59 * time.Second, 1, true},
		{time.Minute, 1, true},
		{time.Minute + time.Second, 3, true},
		{3 * time.Minute, 3, true},
		{4 * time.Minute, 5, true},
		{6 * time.Minute, 10, true},
		{11 * time.Minute, 15, true},
		{16 * time.Minute, 20, true},
		{21 * time.Minute, 25, true},
		{26 * time.Minute, 30, true},
		{31 * time.Minute, 45, true},
		{45 * time.Minute, 45, true},
		{45*time.Minute + time.Second, 0, false},
		{3 * time.Hour, 0, false},
	} {
		got, ok := social.Bucket(tc.age)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Bucket(%v) = %d, %t; want %d, %t", tc.age, got, ok, tc.want, tc.ok)
		}
	}
}

// fakeSource counts its loads and answers what the test sets.
type fakeSource struct {
	loads    map[string]int
	counts   store.ResultCounts
	ratings  store.RatingStats
	activity []store.Activity
	reviews  []store.Review
	demo     bool
	err      error
}

func (f *fakeSource) HasDemoData(context.Context) (bool, error) {
	f.loads["demo"]++
	return f.demo, f.err
}

func (f *fakeSource) ResultCounts(context.Context, int, time.Time) (store.ResultCounts, error) {
	f.loads["counts"]++
	return f.counts, f.err
}

func (f *fakeSource) RatingStats(context.Context, int) (store.RatingStats, error) {
	f.loads["ratings"]++
	return f.ratings, f.err
}

func (f *fakeSource) RecentActivity(context.Context, int, time.Time, int) ([]store.Activity, error) {
	f.loads["activity"]++
	return f.activity, f.err
}

func (f *fakeSource) ApprovedReviews(_ context.Context, locale string, _ int) ([]store.Review, error) {
	f.loads["reviews:"+locale]++
	return f.reviews, f.err
}

func TestServiceCachesAndNeverInvents(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	src := &fakeSource{loads: map[string]int{},
		counts:  store.ResultCounts{Total: 40, Since: 7, ByCountry: map[string]int{"DE": 12}},
		ratings: store.RatingStats{Count: social.MinRatings - 1, Mean: 4.4},
		activity: []store.Activity{
			{Kind: "completed", Country: "DE", At: now.Add(-30 * time.Second)},
			{Kind: "unlocked", At: now.Add(-12 * time.Minute)},
			{Kind: "completed", Country: "FR", At: now.Add(-44 * time.Minute)},
		}}
	s := social.New(src, clock, time.Minute, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx := context.Background()

	c := s.Counters(ctx, 1807, "DE")
	if c != (social.Counters{Today: 7, Total: 40, Region: "DE", InRegion: 12, Ratings: social.MinRatings - 1}) {
		t.Errorf("counters = %+v", c)
	}
	if c.Accuracy != 0 {
		t.Errorf("accuracy %v shown from %d ratings", c.Accuracy, c.Ratings)
	}
	if c := s.Counters(ctx, 1807, ""); c.Region != "" || c.InRegion != 0 {
		t.Errorf("no region: %+v", c)
	}
	if c := s.Counters(ctx, 1807, "JP"); c.Region != "JP" || c.InRegion != 0 {
		t.Errorf("region without tests: %+v", c)
	}
	if src.loads["counts"] != 1 || src.loads["ratings"] != 1 {
		t.Errorf("three calls within the TTL loaded %v; want one load", src.loads)
	}

	got := s.Notices(ctx, 1807)
	want := []social.Notice{{"completed", "DE", 1}, {"unlocked", "", 15}, {"completed", "FR", 45}}
	if len(got) != len(want) {
		t.Fatalf("notices = %+v; want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("notice %d = %+v; want %+v", i, got[i], want[i])
		}
	}

	// Two minutes on, the figures reload and the oldest event has aged out.
	now = now.Add(2 * time.Minute)
	src.ratings = store.RatingStats{Count: social.MinRatings, Mean: 4.4}
	if c := s.Counters(ctx, 1807, "DE"); c.Accuracy != 4.4 {
		t.Errorf("accuracy with %d ratings = %v; want 4.4", social.MinRatings, c.Accuracy)
	}
	if got := s.Notices(ctx, 1807); len(got) != 2 || got[0].Minutes != 3 || got[1].Minutes != 15 {
		t.Errorf("notices two minutes later = %+v", got)
	}
	if src.loads["counts"] != 2 || src.loads["activity"] != 2 {
		t.Errorf("loads after the TTL = %v; want two each", src.loads)
	}

	// A failing database keeps the last good figures and retries soon.
	now = now.Add(2 * time.Minute)
	src.err = errors.New("database down")
	if c := s.Counters(ctx, 1807, "DE"); c.Total != 40 {
		t.Errorf("counters while the database fails = %+v; want the last good ones", c)
	}
	s.Counters(ctx, 1807, "DE")
	if src.loads["counts"] != 3 {
		t.Errorf("a failed load was retried at once: %d loads", src.loads["counts"])
	}
	if r := s.Reviews(ctx, "ja"); len(r) != 0 {
		t.Errorf("reviews from a failing first load: %+v", r)
	}
}
