package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"selfmap/app/apptest"
	"selfmap/internal/exam"
)

// examSubmission answers every item of an exam with the scale's lowest
// value, as the question island sends them.
func examSubmission(t *testing.T, examID int) map[string]any {
	t.Helper()
	reg, err := exam.LoadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	e, ok := reg.Exam(examID)
	if !ok {
		t.Fatalf("exam %d is not in the registry", examID)
	}
	var answers []map[string]any
	for _, q := range e.Instrument.Questions("en") {
		answers = append(answers, map[string]any{"id": q.ID, "value": e.Instrument.Scale("en").Min})
	}
	return map[string]any{"examId": e.ID, "code": e.Codes[0], "version": e.FullVersion(), "answers": answers, "durationSeconds": 300}
}

// submitExam takes an exam in the browser and returns its result and order.
func (b *browser) submitExam(t *testing.T, token string, examID int) (resultID, order string) {
	t.Helper()
	rec := b.PostJSON("/api/exam/order/info", token, examSubmission(t, examID))
	var sub struct {
		Data struct{ ResultID, OrderNumber string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &sub); err != nil || sub.Data.ResultID == "" {
		t.Fatalf("submission of exam %d: %d %s", examID, rec.Code, rec.Body.String())
	}
	return sub.Data.ResultID, sub.Data.OrderNumber
}

// The tests page lists every exam of the registry with its credit, its
// start link and its full report priced in the visitor's currency: yen for
// a browser in Japan, dollars where no country is stated.
func TestTestsPageListsEveryExamWithItsPrice(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		reg, err := exam.LoadRegistry()
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ lang, path, symbol string }{
			{"ja-JP,ja;q=0.9", "/ja/tests/BMBTI-1807", "￥"},
			{"en", "/tests/BMBTI-1807", "$"},
		} {
			var contains []string
			for _, e := range reg.List() {
				id := strconv.Itoa(e.ID)
				contains = append(contains, `data-testid="test-`+id+`"`, `data-testid="test-price-`+id+`"`, `data-testid="test-method-`+id+`"`,
					`href="`+strings.TrimSuffix(tc.path, "/tests/BMBTI-1807")+"/answer/question/"+e.Codes[0]+"-"+id)
			}
			rec := scenario{url: tc.path, headers: map[string]string{"Accept-Language": tc.lang}, status: http.StatusOK, contains: contains,
				notContain: []string{"tests.", "exam.name_", "sku."}}.run(t, k.Handler)
			body := rec.Body.String()
			for _, e := range reg.List() {
				price := between(body, `data-testid="test-price-`+strconv.Itoa(e.ID)+`">`, "</span>")
				if !strings.Contains(price, tc.symbol) && !strings.Contains(price, strings.Replace(tc.symbol, "￥", "¥", 1)) {
					t.Errorf("%s: exam %d priced %q, want %s", tc.path, e.ID, price, tc.symbol)
				}
			}
			if len(reg.List()) > 1 && strings.Contains(body, `data-testid="tests-more"`) {
				t.Errorf("%s: says more tests are on the way beside %d tests", tc.path, len(reg.List()))
			}
		}
		scenario{url: "/tests/BMBTI-1807", status: http.StatusOK, contains: []string{"Kroenke", "Pfizer", "Kessler", "$4.99", "$9.99"}}.run(t, k.Handler)
		scenario{url: "/ja/tests/BMBTI-1807", headers: map[string]string{"Accept-Language": "ja-JP"}, status: http.StatusOK,
			contains: []string{"800", "1,500"}}.run(t, k.Handler)
	})
}

// The category API lists every exam with its report code and category.
func TestCategoryListNamesEveryReport(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		reg, err := exam.LoadRegistry()
		if err != nil {
			t.Fatal(err)
		}
		rec := scenario{url: "/api/exam/category/list", status: http.StatusOK}.run(t, k.Handler)
		var env struct {
			Result  int
			Message string
			Data    []struct {
				Category string
				Name     string
				Exams    []struct {
					ID               int
					Report, Category string
					Name             string
				}
			}
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
			t.Fatal(err)
		}
		got := map[int]string{}
		for _, c := range env.Data {
			if c.Name == "" || strings.HasPrefix(c.Name, "exam.") {
				t.Errorf("category %s is named %q", c.Category, c.Name)
			}
			for _, e := range c.Exams {
				if e.Category != c.Category || strings.HasPrefix(e.Name, "exam.") {
					t.Errorf("exam %+v in category %s", e, c.Category)
				}
				got[e.ID] = e.Report + "/" + e.Category
			}
		}
		for _, e := range reg.List() {
			if got[e.ID] != e.Report+"/"+e.Category {
				t.Errorf("exam %d listed as %q, want %s/%s", e.ID, got[e.ID], e.Report, e.Category)
			}
		}
		if got[2001] != "DEPS/health" || got[2002] != "YDGX/health" {
			t.Errorf("the screens are listed as %q and %q", got[2001], got[2002])
		}
	})
}

