package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

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

func benchmarkPage(b *testing.B, url string, headers map[string]string) {
	e := newServer(b, storetest.SQLite(b))
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
	}
}
