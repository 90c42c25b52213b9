package handlers_test

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"selfmap/app/apptest"
)

// The upsell steps: they open only after a paid report, route to the
// buyer's own steps, sell each pack once at the server's price, say so when
// a pack is bought, and unlock its sections on the report; a stranger sees
// none of it.
func TestPackageSteps(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b := newBrowser(t, k.Handler)
		token := b.CSRFToken("/de/")
		base := "/de/paying/package/BMBTI-1807?r="

		// Before the report is paid, the steps send to the product page.
		rec := b.PostJSON("/api/exam/order/info", token, apptest.Submission(t, func(i int) int { return 3 }))
		var unpaid struct{ Data struct{ ResultID string } }
		json.Unmarshal(rec.Body.Bytes(), &unpaid) //nolint:errcheck // checked by the redirect below
		if rec := b.Get(base + unpaid.Data.ResultID); rec.Code != 303 || !strings.Contains(rec.Header().Get("Location"), "/paying/buyreport/") {
			t.Fatalf("steps before paying: %d %s", rec.Code, rec.Header().Get("Location"))
		}

		result, order := b.PaidReport(token)
		for _, step := range []string{"", "skip_trial", "nonsense"} {
			rec := b.Get(base + result + "&step=" + step)
			if rec.Code != 303 || !strings.HasSuffix(rec.Header().Get("Location"), "&step=add_packs") {
				t.Errorf("step %q: %d %s; want the buyer's first step", step, rec.Code, rec.Header().Get("Location"))
			}
		}
		page := b.Get(base + result + "&step=add_packs").Body.String()
		for _, want := range []string{`data-step="add_packs"`, "Schritt 1 von 4", "4.99", `id="exit-props"`, `data-island="exit"`,
			"/pay/pay/order/payPackage", `data-testid="package-skip"`} {
			if !strings.Contains(page, want) {
				t.Errorf("add_packs step lacks %q", want)
			}
		}

		list := b.Get("/api/exam/extra/package/list/" + order).Body.String()
		if strings.Count(list, `"purchased":false`) != 3 || !strings.Contains(list, `"step":"add_packs"`) {
			t.Fatalf("package list before buying: %s", list)
		}

		// The pack is priced by the server, whatever the request says.
		attempt := b.StartPayment("/pay/pay/order/payPackage?hl=DE", token, order, "mbti-pack-relationships")
		info := b.PostJSON("/pay/pay/check/payInfo", token, map[string]string{"orderNumber": order}).Body.String()
		if strings.Contains(info, attempt) {
			t.Errorf("the pack's attempt was made on the report's order: %s", info)
		}
		b.ConfirmCard(token, attempt)

		rec = b.Get(base + result + "&step=add_packs&after=pay")
		if body := rec.Body.String(); !strings.Contains(body, `data-testid="package-added"`) ||
			!strings.Contains(body, `content="3; url=/de/paying/package/BMBTI-1807?r=`+result+`&amp;step=depth_content"`) {
			t.Errorf("after paying, the step does not move on to depth_content in 3 s: %s", body)
		}
		if body := b.Get(base + result + "&step=add_packs").Body.String(); !strings.Contains(body, "bereits gekauft") ||
			!strings.Contains(body, `data-testid="package-owned"`) {
			t.Errorf("a bought pack's step does not say so")
		}
		list = b.Get("/api/exam/extra/package/list/" + order).Body.String()
		if strings.Count(list, `"purchased":true`) != 1 || !strings.Contains(list, `"status":"paid"`) {
			t.Errorf("package list after buying: %s", list)
		}
		if rec := b.PostJSON("/pay/pay/order/payPackage", token, map[string]string{"orderNumber": order, "skuId": "mbti-pack-relationships"}); rec.Code != 400 {
			t.Errorf("buying the pack again: %d %s", rec.Code, rec.Body.String())
		}

		// A pack is not a report: its order has no package list.
		var packOrder string
		for _, m := range regexp.MustCompile(`"orderNumber":"(SM[^"]+)"`).FindAllStringSubmatch(list, -1) {
			if m[1] != order {
				packOrder = m[1]
			}
		}
		if rec := b.Get("/api/exam/extra/package/list/" + packOrder); packOrder == "" || rec.Code != 404 {
			t.Errorf("package list of the pack's own order %q: %d", packOrder, rec.Code)
		}

		// A pack's 3-D Secure step returns to the pack's own step.
		attempt = b.StartPayment("/pay/pay/order/payPackage", token, order, "mbti-pack-career")
		rec = b.PostJSON("/pay/sandbox/confirm", token, map[string]any{"attemptId": attempt, "number": "4000002760003184",
			"expMonth": 12, "expYear": 2030, "cvc": "123", "name": "Kim", "postalCode": "10115"})
		if !strings.Contains(rec.Body.String(), `"status":"requires_action"`) {
			t.Fatalf("3-D Secure card: %s", rec.Body.String())
		}
		rec = b.PostForm("/de/pay/sandbox/3ds/"+attempt, url.Values{"_csrf": {token}, "action": {"complete"}})
		if loc := rec.Header().Get("Location"); rec.Code != 303 || !strings.Contains(loc, "/de/paying/package/") || !strings.HasSuffix(loc, "&step=depth_content&after=pay") {
			t.Errorf("after 3-D Secure: %d %s", rec.Code, loc)
		}

		last := b.Get(base + result + "&step=access_product").Body.String()
		if !strings.Contains(last, `data-testid="package-access"`) || strings.Contains(last, `data-island="exit"`) {
			t.Errorf("the last step: %s", last)
		}
		report := b.Get("/de/report/result/BMBTI-1807?r=" + result).Body.String()
		if strings.Count(report, `data-testid="pack-content"`) != 2 || !strings.Contains(report, `data-testid="see-packs"`) {
			t.Errorf("the report does not show the bought pack and the way to the others")
		}

		other := newBrowser(t, b.Handler)
		otherToken := other.CSRFToken("/")
		if rec := other.Get("/api/exam/extra/package/list/" + order); rec.Code != 404 {
			t.Errorf("a stranger's package list: %d", rec.Code)
		}
		if rec := other.Get(base + result + "&step=add_packs"); rec.Code != 404 {
			t.Errorf("a stranger's package step: %d", rec.Code)
		}
		if rec := other.PostJSON("/pay/pay/order/payPackage", otherToken, map[string]string{"orderNumber": order, "skuId": "mbti-pack-career"}); rec.Code != 404 {
			t.Errorf("a stranger buying a pack: %d", rec.Code)
		}
	})
}

