package views

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"testing"

	"selfmap/internal/exam/crisis"
	"selfmap/internal/exam/k10"
	"selfmap/internal/i18n"
	"selfmap/internal/report"
	"selfmap/internal/report/screen"
	"selfmap/internal/result"
	"selfmap/internal/web"
	"selfmap/locales"
)

// The printed report (the PDF) of a K10 result in its top band starts with
// the crisis block of the result's country, before the cover and the
// score; in German, whose K10 statements are our translation, it says so.
func TestScreenPrintStartsWithCrisis(t *testing.T) {
	catalog, err := i18n.Load(locales.Files)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := crisis.Load()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := screen.K10()
	if err != nil {
		t.Fatal(err)
	}
	b, err := screen.New(spec, dir)
	if err != nil {
		t.Fatal(err)
	}
	scored, err := k10.Score([]int{3, 3, 3, 3, 3, 3, 3, 3, 3, 3})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(scored)
	l, _ := i18n.ByTag("de")
	tr := catalog.Translator(l)
	rep, err := b.Build(context.Background(), report.Input{Locale: l, T: tr, Order: "SM1",
		Result: result.Result{ID: "r1", Scores: string(raw), Country: sql.NullString{String: "DE", Valid: true}}})
	if err != nil {
		t.Fatal(err)
	}
	view, err := ReportPrintView(rep, "")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	ctx := i18n.WithTranslator(web.With(context.Background(), &web.Request{Locale: l}), tr)
	if err := view.Render(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	block, cover, score := strings.Index(page, `data-testid="crisis"`), strings.Index(page, `class="cover"`), strings.Index(page, `data-testid="screen-score"`)
	if block < 0 || cover < 0 || score < 0 || block > cover || block > score {
		t.Fatalf("crisis %d, cover %d, score %d", block, cover, score)
	}
	for _, want := range []string{"<h1>" + tr.T("screen.k10.name") + "</h1>", "0800 111 0 111", `href="tel:112"`, "30 von 50", tr.T("screen.k10.band.very_high"),
		`data-testid="screen-own-translation"`, "Kessler RC"} {
		if !strings.Contains(page, want) {
			t.Errorf("the printed report lacks %q", want)
		}
	}
}
