package support

import (
	"context"
	"fmt"

	"selfmap/internal/store"
)

// quickAnswers are the help articles the support page offers before the
// form, in this order: what people most often write about.
var quickAnswers = []string{"cancel-subscription", "refunds", "find-my-report", "unrecognised-charge", "delete-my-data"}

// QuickAnswers are the help articles of a locale and exam that the support
// page offers before the form, in quickAnswers' order; an article the
// locale does not have is left out.
func (s *Service) QuickAnswers(ctx context.Context, locale string, examID int) ([]store.HelpArticle, error) {
	articles, err := s.Store.ListHelpArticles(ctx, s.Store.DB, locale, examID)
	if err != nil {
		return nil, fmt.Errorf("support: quick answers: %w", err)
	}
	var out []store.HelpArticle
	for _, slug := range quickAnswers {
		for _, a := range articles {
			if a.Slug == slug {
				out = append(out, a)
			}
		}
	}
	return out, nil
}
