package ratelimit_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/labstack/echo/v4/middleware"

	"selfmap/internal/ratelimit"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// BenchmarkAllow measures one shared check (figures in
// docs/reliability.md): "one" keeps hitting one client's bucket, "spread"
// gives each check a client of its own from a thousand, and "parallel"
// runs checks from GOMAXPROCS goroutines. "memory" is echo's in-process
// store, which the API read limit keeps, for comparison.
func BenchmarkAllow(b *testing.B) {
	b.Run("memory", func(b *testing.B) {
		m := middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{Rate: 1e6, Burst: 1e6, ExpiresIn: time.Minute})
		i := 0
		for b.Loop() {
			i++
			if _, err := m.Allow("client-" + strconv.Itoa(i%1000)); err != nil {
				b.Fatal(err)
			}
		}
	})
	for name, url := range map[string]func(testing.TB) string{"sqlite": storetest.SQLiteURL, "postgres": storetest.PostgresURL} {
		b.Run(name, func(b *testing.B) {
			s, err := store.Open(context.Background(), url(b))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			if _, err := s.Migrate(context.Background()); err != nil {
				b.Fatal(err)
			}
			l, err := ratelimit.New(ratelimit.InDatabase(s), ratelimit.Limit{Name: "bench", Rate: 1e6, Burst: 1e6}, time.Now)
			if err != nil {
				b.Fatal(err)
			}
			b.Run("one", func(b *testing.B) {
				for b.Loop() {
					if _, err := l.Allow("203.0.113.7"); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("spread", func(b *testing.B) {
				i := 0
				for b.Loop() {
					i++
					if _, err := l.Allow("client-" + strconv.Itoa(i%1000)); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("parallel", func(b *testing.B) {
				b.RunParallel(func(pb *testing.PB) {
					i := 0
					for pb.Next() {
						i++
						if _, err := l.Allow("client-" + strconv.Itoa(i%1000)); err != nil {
							b.Fatal(err)
						}
					}
				})
			})
		})
	}
}
