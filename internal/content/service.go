package content

import (
	"context"
	"fmt"

	"selfmap/internal/apperr"
	"selfmap/internal/store"
)

// HelpArticle is a stored help article in one locale. The store keeps the
// row type; callers name it through this package.
type HelpArticle = store.HelpArticle

// Protocol is a stored legal document in one locale (the spec's API calls
// them protocols).
type Protocol = store.Protocol

// AnyExam asks for a text whatever exam it is written for: the API's info
// calls name no exam.
const AnyExam = 0

// Service reads the help centre's articles and the legal documents as they
// are stored (shipped by Sync, or edited since). An article or a document
// may be written for one exam only (ExamID); the pages of another exam do
// not show it.
type Service struct {
	Store *store.Store
}

// HelpArticles lists the articles that apply to an exam in a locale, in
// display order.
func (s *Service) HelpArticles(ctx context.Context, locale string, examID int) ([]HelpArticle, error) {
	out, err := s.Store.ListHelpArticles(ctx, s.Store.DB, locale, examID)
	if err != nil {
		return nil, fmt.Errorf("content: help articles: %w", err)
	}
	return out, nil
}

// HelpArticle reads one article in a locale. One written for another exam
// than examID is apperr.ErrNotFound; AnyExam reads any.
func (s *Service) HelpArticle(ctx context.Context, slug, locale string, examID int) (HelpArticle, error) {
	a, err := s.Store.GetHelpArticle(ctx, s.Store.DB, slug, locale)
	if err != nil {
		return HelpArticle{}, fmt.Errorf("content: help article: %w", err)
	}
	if !appliesTo(a.ExamID, examID) {
		return HelpArticle{}, fmt.Errorf("content: help article %q is for exam %d: %w", slug, a.ExamID, apperr.ErrNotFound)
	}
	return a, nil
}

// HelpDetail is an article with the other articles of its section, as its
// own page shows them.
type HelpDetail struct {
	Article HelpArticle
	// Related are the section's other articles, in display order.
	Related []HelpArticle
}

// HelpDetail reads an article of an exam (see HelpArticle) and the other
// articles of its section.
func (s *Service) HelpDetail(ctx context.Context, slug, locale string, examID int) (HelpDetail, error) {
	a, err := s.HelpArticle(ctx, slug, locale, examID)
	if err != nil {
		return HelpDetail{}, err
	}
	all, err := s.HelpArticles(ctx, locale, examID)
	if err != nil {
		return HelpDetail{}, err
	}
	out := HelpDetail{Article: a}
	for _, o := range all {
		if o.Section == a.Section && o.Slug != a.Slug {
			out.Related = append(out.Related, o)
		}
	}
	return out, nil
}

// Protocols lists the legal documents that apply to an exam in a locale,
// by flag.
func (s *Service) Protocols(ctx context.Context, locale string, examID int) ([]Protocol, error) {
	out, err := s.Store.ListProtocols(ctx, s.Store.DB, locale, examID)
	if err != nil {
		return nil, fmt.Errorf("content: legal documents: %w", err)
	}
	return out, nil
}

// Protocol reads one legal document in a locale. One written for another
// exam than examID is apperr.ErrNotFound; AnyExam reads any.
func (s *Service) Protocol(ctx context.Context, slug, locale string, examID int) (Protocol, error) {
	p, err := s.Store.GetProtocol(ctx, s.Store.DB, slug, locale)
	if err != nil {
		return Protocol{}, fmt.Errorf("content: legal document: %w", err)
	}
	if !appliesTo(p.ExamID, examID) {
		return Protocol{}, fmt.Errorf("content: legal document %q is for exam %d: %w", slug, p.ExamID, apperr.ErrNotFound)
	}
	return p, nil
}

// appliesTo reports whether a text written for an exam (0: every exam)
// shows on the pages of examID.
func appliesTo(writtenFor, examID int) bool {
	return writtenFor == 0 || examID == AnyExam || writtenFor == examID
}
