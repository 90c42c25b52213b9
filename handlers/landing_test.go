package handlers_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
	"selfmap/internal/social"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/views"
)

// scriptSrc finds any script a page would load from a URL.
var scriptSrc = regexp.MustCompile(`<script[^>]*\ssrc=`)

func TestLandingPagesOnAnEmptyDatabase(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		for _, name := range views.LandingNames {
			t.Run(name, func(t *testing.T) {
				rec := scenario{url: "/landing/" + name + "/BMBTI-1807", status: 200,
					contains: []string{`data-theme="` + name + `"`, "/assets/themes/" + name + "/theme.", "/assets/static/css/landing.",
						`data-testid="landing-` + name + `"`, `data-testid="hero-title"`, `data-testid="not-mbti"`,
						`href="/answer/question/BMBTI-1807"`, "IPIP-NEO-120"},
					// A fresh install shows no figures and no people.
					notContain: []string{`data-testid="counters"`, `data-testid="activity"`, `data-testid="reviews"`, `type="module"`},
				}.run(t, e)
				if scriptSrc.MatchString(rec.Body.String()) {
					t.Error("a landing page loads a script")
				}
				if !strings.Contains(rec.Body.String(), "<title>") || strings.Contains(rec.Body.String(), "<title>Selfmap: free 16-type personality test</title>") {
					t.Error("the landing page has no title of its own")
				}
			})
		}
		t.Run("the landing's own copy", func(t *testing.T) {
			scenario{url: "/landing/founder/BMBTI-1807", status: 200, contains: []string{"Why Selfmap exists", "<title>A note from our founder | Selfmap</title>"}}.run(t, e)
			scenario{url: "/landing/types/BMBTI-1807", status: 200, contains: []string{"The Quiet Cartographer", "Strategists", "ESFP"}}.run(t, e)
			scenario{url: "/landing/roles/BMBTI-1807", status: 200, contains: []string{"Keepers", "Makers"}, notContain: []string{"The Quiet Cartographer"}}.run(t, e)
			scenario{url: "/ja/landing/relax/BMBTI-1807", status: 200, contains: []string{"自分を知るための、穏やかな10分間", `<meta name="description" content="急がず`}}.run(t, e)
		})
		for _, url := range []string{"/landing/admin/BMBTI-1807", "/landing/Relax/BMBTI-1807", "/landing/home-old/BMBTI-1807", "/landing/founder/BMBTI-9999"} {
			scenario{url: url, status: 404}.run(t, e)
		}
		for _, url := range []string{"/", "/homepage/BMBTI-1807", "/ko/"} {
			rec := scenario{url: url, status: 200, contains: []string{`data-testid="homepage"`, `data-testid="faq"`, `"@type":"FAQPage"`,
				`"@type":"Organization"`, `type="application/ld+json"`, `class="l-map"`, "/assets/static/css/landing."},
				notContain: []string{`data-testid="counters"`, `data-testid="activity"`, `data-testid="reviews"`, `href="/user/login"><`}}.run(t, e)
			if scriptSrc.MatchString(rec.Body.String()) {
				t.Errorf("%s loads a script", url)
			}
		}
	})
}

// addResult stores a completed test of exam 1807 taken at a time, in a
// country ("" for none), and returns its order's id.
func addResult(t *testing.T, s *store.Store, at time.Time, country string) (string, string) {
	t.Helper()
	ctx := context.Background()
	id := fmt.Sprintf("r%d", at.UnixNano())
	r := store.Result{ID: id, ExamID: 1807, PageCode: "BMBTI", Locale: "en", Answers: "[]", ExamVersion: "v", ItemsVersion: "v",
		NormsVersion: "v", NormGroup: "all", Scores: "{}", ResultCode: "INFP-T", CreatedAt: at, UpdatedAt: at}
	o := store.Order{ID: "o" + id, OrderNumber: "N" + id, ResultID: id, ExamID: 1807, Status: store.OrderCreated, CreatedAt: at, UpdatedAt: at}
	if err := s.CreateResultWithOrder(ctx, s.DB, r, o); err != nil {
		t.Fatal(err)
	}
	if country != "" {
		d := store.Details{FirstName: "A", LastName: "B", Country: country}
		if err := s.SetResultDetails(ctx, s.DB, id, d, store.Rescored{NormGroup: "all", Scores: "{}", ResultCode: "INFP-T"}, at); err != nil {
			t.Fatal(err)
		}
	}
	return id, o.ID
}

