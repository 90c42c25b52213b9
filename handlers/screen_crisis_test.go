package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"selfmap/app/apptest"
	"selfmap/internal/exam"
	"selfmap/internal/i18n"
	"selfmap/locales"
)

// phq9Submission answers the nine statements of the depression screen
// (exam 2001) with value(i), 0-3, as the question island sends them.
func phq9Submission(t *testing.T, value func(i int) int) map[string]any {
	t.Helper()
	reg, err := exam.LoadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	e, ok := reg.Exam(2001)
	if !ok {
		t.Fatal("exam 2001 is not served")
	}
	var answers []map[string]any
	for i, q := range e.Instrument.Questions("en") {
		answers = append(answers, map[string]any{"id": q.ID, "value": value(i)})
	}
	return map[string]any{"examId": 2001, "code": "BDEPS", "version": e.FullVersion(), "answers": answers, "durationSeconds": 90}
}

// screenResult posts a PHQ-9 submission and gives its result the country
// the details step would have stored.
func (b *browser) screenResult(k *apptest.Kit, token, country string, value func(i int) int) string {
	b.T.Helper()
	rec := b.PostJSON("/api/exam/order/info", token, phq9Submission(b.T.(*testing.T), value))
	var sub struct{ Data struct{ ResultID string } }
	if err := json.Unmarshal(rec.Body.Bytes(), &sub); err != nil || sub.Data.ResultID == "" {
		b.T.Fatalf("submission: %d %s", rec.Code, rec.Body.String())
	}
	db := k.Store.DB
	if _, err := db.ExecContext(context.Background(), db.Rebind("UPDATE results SET country = ? WHERE id = ?"), country, sub.Data.ResultID); err != nil {
		b.T.Fatal(err)
	}
	return sub.Data.ResultID
}

// A depression screen with item 9 above 0 (every other statement at 0, a
// minimal sum) shows the crisis block of the visitor's country before the
// score on the free result, in every locale: its heading, the emergency
// number and the crisis line as tel: links. With item 9 at 0 there is none.
func TestScreenFreeResultShowsCrisisLinesFirst(t *testing.T) {
	catalog, err := i18n.Load(locales.Files)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tag, country, line, tel, emergency string
	}{
		{"en", "US", "988 Suicide &amp; Crisis Lifeline", "tel:988", "911"},
		{"zh-CN", "CN", "全国统一心理援助热线", "tel:12356", "120"},
		{"zh-HK", "HK", "香港撒瑪利亞防止自殺會 24小時情緒支援熱線", "tel:23892222", "999"},
		{"fr", "FR", "3114 – Numéro national de prévention du suicide", "tel:3114", "112"},
		{"es", "ES", "Línea 024 de atención a la conducta suicida", "tel:024", "112"},
		{"ja", "JP", "よりそいホットライン", "tel:0120279338", "119"},
		{"de", "DE", "TelefonSeelsorge", "tel:08001110111", "112"},
		{"pt", "BR", "CVV – Centro de Valorização da Vida", "tel:188", "192"},
		{"ko", "KR", "자살예방상담전화 109", "tel:109", "119"},
	}
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		for _, c := range cases {
			l, _ := i18n.ByTag(c.tag)
			tr := catalog.Translator(l)
			b := newBrowser(t, k.Handler)
			token := b.CSRFToken(l.Prefix + "/")
			id := b.screenResult(k, token, c.country, func(i int) int {
				if i == 8 {
					return 1
				}
				return 0
			})
			rec := b.Get(l.Prefix + "/report/result-free-test/BDEPS-2001?r=" + id)
			page := rec.Body.String()
			if rec.Code != http.StatusOK {
				t.Fatalf("%s: free result %d %.500s", c.tag, rec.Code, page)
			}
			block, score := strings.Index(page, `data-testid="crisis"`), strings.Index(page, `data-testid="screen-score"`)
			if block < 0 || score < 0 || block > score {
				t.Fatalf("%s: crisis block at %d, score at %d", c.tag, block, score)
			}
			crisis := page[strings.LastIndex(page[:block], "<section"):score]
			for _, want := range []string{
				tr.T("crisis.title"), tr.T("crisis.reason_phq9")[:12], c.line, `href="` + c.tel + `"`,
				`href="tel:` + c.emergency + `"`, `role="region"`,
			} {
				if !strings.Contains(crisis, want) {
					t.Errorf("%s: the crisis block lacks %q: %s", c.tag, want, crisis)
				}
			}
			if want := tr.TD("screen.score_of", map[string]any{"Sum": 1, "Max": 27}); !strings.Contains(page[score:], want) {
				t.Errorf("%s: score %q missing", c.tag, want)
			}
			if want := tr.T("screen.phq9.band.minimal"); !strings.Contains(page[score:], want) {
				t.Errorf("%s: band %q missing", c.tag, want)
			}
		}

		b := newBrowser(t, k.Handler)
		id := b.screenResult(k, b.CSRFToken("/"), "US", func(i int) int { return min(8-i, 1) })
		page := b.Get("/report/result-free-test/BDEPS-2001?r=" + id).Body.String()
		if strings.Contains(page, `data-testid="crisis"`) || !strings.Contains(page, "8 of 27") || !strings.Contains(page, "Mild") {
			t.Errorf("item 9 at 0: %.2000s", page)
		}
	})
}

// The paid report of a depression screen, read in Japanese from Japan,
// opens with the crisis block, then the score on its scale, the band's
// meaning, the statements answered most often in the person's words, the
// two-week plan, when to get help (a doctor, at a moderate score) and the
// PHQ-9's credit.
func TestScreenReportPage(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b := newBrowser(t, k.Handler)
		token := b.CSRFToken("/ja/")
		answers := []int{2, 3, 1, 1, 1, 1, 1, 0, 1} // 11: moderate
		id := b.screenResult(k, token, "JP", func(i int) int { return answers[i] })
		var order string
		if err := k.Store.DB.GetContext(context.Background(), &order, k.Store.DB.Rebind("SELECT order_number FROM orders WHERE result_id = ?"), id); err != nil {
			t.Fatal(err)
		}
		b.ConfirmCard(token, b.StartPayment("/pay/pay/order/create", token, order, "deps-report"))
		rec := b.Get("/ja/report/result/BDEPS-2001?r=" + id)
		page := rec.Body.String()
		if rec.Code != http.StatusOK {
			t.Fatalf("report: %d %.500s", rec.Code, page)
		}
		at := func(s string) int {
			i := strings.Index(page, s)
			if i < 0 {
				t.Errorf("the report lacks %q", s)
			}
			return i
		}
		crisis, score := at(`data-testid="crisis"`), at(`data-testid="screen-score"`)
		if crisis > score {
			t.Errorf("crisis block at %d after the score at %d", crisis, score)
		}
		at("<h1>うつ状態のスクリーニング（PHQ-9）</h1>")
		at("10–14：中等度（あなたの結果）")
		at("27点中11点")
		at("中等度")
		at(`data-testid="screen-see-doctor"`)
		at("「気分が落ち込む、憂うつになる、または絶望的な気持ちになる」：ほとんど毎日")
		at("「物事に対してほとんど興味がない、または楽しめない」：半分以上")
		at("2週間のセルフケアプラン")
		at("NG222")
		at("Pfizer Inc.")
		at(`data-testid="download-pdf"`)
		if n := strings.Count(page, `data-testid="screen-item"`); n != 2 {
			t.Errorf("%d statements reflected, want 2", n)
		}
		if strings.Contains(page, `data-testid="screen-own-translation"`) {
			t.Error("the Japanese PHQ-9 is the official translation, not ours")
		}
	})
}
