package views

import (
	"context"
	"strconv"
)

// Structured data (schema.org JSON-LD) for the pages search engines index.
// Every URL is absolute and in the request's locale.

type ld = map[string]any

func absURL(ctx context.Context, localPath string) string {
	return req(ctx).BaseURL + localPath
}

func breadcrumbLD(ctx context.Context, crumbs []Crumb) ld {
	items := make([]ld, len(crumbs))
	for i, c := range crumbs {
		items[i] = ld{"@type": "ListItem", "position": i + 1, "name": c.Label, "item": absURL(ctx, c.Href)}
	}
	return ld{"@type": "BreadcrumbList", "itemListElement": items}
}

func typesLD(ctx context.Context, p TypesPage) ld {
	r := req(ctx)
	var items []ld
	for _, g := range p.Groups {
		for _, ty := range g.Types {
			items = append(items, ld{"@type": "ListItem", "position": len(items) + 1, "url": absURL(ctx, ty.Href), "name": ty.Code + " · " + ty.Title})
		}
	}
	return ld{
		"@context": "https://schema.org", "@type": "CollectionPage",
		"name": t(ctx, "types.title"), "description": t(ctx, "types.meta_desc"),
		"url": r.URL(r.Locale, r.Path), "inLanguage": r.Locale.Tag,
		"publisher":  organizationLD(ctx),
		"mainEntity": ld{"@type": "ItemList", "numberOfItems": len(items), "itemListElement": items},
	}
}

func typeLD(ctx context.Context, p TypePage) ld {
	r := req(ctx)
	url := r.URL(r.Locale, r.Path)
	return ld{
		"@context": "https://schema.org",
		"@graph": []ld{
			{
				"@type": "Article", "headline": p.Code + " · " + p.Title, "description": p.Description,
				"url": url, "mainEntityOfPage": url, "inLanguage": r.Locale.Tag, "isAccessibleForFree": true,
				"about":     ld{"@type": "DefinedTerm", "name": p.Code, "description": p.Title, "inDefinedTermSet": absURL(ctx, p.ListHref)},
				"author":    organizationLD(ctx),
				"publisher": organizationLD(ctx),
			},
			breadcrumbLD(ctx, p.Crumbs),
		},
	}
}

func testsLD(ctx context.Context, p TestsPage) ld {
	r := req(ctx)
	items := make([]ld, len(p.Tests))
	for i, tc := range p.Tests {
		items[i] = ld{"@type": "ListItem", "position": i + 1, "name": tc.Name, "url": absURL(ctx, tc.StartHref)}
	}
	return ld{
		"@context": "https://schema.org", "@type": "CollectionPage",
		"name": t(ctx, "tests.title"), "description": t(ctx, "tests.meta_desc"),
		"url": r.URL(r.Locale, r.Path), "inLanguage": r.Locale.Tag,
		"mainEntity": ld{"@type": "ItemList", "numberOfItems": len(items), "itemListElement": items},
	}
}

// helpLD marks the help centre as a FAQ page: every question is answered on
// the page itself, as the format requires.
func helpLD(ctx context.Context, p HelpPage) ld {
	r := req(ctx)
	var qs []ld
	for _, s := range p.Sections {
		for _, a := range s.Articles {
			qs = append(qs, ld{"@type": "Question", "name": a.Title, "acceptedAnswer": ld{"@type": "Answer", "text": a.Plain}})
		}
	}
	return ld{"@context": "https://schema.org", "@type": "FAQPage", "inLanguage": r.Locale.Tag, "mainEntity": qs}
}

func crumbsLD(ctx context.Context, crumbs []Crumb) ld {
	out := breadcrumbLD(ctx, crumbs)
	out["@context"] = "https://schema.org"
	return out
}

func minutesRange(a, b int) map[string]any {
	return map[string]any{"Min": strconv.Itoa(a), "Max": strconv.Itoa(b)}
}
