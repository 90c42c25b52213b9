package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"selfmap/app/apptest"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

func countRows(t *testing.T, s *store.Store, table string) int {
	t.Helper()
	var n int
	if err := s.DB.Get(&n, `SELECT COUNT(*) FROM `+table); err != nil {
		t.Fatal(err)
	}
	return n
}

// The whole flow after the question pages: submit the answers, see the
// submitted screen, give an e-mail (a wrong one first), give details (an
// incomplete form first), and read the free result; another browser sees
// none of it.
func TestAnswerFlow(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, b := k.Store, newBrowser(t, k.Handler)
		token := b.CSRFToken("/ko/")

		// Bad submissions answer 400 in the visitor's language and store nothing.
		bad := apptest.Submission(t, func(int) int { return 3 })
		bad["answers"] = bad["answers"].([]map[string]any)[:119]
		rec := b.PostJSON("/api/exam/order/info?hl=KR", token, bad)
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), `"result":400`) || !strings.Contains(rec.Body.String(), "120") {
			t.Fatalf("incomplete submission: %d %s", rec.Code, rec.Body.String())
		}
		bad = apptest.Submission(t, func(int) int { return 3 })
		bad["answers"].([]map[string]any)[0]["value"] = 9
		if rec := b.PostJSON("/api/exam/order/info", token, bad); rec.Code != 400 {
			t.Fatalf("value 9: %d %s", rec.Code, rec.Body.String())
		}
		if rec := b.PostJSON("/api/exam/order/info", "forged", apptest.Submission(t, func(int) int { return 3 })); rec.Code != 403 {
			t.Fatalf("forged token: %d", rec.Code)
		}
		if n := countRows(t, s, "results"); n != 0 {
			t.Fatalf("bad submissions stored %d results", n)
		}

		// A good one: extraverted, open, agreeable, conscientious, calm answers.
		rec = b.PostJSON("/api/exam/order/info?hl=KR", token, apptest.Submission(t, func(i int) int { return 4 }))
		if rec.Code != 200 {
			t.Fatalf("submission: %d %s", rec.Code, rec.Body.String())
		}
		var env struct {
			Data struct{ ResultID, OrderNumber, Type string }
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
			t.Fatal(err)
		}
		id := env.Data.ResultID
		if len(id) != 26 || !strings.HasPrefix(env.Data.OrderNumber, "SM") || len(env.Data.Type) != 6 {
			t.Fatalf("submission answered %+v", env.Data)
		}

		page := b.Get("/ko/answer/submit/BMBTI-1807")
		if page.Code != 200 || !strings.Contains(page.Body.String(), `data-testid="get-report"`) || !strings.Contains(page.Body.String(), "/ko/answer/email/BMBTI-1807?r="+id) {
			t.Fatalf("submitted screen: %d %.300s", page.Code, page.Body.String())
		}

		emailURL := "/ko/answer/email/BMBTI-1807?r=" + id
		page = b.Get(emailURL)
		form := url.Values{"_csrf": {csrfField.FindStringSubmatch(page.Body.String())[1]}, "step": {"email"}, "email": {"not-an-address"}}
		rec = b.PostForm(emailURL, form)
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `data-testid="email-error"`) ||
			!strings.Contains(rec.Body.String(), `value="not-an-address"`) {
			t.Fatalf("bad e-mail: %d", rec.Code)
		}
		form.Set("email", "ana@example.com")
		if rec := b.PostForm(emailURL, form); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != emailURL {
			t.Fatalf("good e-mail: %d %s", rec.Code, rec.Header().Get("Location"))
		}

		page = b.Get(emailURL)
		if !strings.Contains(page.Body.String(), `data-testid="details-form"`) {
			t.Fatal("no details form after the e-mail")
		}
		details := url.Values{"_csrf": form["_csrf"], "step": {"details"}, "firstName": {"Ana"}, "lastName": {""}, "birthYear": {"1890"}, "gender": {"female"}, "country": {"KR"}}
		rec = b.PostForm(emailURL, details)
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), `data-testid="lastName-error"`) ||
			!strings.Contains(rec.Body.String(), `value="Ana"`) || !strings.Contains(rec.Body.String(), `birthYear-error`) {
			t.Fatalf("incomplete details: %d", rec.Code)
		}
		details.Set("lastName", "Kim")
		details.Set("birthYear", "1995")
		if rec := b.PostForm(emailURL, details); rec.Code != http.StatusSeeOther {
			t.Fatalf("details: %d", rec.Code)
		}
		stored, err := s.GetResult(t.Context(), s.DB, id)
		if err != nil || stored.Email.String != "ana@example.com" || stored.Gender.String != "female" || !strings.HasPrefix(stored.NormGroup, "F ") {
			t.Fatalf("stored result %+v, %v", stored, err)
		}

		rec = b.Get(emailURL)
		if rec.Code != http.StatusSeeOther || !strings.Contains(rec.Header().Get("Location"), "/ko/report/result-free-test/BMBTI-1807?r="+id) {
			t.Fatalf("e-mail step after details: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		free := b.Do(httptest.NewRequest("GET", rec.Header().Get("Location"), nil)).Body.String()
		for _, want := range []string{`data-testid="type-code">` + stored.ResultCode, `data-testid="dimension-bars"`, `data-testid="unlock"`, `<html lang="ko">`} {
			if !strings.Contains(free, want) {
				t.Errorf("free result lacks %q", want)
			}
		}
		if strings.Contains(free, "type.") || strings.Contains(free, "domain.") {
			t.Error("free result shows a message id instead of text")
		}

		// Another browser: the same links answer like missing pages.
		other := newBrowser(t, b.Handler)
		for _, path := range []string{"/report/result-free-test/BMBTI-1807?r=" + id, emailURL, "/report/result-free-test/BMBTI-1807?r=nope"} {
			if rec := other.Get(path); rec.Code != 404 {
				t.Errorf("a stranger opening %s: %d", path, rec.Code)
			}
		}
		if rec := other.Get("/answer/submit/BMBTI-1807"); rec.Code != http.StatusSeeOther ||
			rec.Header().Get("Location") != "/answer/question/BMBTI-1807" {
			t.Errorf("submitted screen without answers: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		otherToken := other.CSRFToken("/")
		if rec := other.PostJSON("/api/exam/order/update/email", otherToken, map[string]string{"orderNumber": env.Data.OrderNumber, "email": "x@example.com"}); rec.Code != 404 {
			t.Errorf("a stranger changing the e-mail: %d", rec.Code)
		}
		if rec := b.PostJSON("/api/exam/order/update/email", token, map[string]string{"orderNumber": env.Data.OrderNumber, "email": "new@example.org"}); rec.Code != 200 {
			t.Errorf("the owner changing the e-mail: %d %s", rec.Code, rec.Body.String())
		}
	})
}

func TestExamAPI(t *testing.T) {
	e := apptest.New(t, storetest.SQLite(t)).Handler
	for _, sc := range []scenario{
		{url: "/api/exam/question/list/1807/JA", status: 200, contains: []string{`"lang":"JA"`, `"pageSize":5`, `"version":"ipip-neo-120@6.0.13/1"`}},
		{url: "/api/exam/question/list/1807/zh-HK", status: 200, contains: []string{`"lang":"HK"`}},
		{url: "/api/exam/question/list/1807/XX", status: 400},
		{url: "/api/exam/question/list/42/EN", status: 404},
		{url: "/api/exam/info/1807?hl=DE", status: 200, contains: []string{`"questions":120`, `"parts":3`, `"report":"MBTI"`}},
		{url: "/api/exam/category/list", status: 200, contains: []string{`"category":"personality"`, `"id":1807`}},
	} {
		rec := sc.run(t, e)
		if sc.status == 200 {
			var env struct {
				Data struct{ Questions []struct{ ID, Text string } }
			}
			json.Unmarshal(rec.Body.Bytes(), &env) //nolint:errcheck // only some calls have questions
			for _, q := range env.Data.Questions {
				if q.ID == "" || q.Text == "" {
					t.Fatalf("%s: empty question %+v", sc.url, q)
				}
			}
		}
	}
}

func TestCatalogueAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		for _, sc := range []scenario{
			// No price was ever paid above today's, so no reference price.
			{url: "/api/exam/sku/list/1807/KR/KR", status: 200, contains: []string{`"skuId":"mbti-report"`, `"currency":"KRW"`, `"amount":1300000`},
				notContain: []string{`"listAmount"`}},
			{url: "/api/exam/sku/package/list/BMBTI?country=HK", status: 200, contains: []string{`"currency":"HKD"`}, notContain: []string{`"currency":"USD"`}},
			{url: "/api/exam/sku/list/1807/US/EN", status: 200, contains: []string{`"currency":"USD"`, `"amount":999`, `"name":"Your full 16-type report"`}},
			{url: "/api/exam/sku/list/1807/XX/EN", status: 400},
			{url: "/api/exam/sku/list/1807/US/XX", status: 400},
			{url: "/api/exam/sku/list/9/US/EN", status: 404},
			{url: "/api/exam/sku/info/1807/mbti-report/JP/JA", status: 200, contains: []string{`"currency":"JPY"`, `"amount":150000`}},
			{url: "/api/exam/sku/info/1807/nope/JP/JA", status: 404, contains: []string{`"result":404`}},
			{url: "/api/exam/sku/package/list/BMBTI?country=DE", status: 200, contains: []string{`"step":"add_packs"`, `"currency":"EUR"`}},
			{url: "/api/exam/sku/package/list/NOPE", status: 404},
			{url: "/api/app/payment/list/1807/US", status: 200, contains: []string{`"code":"card"`, `"provider":"sandbox"`}},
			{url: "/api/exam/order/country/list?hl=DE", status: 200, contains: []string{`"country":"JP","currency":"JPY","name":"Japan"`, `"name":"Südkorea"`}},
		} {
			sc.run(t, e)
		}
	})
}
