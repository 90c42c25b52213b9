package handlers_test

import (
	"encoding/json"
	"strings"
	"testing"

	"selfmap/app/apptest"
)

// submitted posts a complete answer set and returns its result and order.
func (b *browser) submitted(token string, seconds int) (resultID, order string) {
	b.T.Helper()
	body := apptest.Submission(b.T, func(i int) int { return i%5 + 1 })
	body["durationSeconds"] = seconds
	rec := b.PostJSON("/api/exam/order/info", token, body)
	var sub struct {
		Data struct{ ResultID, OrderNumber string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &sub); err != nil || sub.Data.ResultID == "" {
		b.T.Fatalf("submission: %d %s", rec.Code, rec.Body.String())
	}
	return sub.Data.ResultID, sub.Data.OrderNumber
}

// The report says what its numbers rest on: the comparison group in words
// with its mean and standard deviation, the lean as a lean toward the pole
// it shows, and shares of results only above a minimum sample, the count
// stated. A test answered in under two minutes says it may be less reliable,
// on the free result and in the report.
func TestReportShowsWhatItsNumbersRestOn(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, b := k.Store, newBrowser(t, k.Handler)
		token := b.CSRFToken("/")
		result, _ := b.PaidReport(token)
		dims := b.Get("/report/result/BMBTI-1807?tab=dimensions&r=" + result).Body.String()
		for _, want := range []string{
			"compared with women and men of all ages", // no sex or age given: the pooled norm, in words
			`data-testid="norm-line"`, "Comparison group: mean ", "standard deviation ",
			"Lean ", " of 5 toward ",
			"Too few results yet to rank your scores: we need 200, and there are 1.",
		} {
			if !strings.Contains(dims, want) {
				t.Errorf("the report's scores lack %q", want)
			}
		}
		for _, unwanted := range []string{"pooled", "Level 1 of 5", "very low"} {
			if strings.Contains(dims, unwanted) {
				t.Errorf("the report's scores still show %q", unwanted)
			}
		}
		overview := b.Get("/report/result/BMBTI-1807?r=" + result).Body.String()
		if !strings.Contains(overview, "Too few results yet (1 of the 200 needed)") || strings.Contains(overview, "6.3%") {
			t.Errorf("type shares with one result: %s", between(overview, `data-testid="population"`, "</dl>"))
		}
		if strings.Contains(overview, `data-testid="fast-note"`) || strings.Contains(overview, `data-testid="report-demo"`) {
			t.Error("a 700-second test is flagged as fast, or real figures as demo")
		}

		fast, _ := b.submitted(token, 95)
		if _, err := s.DB.Exec(s.DB.Rebind(`UPDATE results SET email = ? WHERE id = ?`), "kim@example.com", fast); err != nil {
			t.Fatal(err)
		}
		free := b.Get("/report/result-free-test/BMBTI-1807?r=" + fast).Body.String()
		if !strings.Contains(free, `data-testid="fast-note"`) || !strings.Contains(free, "under two minutes") {
			t.Errorf("a 95-second test: the free result has no note")
		}
		slow, _ := b.submitted(token, 700)
		if _, err := s.DB.Exec(s.DB.Rebind(`UPDATE results SET email = ? WHERE id = ?`), "kim@example.com", slow); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.Get("/report/result-free-test/BMBTI-1807?r="+slow).Body.String(), `data-testid="fast-note"`) {
			t.Error("a 700-second test has the fast note")
		}

		// Demo data, once marked, is labelled wherever its figures show.
		if err := s.MarkDemo(t.Context(), s.DB, "seed", 1, k.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		// A new server: the figures' caches load afresh.
		e2 := apptest.New(t, s, apptest.WithClock(k.Clock)).Handler
		b2 := newBrowser(t, e2)
		if err := s.AddReportLink(t.Context(), s.DB, result, "demo-link-token", k.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		if page := b2.Get("/report/result/BMBTI-1807?t=demo-link-token").Body.String(); !strings.Contains(page, `data-testid="report-demo"`) {
			t.Errorf("the report's shares do not say they include demo data: %.300s", between(page, `data-testid="population"`, "</section>"))
		}
		unpaid, _ := b2.submitted(b2.CSRFToken("/"), 700)
		if !strings.Contains(b2.Get("/paying/buyreport/BMBTI-1807?r="+unpaid).Body.String(), `data-testid="buy-demo"`) {
			t.Error("the product page's counts do not say they include demo data")
		}
		home := scenario{url: "/", status: 200, contains: []string{`data-testid="counters-demo"`}}.run(t, e2).Body.String()
		if strings.Contains(home, `data-testid="activity"`) != strings.Contains(home, `data-testid="activity-demo"`) {
			t.Error("demo activity notices are shown without their demo label")
		}
	})
}

