package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// A report link opens its result by the token, which is stored only as a
// hash; a PDF is kept once per result and locale.
func TestReportLinksAndPDFs(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		r := store.Result{ID: "result-1", ExamID: 1807, PageCode: "BMBTI", Locale: "en", Answers: "[]", ExamVersion: "v", ItemsVersion: "i",
			NormsVersion: "n", NormGroup: "pooled", Scores: "{}", ResultCode: "INTJ-A", CreatedAt: now, UpdatedAt: now}
		if err := s.CreateResultWithOrder(ctx, s.DB, r, store.Order{ID: "o1", OrderNumber: "SM1", ResultID: r.ID, ExamID: 1807, Status: "created", CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if err := s.AddReportLink(ctx, s.DB, r.ID, "secret-token", now); err != nil {
			t.Fatal(err)
		}
		got, err := s.ResultForToken(ctx, s.DB, "secret-token")
		if err != nil || got.ID != r.ID || got.ResultCode != "INTJ-A" {
			t.Fatalf("ResultForToken = %+v, %v", got, err)
		}
		if _, err := s.ResultForToken(ctx, s.DB, "other"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("an unknown token: %v", err)
		}
		var stored string
		if err := s.DB.Get(&stored, `SELECT token_hash FROM report_links`); err != nil || stored == "secret-token" || stored != store.HashToken("secret-token") {
			t.Errorf("the token is stored as %q", stored)
		}
		pdf := store.ReportPDF{ResultID: r.ID, Locale: "ko", PDF: []byte("%PDF-1.4 first"), Pages: 9, CreatedAt: now}
		if err := s.SaveReportPDF(ctx, s.DB, pdf); err != nil {
			t.Fatal(err)
		}
		pdf.PDF = []byte("%PDF-1.4 second")
		if err := s.SaveReportPDF(ctx, s.DB, pdf); err != nil {
			t.Fatal(err)
		}
		back, err := s.GetReportPDF(ctx, s.DB, r.ID, "ko")
		if err != nil || string(back.PDF) != "%PDF-1.4 first" || back.Pages != 9 {
			t.Fatalf("GetReportPDF = %q %d %v", back.PDF, back.Pages, err)
		}
		if _, err := s.GetReportPDF(ctx, s.DB, r.ID, "en"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("a locale never rendered: %v", err)
		}
		counts, err := s.TypeCounts(ctx, s.DB, 1807)
		if err != nil || len(counts) != 1 || counts[0].Letters != "INTJ" || counts[0].N != 1 {
			t.Errorf("TypeCounts = %+v, %v", counts, err)
		}
	})
}
