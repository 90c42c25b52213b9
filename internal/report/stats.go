package report

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"selfmap/internal/exam/ipipneo"
	"selfmap/internal/store"
)

// RecentResults is how many of the latest results the ranking compares with.
const RecentResults = 1000

// CountryWindow is how far back "recent tests" reach for the top countries.
const CountryWindow = 30 * 24 * time.Hour

// TypeTally counts the results of one type, in all and by gender.
type TypeTally struct{ All, Male, Female int }

// Stats are the figures of an exam's stored results that every report of
// it shows beside the reader's own scores.
type Stats struct {
	// Results, Males and Females count the typed results.
	Results, Males, Females int
	Types                   map[string]TypeTally
	// Countries are the top 10 of the last CountryWindow.
	Countries []store.CountryCount
	// Recent holds, per domain, the sorted percentiles of the latest
	// results (at most RecentResults).
	Recent map[string][]int
	// Demo is set while the database holds demo data: the figures then
	// include made-up results, and the report says so.
	Demo bool
}

// Population is a type's share of the typed results, in all and by
// gender; each is shown only when Enough.
type Population struct{ All, Male, Female Share }

// Population counts the share of a type (four letters).
func (s Stats) Population(letters string) Population {
	t := s.Types[letters]
	return Population{All: Share{t.All, s.Results}, Male: Share{t.Male, s.Males}, Female: Share{t.Female, s.Females}}
}

// Rank is where a domain percentile sits among the latest results: the
// percentage of them below it.
func (s Stats) Rank(domain string, percentile int) int {
	return RankAmong(s.Recent[domain], percentile)
}

// StatsCache loads an exam's Stats at most once per TTL: a report view
// costs no counting queries.
type StatsCache struct {
	Store *store.Store
	Now   func() time.Time
	TTL   time.Duration

	mu     sync.Mutex
	byExam map[int]cachedStats
}

type cachedStats struct {
	stats Stats
	at    time.Time
}

// Get returns an exam's Stats, loading them when older than the TTL.
func (c *StatsCache) Get(ctx context.Context, examID int) (Stats, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.Now()
	if e, ok := c.byExam[examID]; ok && now.Sub(e.at) < c.TTL {
		return e.stats, nil
	}
	st, err := load(ctx, c.Store, examID, now)
	if err != nil {
		return Stats{}, err
	}
	if c.byExam == nil {
		c.byExam = map[int]cachedStats{}
	}
	c.byExam[examID] = cachedStats{stats: st, at: now}
	return st, nil
}

func load(ctx context.Context, s *store.Store, examID int, now time.Time) (Stats, error) {
	counts, err := s.TypeCounts(ctx, s.DB, examID)
	if err != nil {
		return Stats{}, err
	}
	st := Stats{Types: map[string]TypeTally{}, Recent: map[string][]int{}}
	if st.Demo, err = s.HasDemoData(ctx, s.DB); err != nil {
		return Stats{}, err
	}
	for _, c := range counts {
		t := st.Types[c.Letters]
		t.All += c.N
		st.Results += c.N
		switch c.Gender {
		case "male":
			t.Male += c.N
			st.Males += c.N
		case "female":
			t.Female += c.N
			st.Females += c.N
		}
		st.Types[c.Letters] = t
	}
	if st.Countries, err = s.TopCountries(ctx, s.DB, examID, now.Add(-CountryWindow), 10); err != nil {
		return Stats{}, err
	}
	scores, err := s.RecentScores(ctx, s.DB, examID, RecentResults)
	if err != nil {
		return Stats{}, err
	}
	for _, raw := range scores {
		var r ipipneo.Result
		if json.Unmarshal([]byte(raw), &r) != nil {
			continue
		}
		for d, sc := range r.Domains {
			st.Recent[d] = append(st.Recent[d], sc.Percentile)
		}
	}
	for _, v := range st.Recent {
		slices.Sort(v)
	}
	return st, nil
}