// A checkout screen for a result this browser cannot act on says the
// session expired and offers to start over, the same for an unknown and a
// foreign result; the pay page without a chosen method sends back to choose.
func TestCheckoutSessionExpiredAndMissingMethod(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b := newBrowser(t, k.Handler)
		token := b.CSRFToken("/")
		rec := b.PostJSON("/api/exam/order/info", token, apptest.Submission(t, func(i int) int { return 2 }))
		var sub struct{ Data struct{ ResultID string } }
		json.Unmarshal(rec.Body.Bytes(), &sub) //nolint:errcheck // checked below
		stranger := newBrowser(t, b.Handler)
		stranger.CSRFToken("/")
		var bodies []string
		for _, r := range []string{sub.Data.ResultID, "aaaaaaaaaaaaaaaaaaaaaaaaaa"} {
			for _, screen := range []string{"buyreport", "payment", "check", "package"} {
				rec := stranger.Get("/paying/" + screen + "/BMBTI-1807?r=" + r)
				if rec.Code != 404 || !strings.Contains(rec.Body.String(), `data-testid="pay-expired-action"`) {
					t.Errorf("%s for a result not this browser's: %d", screen, rec.Code)
				}
			}
			bodies = append(bodies, stranger.Get("/paying/payment/BMBTI-1807?r="+r).Body.String())
		}
		strip := func(s string) string { return nonce.ReplaceAllString(csrf.ReplaceAllString(s, ""), "") }
		if strip(bodies[0]) != strip(bodies[1]) {
			a, b := strip(bodies[0]), strip(bodies[1])
			for i := range a {
				if i >= len(b) || a[i] != b[i] {
					t.Logf("differ at %d: %q vs %q", i, a[max(0, i-80):min(len(a), i+80)], b[max(0, i-80):min(len(b), i+80)])
					break
				}
			}
			t.Error("a foreign result's screen differs from an unknown one's")
		}

		rec = b.Get("/paying/paypage/BMBTI-1807?r=" + sub.Data.ResultID)
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), `data-testid="pay-method-action"`) ||
			!strings.Contains(rec.Body.String(), "/paying/payment/BMBTI-1807?r="+sub.Data.ResultID) {
			t.Errorf("pay page without a method: %d", rec.Code)
		}
		if rec := b.Get("/paying/paypage/BMBTI-1807?method=card&r=" + sub.Data.ResultID); rec.Code != 200 || !strings.Contains(rec.Body.String(), `id="checkout-island"`) {
			t.Errorf("pay page with the card method: %d", rec.Code)
		}
	})
}

var (
	nonce = regexp.MustCompile(`nonce="[^"]+"`)
	csrf  = regexp.MustCompile(`"csrf":"[^"]+"|name="_csrf" value="[^"]+"|r=[a-z0-9]{26}`)
)
