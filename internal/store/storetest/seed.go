package storetest

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"selfmap/internal/store"
)

// Purchase describes a result of exam 1807 and its orders for a test.
type Purchase struct {
	ResultID, Code, Locale string
	// ResultEmail is the address given with the result ("" for none).
	ResultEmail string
	// Report is the report order's status (default created, unpaid) and
	// ReportEmail its address.
	Report      store.OrderStatus
	ReportEmail string
	// Pack, when set, adds a pack order with this status and ReportEmail.
	Pack store.OrderStatus
	At   time.Time
}

// Buy stores a Purchase: the result, its report order (number "SM-" +
// ResultID) and any pack order.
func Buy(t testing.TB, s *store.Store, p Purchase) {
	t.Helper()
	ctx := context.Background()
	if p.Locale == "" {
		p.Locale = "en"
	}
	if p.Report == "" {
		p.Report = store.OrderCreated
	}
	email := func(e string) sql.NullString { return sql.NullString{String: e, Valid: e != ""} }
	r := store.Result{ID: p.ResultID, ExamID: 1807, PageCode: "BMBTI", Locale: p.Locale, Answers: "[]", ExamVersion: "v", ItemsVersion: "i",
		NormsVersion: "n", NormGroup: "pooled", Scores: `{"type":"` + p.Code + `"}`, ResultCode: p.Code, Email: email(p.ResultEmail), CreatedAt: p.At, UpdatedAt: p.At}
	o := store.Order{ID: "o-" + p.ResultID, OrderNumber: "SM-" + p.ResultID, ResultID: r.ID, ExamID: 1807, Kind: store.OrderReport,
		Status: p.Report, Email: email(p.ReportEmail), CreatedAt: p.At, UpdatedAt: p.At}
	if err := s.CreateResultWithOrder(ctx, s.DB, r, o); err != nil {
		t.Fatal(err)
	}
	if p.Pack != "" {
		pack := store.Order{ID: "p-" + p.ResultID, OrderNumber: "SP-" + p.ResultID, ResultID: r.ID, ExamID: 1807, Status: p.Pack,
			Email: email(p.ReportEmail), SKUID: sql.NullString{String: "mbti-pack-career", Valid: true}, CreatedAt: p.At, UpdatedAt: p.At}
		if _, err := s.PackOrder(ctx, s.DB, pack); err != nil {
			t.Fatal(err)
		}
	}
}
