package content_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"selfmap/internal/apperr"
	"selfmap/internal/content"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// A text written for one exam shows on that exam's pages only; the API's
// info calls, which name no exam, read any. An article's page lists the
// other articles of its section.
func TestServiceKeepsTextsToTheirExam(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		article := func(slug string, examID int, section string, sort int) store.HelpArticle {
			return store.HelpArticle{Slug: slug, Locale: "en", ExamID: examID, Section: section, Sort: sort, Title: slug, Body: slug + ".",
				SourceHash: slug, UpdatedAt: now}
		}
		articles := []store.HelpArticle{
			article("renew", 0, "subscription", 1), article("cancel", 0, "subscription", 2),
			article("other-exam", 99, "subscription", 3), article("refund", 0, "billing", 4),
		}
		protocols := []store.Protocol{
			{Slug: "terms", Locale: "en", Flag: content.FlagTerms, Title: "Terms", Body: "Terms.", Version: "2026-01-01", SourceHash: "t", UpdatedAt: now},
			{Slug: "privacy", Locale: "en", ExamID: 99, Flag: content.FlagPrivacy, Title: "Privacy", Body: "Privacy.", Version: "2026-01-01",
				SourceHash: "p", UpdatedAt: now},
		}
		if _, err := s.SyncBuiltinContent(ctx, s.DB, articles, protocols); err != nil {
			t.Fatal(err)
		}
		svc := &content.Service{Store: s}

		if _, err := svc.HelpArticle(ctx, "other-exam", "en", 1807); !errors.Is(err, apperr.ErrNotFound) {
			t.Errorf("another exam's article on 1807: %v; want not found", err)
		}
		if a, err := svc.HelpArticle(ctx, "other-exam", "en", content.AnyExam); err != nil || a.Slug != "other-exam" {
			t.Errorf("any exam: %+v, %v", a, err)
		}
		d, err := svc.HelpDetail(ctx, "renew", "en", 1807)
		if err != nil || d.Article.Slug != "renew" || len(d.Related) != 1 || d.Related[0].Slug != "cancel" {
			t.Fatalf("detail = %+v, %v; want renew with cancel beside it", d, err)
		}
		if _, err := svc.Protocol(ctx, "privacy", "en", 1807); !errors.Is(err, apperr.ErrNotFound) {
			t.Errorf("another exam's document on 1807: %v; want not found", err)
		}
		if docs, err := svc.Protocols(ctx, "en", 1807); err != nil || len(docs) != 1 || docs[0].Slug != "terms" {
			t.Errorf("documents of 1807 = %+v, %v", docs, err)
		}
	})
}