// A member's depression screen shows in the test centre as pending
// payment, is bought as the DEPS report (not the 16-type's), and then
// shows as completed, linking to its report. Another member sees none of it.
func TestTestCenterFollowsADepressionScreenToItsReport(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		u := k.VerifiedUser(t, "deps@example.com")
		b := newBrowser(t, k.Handler)
		if rec := b.Login(u.Email, apptest.Password); rec.Code != http.StatusSeeOther {
			t.Fatalf("login: %d", rec.Code)
		}
		token := b.CSRFToken("/")
		id, order := b.submitExam(t, token, 2001)
		q := "?r=" + url.QueryEscape(id)

		center := b.Expect("/userCenter/exploreMore/testCenter", http.StatusOK,
			`data-testid="tc-test-2001"`, `data-testid="tc-test-1807"`, `data-testid="tc-none-1807"`, `data-testid="uc-footer"`).Body.String()
		if !strings.Contains(center, `data-testid="tc-result-`+id+`" data-status="pending"`) ||
			!strings.Contains(center, `href="/paying/buyreport/BDEPS-2001`+q) {
			t.Fatalf("the unpaid screen in the test centre: %.3000s", between(center, `data-testid="tc-test-2001"`, "</section>"))
		}
		b.Expect("/userCenter/exploreMore/testCenter/list", http.StatusOK, `data-testid="tc-result-`+id+`" data-status="pending"`, "Pending payment",
			"Depression screen (PHQ-9)")

		// The product page sells the screen's report in its own words, not the 16-type's.
		buy := b.Expect("/paying/buyreport/BDEPS-2001"+q, http.StatusOK, "$4.99", "Your result: ", "A two-week self-care plan").Body.String()
		if strings.Contains(buy, "facets") || strings.Contains(buy, "Your type is") {
			t.Errorf("the screen's product page describes the 16-type report: %.2000s", between(buy, `data-testid="buy"`, "</ul>"))
		}
		if rec := b.PostJSON("/pay/pay/order/create", token, map[string]any{"orderNumber": order, "skuId": "mbti-report", "email": u.Email}); rec.Code == http.StatusOK {
			t.Fatalf("the 16-type report was sold for a depression screen: %s", rec.Body.String())
		}
		b.ConfirmCard(token, b.StartPayment("/pay/pay/order/create", token, order, "deps-report"))
		if o := b.userOrders()[order]; o.Status != "paid" || !o.ReportOpen {
			t.Fatalf("the paid screen's order: %+v", o)
		}

		center = b.Expect("/userCenter/exploreMore/testCenter", http.StatusOK).Body.String()
		if !strings.Contains(center, `data-testid="tc-result-`+id+`" data-status="completed"`) ||
			!strings.Contains(center, `href="/report/result/BDEPS-2001`+q) {
			t.Fatalf("the paid screen in the test centre: %.3000s", between(center, `data-testid="tc-test-2001"`, "</section>"))
		}
		b.Expect("/userCenter/exploreMore/testCenter/list", http.StatusOK, `data-status="completed"`, "Completed")
		// A screen sells no packs: after paying, the buyer goes to the report.
		if rec := b.Get("/paying/package/BDEPS-2001" + q); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/report/result/BDEPS-2001"+q {
			t.Errorf("the upsell after a paid screen: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		// The report list names it by its screen and band, with no type page to share.
		if reports := b.Get("/userCenter/reportList").Body.String(); !strings.Contains(reports, "PHQ") || strings.Contains(between(reports, "report-"+id, "</div>"), "report-share") {
			t.Errorf("the report list's entry of the screen: %.2000s", between(reports, "report-"+id, "</div>"))
		}

		other := k.VerifiedUser(t, "other@example.com")
		o := newBrowser(t, k.Handler)
		o.Login(other.Email, apptest.Password)
		list := o.Expect("/userCenter/exploreMore/testCenter/list", http.StatusOK, `data-testid="tc-empty"`).Body.String()
		if strings.Contains(list, id) {
			t.Error("another member sees the result")
		}
		if rec := newBrowser(t, k.Handler).Get("/userCenter/exploreMore/testCenter"); rec.Code != http.StatusSeeOther {
			t.Errorf("the test centre without an account: %d", rec.Code)
		}
	})
}

// Premium opens a depression screen's report without paying, and Basic's
// free report of the period opens a general well-being test's: the plans
// count every exam, not only the 16-type test.
func TestPlansOpenEveryExamsReport(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		for _, tc := range []struct {
			plan string
			exam int
			pair string
		}{
			{"premium-monthly", 2001, "BDEPS-2001"},
			{"basic-weekly", 2002, "BYDGX-2002"},
		} {
			u := k.VerifiedUser(t, tc.plan+"@example.com")
			b := newBrowser(t, k.Handler)
			if rec := b.Login(u.Email, apptest.Password); rec.Code != http.StatusSeeOther {
				t.Fatalf("login: %d", rec.Code)
			}
			id, _ := b.submitExam(t, b.CSRFToken("/"), tc.exam)
			k.ActiveSubscription(t, u.ID, tc.plan)
			if tc.plan == "basic-weekly" {
				b.Expect("/userCenter/exploreMore/testCenter", http.StatusOK, `data-testid="tc-result-`+id+`" data-status="pending"`)
				rec := b.Submit("/userCenter/reportList?tab=pending", "/userCenter/reportList/unlock", url.Values{"r": {id}})
				if rec.Code != http.StatusSeeOther {
					t.Fatalf("%s: free report: %d %s", tc.plan, rec.Code, rec.Body.String())
				}
			}
			b.Expect("/userCenter/exploreMore/testCenter", http.StatusOK, `data-testid="tc-result-`+id+`" data-status="completed"`,
				`href="/report/result/`+tc.pair+"?r="+url.QueryEscape(id))
		}
	})
}
