package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"selfmap/internal/store"
)

// Record is the part of loadmix's -json record the checks read.
type Record struct {
	Start        time.Time   `json:"start"`
	Seconds      float64     `json:"seconds"`
	PeakRSSKB    int64       `json:"peakRssKB"`
	PaidOrders   []string    `json:"paidOrders"`
	Windows      []Window    `json:"windows"`
	ServerErrors []time.Time `json:"serverErrors"`
	Replays      Replays     `json:"replays"`
}

// Replays counts the webhook deliveries sent again: accepted (200),
// refused (another status) and, by difference, lost to a transport error.
type Replays struct {
	Sent     int `json:"sent"`
	Accepted int `json:"accepted"`
	Refused  int `json:"refused"`
}

// Window is an injected fault, from its start to the server's recovery.
type Window struct {
	Kind  string    `json:"kind"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// Limits are what the checks allow.
type Limits struct {
	// Grace widens each fault window on both sides: requests in flight at
	// a kill, and a pool's reconnection after a database restart.
	Grace time.Duration
	// MaxRSSKB bounds the server's peak resident set.
	MaxRSSKB int64
}

// Finding is one check's outcome.
type Finding struct {
	Name   string
	OK     bool
	Detail string
	// Settles is a check of the database, which the reconciler may still
	// bring right: worth repeating.
	Settles bool
}

// forgiven are the fault kinds inside which a 5xx or a refused connection
// is expected: a replayed delivery must never cause one.
var forgiven = map[string]bool{"kill": true, "pg-restart": true}

// Check runs every invariant against the database and the record.
func Check(ctx context.Context, st *store.Store, rec Record, lim Limits) ([]Finding, error) {
	var out []Finding
	for _, c := range []func(context.Context, *store.Store, Record) (Finding, error){
		fulfilledOnce, mailedOnce, linkedOnce, notLost, noDoubleCharge,
	} {
		f, err := c(ctx, st, rec)
		if err != nil {
			return nil, err
		}
		f.Settles = true
		out = append(out, f)
	}
	out = append(out, no5xxOutsideFaults(rec, lim.Grace), replaysAnswered(rec), memoryBounded(rec, lim.MaxRSSKB))
	return out, nil
}

// Failed reports whether any finding failed.
func Failed(fs []Finding) bool {
	for _, f := range fs {
		if !f.OK {
			return true
		}
	}
	return false
}

// MaySettle reports whether a failed finding may yet settle: one of the
// database, which the reconciler may still bring right.
func MaySettle(fs []Finding) bool {
	for _, f := range fs {
		if !f.OK && f.Settles {
			return true
		}
	}
	return false
}

// problems runs a query whose every row is a violation (one text column)
// and turns the rows into a finding.
func problems(ctx context.Context, st *store.Store, name, okDetail, query string, args ...any) (Finding, error) {
	var rows []string
	if err := st.DB.SelectContext(ctx, &rows, st.DB.Rebind(query), args...); err != nil {
		return Finding{}, fmt.Errorf("soakcheck: %s: %w", name, err)
	}
	if len(rows) == 0 {
		return Finding{Name: name, OK: true, Detail: okDetail}, nil
	}
	return Finding{Name: name, Detail: fmt.Sprintf("%d violations: %s", len(rows), sample(rows))}, nil
}

func sample(rows []string) string {
	if len(rows) > 5 {
		return strings.Join(rows[:5], "; ") + "; ..."
	}
	return strings.Join(rows, "; ")
}

// fulfilledOnce: every paid order has exactly one conversion (fulfilment
// writes it in the transaction that marks the order paid), and no unpaid
// order has one.
func fulfilledOnce(ctx context.Context, st *store.Store, _ Record) (Finding, error) {
	var paid int
	if err := st.DB.GetContext(ctx, &paid, `SELECT COUNT(*) FROM orders WHERE status = 'paid'`); err != nil {
		return Finding{}, fmt.Errorf("soakcheck: count paid orders: %w", err)
	}
	f, err := problems(ctx, st, "every paid order fulfilled exactly once", "",
		`SELECT o.order_number || ' (' || o.status || '): ' || CAST(COUNT(c.id) AS TEXT) || ' fulfilments'
		 FROM orders o LEFT JOIN conversions c ON c.order_id = o.id
		 GROUP BY o.id, o.order_number, o.status
		 HAVING (o.status = 'paid' AND COUNT(c.id) <> 1) OR (o.status NOT IN ('paid', 'refunded') AND COUNT(c.id) > 0)
		 ORDER BY o.order_number`)
	if f.OK {
		f.Detail = fmt.Sprintf("%d paid orders, one fulfilment each", paid)
	}
	return f, err
}

// mailedOnce: every paid order with an address has one receipt, and a
// paid report order one report-ready mail.
func mailedOnce(ctx context.Context, st *store.Store, _ Record) (Finding, error) {
	return problems(ctx, st, "mails once per kind", "one receipt per paid order, one report-ready mail per paid report",
		`SELECT o.order_number || ': ' || CAST(SUM(CASE WHEN m.kind = 'receipt' THEN 1 ELSE 0 END) AS TEXT) || ' receipts, '
		        || CAST(SUM(CASE WHEN m.kind = 'report_ready' THEN 1 ELSE 0 END) AS TEXT) || ' report mails'
		 FROM orders o LEFT JOIN mail_outbox m ON m.ref = o.id
		 WHERE o.status = 'paid' AND o.email IS NOT NULL
		 GROUP BY o.id, o.order_number, o.kind
		 HAVING SUM(CASE WHEN m.kind = 'receipt' THEN 1 ELSE 0 END) <> 1
		     OR SUM(CASE WHEN m.kind = 'report_ready' THEN 1 ELSE 0 END) <> (CASE WHEN o.kind = 'report' THEN 1 ELSE 0 END)
		 ORDER BY o.order_number`)
}

// linkedOnce: fulfilment of a paid report order made one report link
// (the soak's load asks for no retrieval, which would add more).
func linkedOnce(ctx context.Context, st *store.Store, _ Record) (Finding, error) {
	return problems(ctx, st, "one report link per paid report", "one link per paid report order",
		`SELECT o.order_number || ': ' || CAST(COUNT(l.token_hash) AS TEXT) || ' report links'
		 FROM orders o LEFT JOIN report_links l ON l.result_id = o.result_id
		 WHERE o.status = 'paid' AND o.kind = 'report' AND o.email IS NOT NULL
		 GROUP BY o.id, o.order_number
		 HAVING COUNT(l.token_hash) <> 1
		 ORDER BY o.order_number`)
}

// notLost: every order the load saw paid is paid, and every payment the
// sandbox's books took paid its order (a delivery lost to a kill must have
// been applied by the reconciler).
func notLost(ctx context.Context, st *store.Store, rec Record) (Finding, error) {
	var missing []string
	for _, number := range rec.PaidOrders {
		o, err := st.GetOrderByNumber(ctx, st.DB, number)
		switch {
		case errors.Is(err, store.ErrNotFound):
			missing = append(missing, number+": no such order")
		case err != nil:
			return Finding{}, fmt.Errorf("soakcheck: order %s: %w", number, err)
		case o.Status != "paid":
			missing = append(missing, number+": "+string(o.Status))
		}
	}
	var books []string
	err := st.DB.SelectContext(ctx, &books, `SELECT o.order_number || ': sandbox took ' || p.ref || ', order ' || o.status
		FROM sandbox_payments p JOIN payment_attempts a ON a.id = p.attempt_id JOIN orders o ON o.id = a.order_id
		WHERE p.state = 'succeeded' AND o.status <> 'paid' ORDER BY o.order_number`)
	if err != nil {
		return Finding{}, fmt.Errorf("soakcheck: sandbox books: %w", err)
	}
	missing = append(missing, books...)
	if len(missing) > 0 {
		return Finding{Name: "no paid order lost", Detail: fmt.Sprintf("%d lost: %s", len(missing), sample(missing))}, nil
	}
	return Finding{Name: "no paid order lost", OK: true,
		Detail: fmt.Sprintf("%d orders seen paid by the load, all paid; every sandbox success paid its order", len(rec.PaidOrders))}, nil
}

// noDoubleCharge: at most one succeeded payment per order, in our books
// and in the sandbox's.
func noDoubleCharge(ctx context.Context, st *store.Store, _ Record) (Finding, error) {
	return problems(ctx, st, "no duplicate charge", "at most one succeeded payment per order",
		`SELECT o.order_number || ': ' || CAST(COUNT(*) AS TEXT) || ' charges' FROM sandbox_payments p
		 JOIN payment_attempts a ON a.id = p.attempt_id JOIN orders o ON o.id = a.order_id
		 WHERE p.state = 'succeeded' GROUP BY o.id, o.order_number HAVING COUNT(*) > 1
		 UNION ALL
		 SELECT o.order_number || ': ' || CAST(COUNT(*) AS TEXT) || ' succeeded attempts' FROM payment_attempts a
		 JOIN orders o ON o.id = a.order_id
		 WHERE a.status = 'succeeded' GROUP BY o.id, o.order_number HAVING COUNT(*) > 1`)
}

// no5xxOutsideFaults: every 5xx answer or transport error of the load fell
// inside a kill or database-restart window (widened by grace).
func no5xxOutsideFaults(rec Record, grace time.Duration) Finding {
	var outside []string
	for _, at := range rec.ServerErrors {
		in := false
		for _, w := range rec.Windows {
			if forgiven[w.Kind] && !at.Before(w.Start.Add(-grace)) && !at.After(w.End.Add(grace)) {
				in = true
				break
			}
		}
		if !in {
			outside = append(outside, at.UTC().Format("15:04:05.000"))
		}
	}
	name := "no 5xx outside fault windows"
	if len(outside) > 0 {
		return Finding{Name: name, Detail: fmt.Sprintf("%d of %d outside (grace %s): %s", len(outside), len(rec.ServerErrors), grace, sample(outside))}
	}
	return Finding{Name: name, OK: true, Detail: fmt.Sprintf("%d errors, all inside the %d fault windows (grace %s)", len(rec.ServerErrors), len(rec.Windows), grace)}
}

// memoryBounded: the server's peak resident set stayed under the bound.
// replaysAnswered: every replayed delivery was acknowledged, so the
// replays were really delivered (a round that met a kill tested nothing)
// and none was refused. Replays asked for and none sent fail too.
func replaysAnswered(rec Record) Finding {
	name := "replays answered"
	r := rec.Replays
	detail := fmt.Sprintf("%d sent, %d accepted, %d refused", r.Sent, r.Accepted, r.Refused)
	return Finding{Name: name, OK: r.Sent > 0 && r.Accepted == r.Sent, Detail: detail}
}

func memoryBounded(rec Record, maxKB int64) Finding {
	name := "memory bounded"
	detail := fmt.Sprintf("peak RSS %.1f MB, bound %.0f MB", float64(rec.PeakRSSKB)/1024, float64(maxKB)/1024)
	if rec.PeakRSSKB == 0 {
		return Finding{Name: name, Detail: "no memory figure in the record"}
	}
	return Finding{Name: name, OK: rec.PeakRSSKB <= maxKB, Detail: detail}
}