func TestLandingProofFromTheDatabase(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		// The results are stored before the app starts, which reads them
		// once a minute: the app's clock is made first.
		clock := apptest.NewClock(apptest.Epoch)
		now := clock.Now().UTC()
		midnight := now.Truncate(24 * time.Hour)
		var rated []string
		// Today (most of the day): one in Germany two minutes ago, one
		// without a country 12 minutes ago; a paid report from the United
		// States 30 seconds ago.
		taken := []time.Time{now.Add(-2 * time.Minute), now.Add(-12 * time.Minute), midnight.Add(-time.Hour),
			now.Add(-50 * time.Minute), now.Add(-7 * 24 * time.Hour)}
		id, _ := addResult(t, s, taken[0], "DE")
		rated = append(rated, id)
		id, _ = addResult(t, s, taken[1], "")
		rated = append(rated, id)
		id, order := addResult(t, s, taken[2], "US")
		rated = append(rated, id)
		if err := s.MarkDemoOrderPaid(ctx, s.DB, order, "US", now.Add(-30*time.Second)); err != nil {
			t.Fatal(err)
		}
		// Older: 50 minutes ago (too old for a notice), and last week.
		addResult(t, s, taken[3], "DE")
		addResult(t, s, taken[4], "FR")
		for _, id := range rated {
			if err := s.SaveRating(ctx, s.DB, id, 5, now); err != nil {
				t.Fatal(err)
			}
		}

		// "Today" is the UTC day of the app's clock, which stands still at
		// the kit's Epoch, mid-morning: midnight never passes in the test.
		de := map[string]string{"Accept-Language": "de-DE,de;q=0.9"}
		e := apptest.New(t, s, apptest.WithClock(clock)).Handler
		today := 0
		for _, at := range taken {
			if !at.Before(midnight) {
				today++
			}
		}
		counterToday := fmt.Sprintf(`data-testid="counter-today"><strong>%d</strong>`, today)
		scenario{url: "/de/landing/relax/BMBTI-1807", headers: de, status: 200, contains: []string{counterToday,
			`data-testid="counter-region"><strong>2</strong> <span>Tests in Ihrem Land abgeschlossen (Deutschland)</span>`,
			`data-testid="counter-total"><strong>5</strong>`,
		}, notContain: []string{`data-testid="counter-accuracy"`}}.run(t, e)

		rec := scenario{url: "/landing/young/BMBTI-1807", status: 200, contains: []string{
			"Someone in the United States unlocked their full report</span> <small>1 minute ago",
			"Someone in Germany completed the test</span> <small>3 minutes ago",
			"Someone completed the test</span> <small>15 minutes ago",
			`class="notices rotate-3"`,
		}, notContain: []string{`data-testid="counter-region"`, "45 minutes ago", "France"}}.run(t, e)
		if n := strings.Count(rec.Body.String(), `data-testid="notice"`); n != 3 {
			t.Errorf("%d notices; want 3 (the 50-minute-old test is too old)", n)
		}

		// Enough ratings: a second server (a cold cache) shows the mean.
		for i := 0; len(rated) < social.MinRatings; i++ {
			id, _ := addResult(t, s, now.Add(-time.Duration(8+i)*24*time.Hour), "")
			rated = append(rated, id)
			score := 4
			if i%2 == 0 {
				score = 5
			}
			if err := s.SaveRating(ctx, s.DB, id, score, now); err != nil {
				t.Fatal(err)
			}
		}
		e2 := apptest.New(t, s, apptest.WithClock(clock)).Handler
		scenario{url: "/landing/free/BMBTI-1807", status: 200, contains: []string{
			`data-testid="counter-accuracy"><strong>4.6 / 5</strong> <span>accuracy rated by 20 test-takers</span>`,
		}}.run(t, e2)
		scenario{url: "/fr/landing/free/BMBTI-1807", status: 200, contains: []string{"<strong>4,6 / 5</strong>"}}.run(t, e2)
		// The first server still answers from its minute-long cache.
		scenario{url: "/landing/free/BMBTI-1807", status: 200, notContain: []string{`data-testid="counter-accuracy"`}}.run(t, e)
	})
}

func TestReviewsShowOnlyWhenApproved(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		// The view counts a review's age on the wall clock
		// (views/landing.go), so the app runs on it too.
		clock := apptest.WallClock()
		now := clock.Now().UTC()
		for _, r := range []store.Review{
			{ID: "1", Name: "Ana <b>", TypeCode: "ENFJ", Content: "It named what I <i>feel</i>.", Location: "Porto", Locale: "en", Approved: true, CreatedAt: now.Add(-3 * 24 * time.Hour)},
			{ID: "2", Name: "Hidden", Content: "Not approved yet.", Locale: "en", CreatedAt: now},
			{ID: "3", Name: "Léa", Content: "Très juste.", Locale: "fr", Approved: true, Avatar: "javascript:alert(1)", CreatedAt: now},
			{ID: "4", Name: "Kim", Content: "With a picture.", Locale: "ko", Approved: true, Avatar: "/assets/a.png", CreatedAt: now},
		} {
			if err := s.SaveReview(ctx, s.DB, r); err != nil {
				t.Fatal(err)
			}
		}
		e := apptest.New(t, s, apptest.WithClock(clock)).Handler
		scenario{url: "/landing/founder/BMBTI-1807", status: 200, contains: []string{`data-testid="reviews"`, "What test-takers say",
			"Ana &lt;b&gt;", "It named what I &lt;i&gt;feel&lt;/i&gt;.", "Type ENFJ", "Porto", "3 days ago", `<span class="avatar" aria-hidden="true">A</span>`},
			notContain: []string{"Not approved yet", "Très juste"}}.run(t, e)
		scenario{url: "/", status: 200, contains: []string{"What people say", "Ana &lt;b&gt;"}}.run(t, e)
		scenario{url: "/fr/landing/girl/BMBTI-1807", status: 200, contains: []string{"Très juste.", `<span class="avatar" aria-hidden="true">L</span>`},
			notContain: []string{"javascript:", "Ana"}}.run(t, e)
		scenario{url: "/ko/landing/girl/BMBTI-1807", status: 200, contains: []string{`<img class="avatar" src="/assets/a.png"`, `loading="lazy"`}}.run(t, e)
		scenario{url: "/de/landing/girl/BMBTI-1807", status: 200, notContain: []string{`data-testid="reviews"`}}.run(t, e)
	})
}
