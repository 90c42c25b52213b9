package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"selfmap/app/apptest"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// BenchmarkHomePage measures a whole request for the home page through the
// real middleware chain (locale, session, CSRF, CSP nonce), uncompressed.
func BenchmarkHomePage(b *testing.B) {
	benchmarkPage(b, "/", nil)
}

// BenchmarkHomePageGzip is the same request from a browser that accepts gzip.
func BenchmarkHomePageGzip(b *testing.B) {
	benchmarkPage(b, "/", map[string]string{"Accept-Encoding": "gzip"})
}

// BenchmarkLandingJapanese renders a themed landing page in Japanese.
func BenchmarkLandingJapanese(b *testing.B) {
	benchmarkPage(b, "/ja/landing/relax/BMBTI-1807", nil)
}

// BenchmarkLandingWithProof renders the founder landing over a database
// with results, ratings, recent activity and reviews, for a visitor whose
// browser names a country: counters, notices and testimonials come from the
// social cache, so a request makes no query.
func BenchmarkLandingWithProof(b *testing.B) {
	benchmarkPage(b, "/landing/founder/BMBTI-1807", map[string]string{"Accept-Language": "en-GB,en;q=0.8"}, withProof)
}

// BenchmarkHomePageWithProof is the marketing home page over the same data.
func BenchmarkHomePageWithProof(b *testing.B) {
	benchmarkPage(b, "/", map[string]string{"Accept-Language": "en-GB,en;q=0.8"}, withProof)
}

// withProof stores 200 results over the week before the kit's clock
// (apptest.Epoch), 120 rated, a few paid in the last half hour, and three
// approved reviews.
func withProof(b *testing.B, s *store.Store) {
	ctx := context.Background()
	now := apptest.Epoch
	for i := range 200 {
		at := now.Add(-time.Duration(i) * 50 * time.Minute)
		if i < 6 {
			at = now.Add(-time.Duration(i*5+1) * time.Minute)
		}
		id := fmt.Sprintf("bench%03d", i)
		r := store.Result{ID: id, ExamID: 1807, PageCode: "BMBTI", Locale: "en", Answers: "[]", ExamVersion: "v", ItemsVersion: "v",
			NormsVersion: "v", NormGroup: "all", Scores: "{}", ResultCode: "ENFP-A", CreatedAt: at, UpdatedAt: at,
			Country: store.NullStr{String: []string{"GB", "DE", "US", "JP"}[i%4], Valid: true}}
		o := store.Order{ID: "o" + id, OrderNumber: "N" + id, ResultID: id, ExamID: 1807, Status: store.OrderCreated, CreatedAt: at, UpdatedAt: at}
		if err := s.CreateResultWithOrder(ctx, s.DB, r, o); err != nil {
			b.Fatal(err)
		}
		if i%5 == 0 {
			if err := s.SaveRating(ctx, s.DB, id, 4+i%2, at); err != nil {
				b.Fatal(err)
			}
		}
		if i < 3 {
			if err := s.MarkDemoOrderPaid(ctx, s.DB, o.ID, "GB", at.Add(time.Minute)); err != nil {
				b.Fatal(err)
			}
		}
	}
	for i, name := range []string{"Ada", "Ben", "Cy"} {
		if err := s.SaveReview(ctx, s.DB, store.Review{ID: name, Name: name, TypeCode: "INTJ", Content: "Clear and honest.", Location: "York",
			Locale: "en", Approved: true, CreatedAt: now.Add(-time.Duration(i+1) * 48 * time.Hour)}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchmarkPage(b *testing.B, url string, headers map[string]string, fill ...func(*testing.B, *store.Store)) {
	st := storetest.SQLite(b)
	for _, f := range fill {
		f(b, st)
	}
	e := apptest.New(b, st).Handler
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, url, nil)
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
		if len(fill) > 0 && !strings.Contains(rec.Body.String(), `data-testid="notice"`) {
			b.Fatal("the page shows no activity notice")
		}
	}
}

// paidReportLink pays a report through the API and returns a report link
// to it, so the benchmarks open it as an e-mailed link does.
func paidReportLink(b *testing.B, s *store.Store) (*echo.Echo, string) {
	k := apptest.New(b, s)
	br := newBrowser(b, k.Handler)
	token := br.CSRFToken("/")
	result, _ := br.PaidReport(token)
	if err := s.AddReportLink(context.Background(), s.DB, result, "bench-link", k.Clock.Now()); err != nil {
		b.Fatal(err)
	}
	return k.Handler, result
}

// BenchmarkReportPage is the full report's Dimensions tab (the larger),
// opened by a report link: figures from the stats cache, 30 facets, SVG
// charts.
func BenchmarkReportPage(b *testing.B) {
	e, _ := paidReportLink(b, storetest.SQLite(b))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/report/result/BMBTI-1807?tab=dimensions&t=bench-link", nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}