// between returns the part of s from the first from to the next to.
func between(s, from, to string) string {
	_, rest, _ := strings.Cut(s, from)
	part, _, _ := strings.Cut(rest, to)
	return part
}

// The card form asks for a postal code only where addresses have one: a
// buyer in Hong Kong is neither shown the field nor refused without it; a
// buyer elsewhere still must give one.
func TestPostalCodeByCountry(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, b := k.Store, newBrowser(t, k.Handler)
		token := b.CSRFToken("/zh-hk/")
		card := func(attempt, postal string) *strings.Builder {
			rec := b.PostJSON("/pay/sandbox/confirm?hl=HK", token, map[string]any{"attemptId": attempt, "number": "4242424242424242",
				"expMonth": 12, "expYear": 2030, "cvc": "123", "name": "Chan", "postalCode": postal})
			out := &strings.Builder{}
			out.WriteString(rec.Body.String())
			if rec.Code != 200 && rec.Code != 400 {
				t.Fatalf("confirm: %d %s", rec.Code, rec.Body.String())
			}
			return out
		}

		hk, hkOrder := b.submitted(token, 700)
		if _, err := s.DB.Exec(s.DB.Rebind(`UPDATE results SET country = 'HK', email = 'chan@example.com' WHERE id = ?`), hk); err != nil {
			t.Fatal(err)
		}
		page := b.Get("/zh-hk/paying/payment/BMBTI-1807?r=" + hk).Body.String()
		if strings.Contains(page, `data-testid="card-postal"`) || !strings.Contains(page, `"postal":false`) || !strings.Contains(page, "HK$") {
			t.Errorf("the Hong Kong payment page asks for a postal code or is not in HK$: %s", between(page, `data-testid="order-summary"`, "</dl>"))
		}
		if got := card(b.StartPayment("/pay/pay/order/create", token, hkOrder, "mbti-report"), "").String(); !strings.Contains(got, `"status":"succeeded"`) {
			t.Errorf("a Hong Kong card without a postal code: %s", got)
		}

		us, usOrder := b.submitted(token, 700)
		if _, err := s.DB.Exec(s.DB.Rebind(`UPDATE results SET country = 'US', email = 'kim@example.com' WHERE id = ?`), us); err != nil {
			t.Fatal(err)
		}
		if page := b.Get("/paying/payment/BMBTI-1807?r=" + us).Body.String(); !strings.Contains(page, `data-testid="card-postal"`) {
			t.Error("the US payment page has no postal code field")
		}
		attempt := b.StartPayment("/pay/pay/order/create", token, usOrder, "mbti-report")
		if got := card(attempt, "").String(); !strings.Contains(got, `"result":400`) || !strings.Contains(got, "此欄必須填寫") {
			t.Errorf("a US card without a postal code: %s", got)
		}
		if got := card(attempt, "10115").String(); !strings.Contains(got, `"status":"succeeded"`) {
			t.Errorf("a US card with a postal code: %s", got)
		}
	})
}

// The funnel keeps the landing page's theme; /types and /tests without a
// pair and /en/ paths lead where they should.
func TestFunnelPaths(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		landing := scenario{url: "/landing/relax/BMBTI-1807", status: 200, contains: []string{`href="/answer/question/BMBTI-1807?theme=relax"`}}.run(t, e)
		_ = landing
		rec := scenario{url: "/answer/question/BMBTI-1807?theme=relax&gclid=g1&t=secret", status: 200, contains: []string{`data-theme="relax"`}}.run(t, e)
		props := between(rec.Body.String(), `"submittedUrl":"`, `"`)
		if !strings.HasPrefix(props, "/answer/submit/BMBTI-1807?gclid=g1") || !strings.Contains(props, "theme=relax") || strings.Contains(props, "secret") {
			t.Errorf("the quiz sends the visitor on to %q: it must keep the kept parameters and nothing else", props)
		}
		scenario{url: "/answer/question/BMBTI-1807?theme=admin", status: 200, contains: []string{`data-theme="home"`}}.run(t, e)
		scenario{url: "/answer/question/BMBTI-1807?theme=young", headers: map[string]string{"Host": "relax.example"}, status: 200,
			contains: []string{`data-theme="relax"`}}.run(t, e)
		scenario{url: "/types", status: 301, location: "/types/BMBTI-1807"}.run(t, e)
		scenario{url: "/fr/tests?gclid=1", status: 301, location: "/fr/tests/BMBTI-1807?gclid=1"}.run(t, e)
		scenario{url: "/en/landing/relax/BMBTI-1807?gclid=1", status: 301, location: "/landing/relax/BMBTI-1807?gclid=1&hl=EN"}.run(t, e)
		scenario{url: "/en", status: 301, location: "/?hl=EN"}.run(t, e)
		scenario{url: "/enterprise", status: 404}.run(t, e)
	})
}
