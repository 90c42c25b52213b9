package main

import (
	"context"
	"testing"
	"time"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

var at = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// paidOrder stores a report order fulfilled as checkout fulfils it: paid,
// one succeeded attempt (and its sandbox payment), one conversion, one link,
// a receipt and a report-ready mail.
func paidOrder(t *testing.T, s *store.Store, id string) {
	t.Helper()
	storetest.Buy(t, s, storetest.Purchase{ResultID: id, Code: "INTJ", Report: "paid", ReportEmail: id + "@example.com", At: at})
	exec(t, s, `INSERT INTO payment_attempts (id, order_id, provider, provider_ref, status, amount, currency, created_at, updated_at)
		VALUES (?, ?, 'sandbox', ?, 'succeeded', 990, 'USD', ?, ?)`, "a-"+id, "o-"+id, "sbx_a-"+id, at, at)
	exec(t, s, `INSERT INTO sandbox_payments (ref, attempt_id, amount, currency, state, created_at, updated_at)
		VALUES (?, ?, 990, 'USD', 'succeeded', ?, ?)`, "sbx_a-"+id, "a-"+id, at, at)
	exec(t, s, `INSERT INTO conversions (id, order_id, kind, amount, currency, created_at) VALUES (?, ?, 'purchase', 990, 'USD', ?)`,
		"c-"+id, "o-"+id, at)
	exec(t, s, `INSERT INTO report_links (token_hash, result_id, created_at) VALUES (?, ?, ?)`, "h-"+id, id, at)
	for _, kind := range []string{"receipt", "report_ready"} {
		exec(t, s, `INSERT INTO mail_outbox (id, kind, to_address, locale, subject, body, ref, status, created_at)
			VALUES (?, ?, 'b@example.com', 'en', 's', 'b', ?, 'queued', ?)`, kind+"-"+id, kind, "o-"+id, at)
	}
}

func exec(t *testing.T, s *store.Store, query string, args ...any) {
	t.Helper()
	if _, err := s.DB.Exec(s.DB.Rebind(query), args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// healthy is a record of a run whose only errors fell in a kill window.
func healthy() Record {
	return Record{Start: at, PeakRSSKB: 50 * 1024, PaidOrders: []string{"SM-r1", "SM-r2"},
		Windows:      []Window{{Kind: "kill", Start: at.Add(time.Minute), End: at.Add(time.Minute + 2*time.Second)}},
		ServerErrors: []time.Time{at.Add(time.Minute + time.Second), at.Add(time.Minute + 3*time.Second)},
		Replays:      Replays{Sent: 4, Accepted: 4}}
}

var limits = Limits{Grace: 2 * time.Second, MaxRSSKB: 120 * 1024}

func TestCheckPassesAHealthyRun(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		paidOrder(t, s, "r1")
		paidOrder(t, s, "r2")
		storetest.Buy(t, s, storetest.Purchase{ResultID: "r3", Code: "ENFP", At: at}) // never paid
		fs, err := Check(context.Background(), s, healthy(), limits)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			if !f.OK {
				t.Errorf("%s failed on a healthy run: %s", f.Name, f.Detail)
			}
		}
	})
}

