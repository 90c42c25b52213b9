package handlers_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
	"selfmap/internal/store"
)

// takeTest submits a test in a browser of its own and returns the browser,
// its CSRF token and the report's order number.
func takeTest(t *testing.T, b *browser) (string, string) {
	t.Helper()
	token := b.CSRFToken("/de/")
	rec := b.PostJSON("/api/exam/order/info", token, apptest.Submission(t, func(i int) int { return i%5 + 1 }))
	var sub struct{ Data struct{ OrderNumber string } }
	if err := json.Unmarshal(rec.Body.Bytes(), &sub); err != nil || sub.Data.OrderNumber == "" {
		t.Fatalf("submission: %s", rec.Body.String())
	}
	return token, sub.Data.OrderNumber
}

func payWithPromo(b *browser, path, token, order, sku, promo string) (int, string, string) {
	b.T.Helper()
	rec := b.PostJSON(path+"?hl=DE", token, map[string]any{"orderNumber": order, "skuId": sku, "email": "kim@example.com", "promoCode": promo})
	var created struct {
		Data struct {
			AttemptID string
			Total     int64
		}
	}
	json.Unmarshal(rec.Body.Bytes(), &created) //nolint:errcheck // the caller checks the status and body
	return rec.Code, created.Data.AttemptID, rec.Body.String()
}

// savePromo stores a code, valid from an hour before the kit's time unless
// it says otherwise.
func savePromo(t *testing.T, k *apptest.Kit, p store.Promo) {
	t.Helper()
	if p.ValidFrom.IsZero() {
		p.ValidFrom = k.Clock.Now().UTC().Add(-time.Hour)
	}
	if p.Kind == "" {
		p.Kind = "percent"
	}
	if err := k.Store.SavePromo(context.Background(), k.Store.DB, p); err != nil {
		t.Fatal(err)
	}
}

// Issue 14, as the outside test ran it through the API: a code with one
// use left goes to one of three payments; the others are told, in the
// buyer's language, that it is used up.
func TestPromoWithOneUseLeftThroughTheAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, e := k.Store, k.Handler
		savePromo(t, k, store.Promo{Code: "LAST", Value: 50, MaxUses: sql.NullInt64{Int64: 3, Valid: true}, Uses: 2})
		var attempts []string
		var holder *browser
		var holderToken string
		for range 3 {
			b := newBrowser(t, e)
			token, order := takeTest(t, b)
			code, attempt, body := payWithPromo(b, "/pay/pay/order/create", token, order, "mbti-report", "last")
			switch {
			case code == 200 && holder == nil:
				holder, holderToken = b, token
				attempts = append(attempts, attempt)
			case code != 400 || !strings.Contains(body, "aufgebraucht"):
				t.Fatalf("payment with a code whose last use is held: %d %s", code, body)
			}
		}
		holder.ConfirmCard(holderToken, attempts[0])
		if p, _ := s.GetPromo(context.Background(), s.DB, "LAST"); p.Uses != 3 {
			t.Errorf("uses %d; want 3", p.Uses)
		}
	}, apptest.WithEnv(map[string]string{"RATE_LIMIT_SCALE": "100"}))
}

// Issue 14, through the API: a 100% code neither starts nor pays a pack,
// whether sent with the pack's own order or with the pack's purchase.
func TestPromoOnAPackThroughTheAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s := k.Store
		savePromo(t, k, store.Promo{Code: "FREE", Value: 100})
		b := newBrowser(t, k.Handler)
		token := b.CSRFToken("/de/")
		_, report := b.PaidReport(token)
		rec := b.PostJSON("/pay/pay/order/payPackage", token, map[string]any{"orderNumber": report, "skuId": "mbti-pack-career"})
		var pack struct{ Data struct{ OrderNumber string } }
		if err := json.Unmarshal(rec.Body.Bytes(), &pack); err != nil || rec.Code != 200 {
			t.Fatalf("pack: %d %s", rec.Code, rec.Body.String())
		}
		if code, _, body := payWithPromo(b, "/pay/pay/order/create", token, pack.Data.OrderNumber, "mbti-pack-career", "FREE"); code != 400 || !strings.Contains(body, "Pakete") {
			t.Fatalf("a 100%% code on the pack's order: %d %s", code, body)
		}
		if code, _, body := payWithPromo(b, "/pay/pay/order/payPackage", token, report, "mbti-pack-growth", "FREE"); code != 400 || !strings.Contains(body, "Pakete") {
			t.Fatalf("a pack bought with a 100%% code: %d %s", code, body)
		}
		if n := countRows(t, s, "payment_attempts WHERE amount = 0"); n != 0 {
			t.Fatalf("%d payments of 0 started", n)
		}
	}, apptest.WithEnv(map[string]string{"RATE_LIMIT_SCALE": "100"}))
}

// Issue 14: a payment started before its code ended was paid after it at
// the code's price. The sandbox's confirm checks the price again first: no
// card is charged, the order is payable again, and paying again is at the
// full price.
func TestPromoEndedBeforeTheCardIsTakenChargesNothing(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, b := k.Store, newBrowser(t, k.Handler)
		savePromo(t, k, store.Promo{Code: "SOON", Value: 50, ValidUntil: sql.NullTime{Time: k.Clock.Now().UTC().Add(time.Hour), Valid: true}})
		token, order := takeTest(t, b)
		code, attempt, body := payWithPromo(b, "/pay/pay/order/create", token, order, "mbti-report", "SOON")
		if code != 200 {
			t.Fatalf("create: %d %s", code, body)
		}
		// The code ends before the buyer has typed the card.
		savePromo(t, k, store.Promo{Code: "SOON", Value: 50, ValidUntil: sql.NullTime{Time: k.Clock.Now().UTC().Add(-time.Second), Valid: true}})
		rec := b.PostJSON("/pay/sandbox/confirm?hl=DE", token, map[string]any{"attemptId": attempt, "number": "4242424242424242",
			"expMonth": 12, "expYear": 2030, "cvc": "123", "name": "Kim", "postalCode": "10115"})
		if rec.Code != 400 || !strings.Contains(rec.Body.String(), "Rabattpreis") {
			t.Fatalf("confirm after the code ended: %d %s", rec.Code, rec.Body.String())
		}
		if n := countRows(t, s, "sandbox_payments WHERE state = 'succeeded'"); n != 0 {
			t.Fatalf("%d cards charged", n)
		}
		if rec := b.PostJSON("/pay/pay/check/status", token, map[string]string{"orderNumber": order}); !strings.Contains(rec.Body.String(), `"status":"failed"`) {
			t.Fatalf("order after the closed payment: %s", rec.Body.String())
		}
		if code, _, body := payWithPromo(b, "/pay/pay/order/create", token, order, "mbti-report", "SOON"); code != 400 || !strings.Contains(body, "abgelaufen") {
			t.Fatalf("the ended code again: %d %s", code, body)
		}
		b.ConfirmCard(token, b.StartPayment("/pay/pay/order/create", token, order, "mbti-report"))
		o, err := s.GetOrderByNumber(context.Background(), s.DB, order)
		if err != nil || o.Status != "paid" || o.Total != 999 || o.PromoCode.Valid {
			t.Fatalf("order %+v (%v); want paid at the full price", o, err)
		}
	}, apptest.WithEnv(map[string]string{"RATE_LIMIT_SCALE": "100"}))
}