// TestCheckFailsABrokenRun breaks one invariant at a time and expects
// exactly that check to fail.
func TestCheckFailsABrokenRun(t *testing.T) {
	cases := []struct {
		name   string
		check  string
		breaks func(t *testing.T, s *store.Store, rec *Record)
	}{
		{"fulfilled twice", "every paid order fulfilled exactly once", func(t *testing.T, s *store.Store, _ *Record) {
			exec(t, s, `INSERT INTO conversions (id, order_id, kind, amount, currency, created_at) VALUES ('c2', 'o-r1', 'purchase', 990, 'USD', ?)`, at)
		}},
		{"paid but never fulfilled", "every paid order fulfilled exactly once", func(t *testing.T, s *store.Store, _ *Record) {
			exec(t, s, `DELETE FROM conversions WHERE order_id = 'o-r2'`)
		}},
		// A second mail of a kind is refused by mail_outbox's unique index.
		{"receipt missing", "mails once per kind", func(t *testing.T, s *store.Store, _ *Record) {
			exec(t, s, `DELETE FROM mail_outbox WHERE kind = 'receipt' AND ref = 'o-r1'`)
		}},
		{"report mail missing", "mails once per kind", func(t *testing.T, s *store.Store, _ *Record) {
			exec(t, s, `DELETE FROM mail_outbox WHERE kind = 'report_ready' AND ref = 'o-r2'`)
		}},
		{"two report links", "one report link per paid report", func(t *testing.T, s *store.Store, _ *Record) {
			exec(t, s, `INSERT INTO report_links (token_hash, result_id, created_at) VALUES ('h2', 'r1', ?)`, at)
		}},
		{"order the load saw paid is pending", "no paid order lost", func(t *testing.T, s *store.Store, _ *Record) {
			exec(t, s, `UPDATE orders SET status = 'pending' WHERE id = 'o-r1'`)
			exec(t, s, `DELETE FROM conversions WHERE order_id = 'o-r1'`)
			exec(t, s, `DELETE FROM mail_outbox WHERE ref = 'o-r1'`)
		}},
		{"order the load saw paid is missing", "no paid order lost", func(_ *testing.T, _ *store.Store, rec *Record) {
			rec.PaidOrders = append(rec.PaidOrders, "SM-nowhere")
		}},
		{"sandbox took money for an unpaid order", "no paid order lost", func(t *testing.T, s *store.Store, _ *Record) {
			exec(t, s, `INSERT INTO payment_attempts (id, order_id, provider, provider_ref, status, amount, currency, created_at, updated_at)
				VALUES ('a-x', 'o-r3', 'sandbox', 'sbx_a-x', 'started', 990, 'USD', ?, ?)`, at, at)
			exec(t, s, `INSERT INTO sandbox_payments (ref, attempt_id, amount, currency, state, created_at, updated_at)
				VALUES ('sbx_a-x', 'a-x', 990, 'USD', 'succeeded', ?, ?)`, at, at)
		}},
		{"charged twice", "no duplicate charge", func(t *testing.T, s *store.Store, _ *Record) {
			exec(t, s, `INSERT INTO payment_attempts (id, order_id, provider, provider_ref, status, amount, currency, created_at, updated_at)
				VALUES ('a-2', 'o-r1', 'sandbox', 'sbx_a-2', 'succeeded', 990, 'USD', ?, ?)`, at, at)
			exec(t, s, `INSERT INTO sandbox_payments (ref, attempt_id, amount, currency, state, created_at, updated_at)
				VALUES ('sbx_a-2', 'a-2', 990, 'USD', 'succeeded', ?, ?)`, at, at)
		}},
		{"5xx outside the windows", "no 5xx outside fault windows", func(_ *testing.T, _ *store.Store, rec *Record) {
			rec.ServerErrors = append(rec.ServerErrors, at.Add(5*time.Minute))
		}},
		{"5xx during a replay", "no 5xx outside fault windows", func(_ *testing.T, _ *store.Store, rec *Record) {
			rec.Windows = append(rec.Windows, Window{Kind: "replay", Start: at.Add(3 * time.Minute), End: at.Add(4 * time.Minute)})
			rec.ServerErrors = append(rec.ServerErrors, at.Add(3*time.Minute+time.Second))
		}},
		{"replays lost to a kill", "replays answered", func(_ *testing.T, _ *store.Store, rec *Record) {
			rec.Replays = Replays{Sent: 4, Accepted: 1}
		}},
		{"a replay refused", "replays answered", func(_ *testing.T, _ *store.Store, rec *Record) {
			rec.Replays = Replays{Sent: 4, Accepted: 3, Refused: 1}
		}},
		{"no replay sent", "replays answered", func(_ *testing.T, _ *store.Store, rec *Record) {
			rec.Replays = Replays{}
		}},
		{"memory over the bound", "memory bounded", func(_ *testing.T, _ *store.Store, rec *Record) {
			rec.PeakRSSKB = 121 * 1024
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, s *store.Store) {
				paidOrder(t, s, "r1")
				paidOrder(t, s, "r2")
				storetest.Buy(t, s, storetest.Purchase{ResultID: "r3", Code: "ENFP", At: at})
				rec := healthy()
				tc.breaks(t, s, &rec)
				fs, err := Check(context.Background(), s, rec, limits)
				if err != nil {
					t.Fatal(err)
				}
				if !Failed(fs) {
					t.Fatal("a broken run passed")
				}
				for _, f := range fs {
					if f.OK == (f.Name == tc.check) {
						t.Errorf("%s: ok=%v (%s); want only %q to fail", f.Name, f.OK, f.Detail, tc.check)
					}
				}
			})
		})
	}
}

func TestMaySettleOnlyForDatabaseChecks(t *testing.T) {
	fs := []Finding{{Name: "no paid order lost", Settles: true}, {Name: "memory bounded", OK: true}}
	if !MaySettle(fs) {
		t.Error("a lost order may yet be reconciled")
	}
	fs[1].OK = false
	if !MaySettle(fs) {
		t.Error("a lost order may yet be reconciled, whatever else failed")
	}
	fs[0].OK = true
	if MaySettle(fs) {
		t.Error("memory over the bound never settles")
	}
}
