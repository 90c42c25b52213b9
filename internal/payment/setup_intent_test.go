package payment

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// fakeStripe answers the few calls of a card setup the way Stripe's API
// does, and keeps what it was sent.
type fakeStripe struct {
	mu       sync.Mutex
	requests []fakeRequest
	// setup is the SetupIntent GET /v1/setup_intents/seti_1 answers.
	setup string
}

type fakeRequest struct {
	method, path, key string
	form              url.Values
}

func (f *fakeStripe) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	form, _ := url.ParseQuery(string(body))
	f.mu.Lock()
	f.requests = append(f.requests, fakeRequest{r.Method, r.URL.Path, r.Header.Get("Idempotency-Key"), form})
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/setup_intents":
		io.WriteString(w, `{"id":"seti_1","object":"setup_intent","client_secret":"seti_1_secret_x","status":"requires_payment_method","customer":"`+form.Get("customer")+`"}`)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/setup_intents/seti_1":
		io.WriteString(w, f.setup)
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1/customers/"):
		io.WriteString(w, `{"id":"`+strings.TrimPrefix(r.URL.Path, "/v1/customers/")+`","object":"customer"}`)
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/v1/subscriptions/"):
		io.WriteString(w, `{"id":"`+strings.TrimPrefix(r.URL.Path, "/v1/subscriptions/")+`","object":"subscription","status":"active","cancel_at_period_end":false,"items":{"data":[]}}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":{"type":"invalid_request_error","message":"no such route"}}`)
	}
}

func (f *fakeStripe) sent() []fakeRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeRequest(nil), f.requests...)
}

func newFakeStripe(t *testing.T, setup string) (*Stripe, *fakeStripe) {
	t.Helper()
	f := &fakeStripe{setup: setup}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return NewStripe("sk_test_123", "whsec_test", WithStripeBaseURL(srv.URL), WithStripeHTTPClient(srv.Client())), f
}

const succeededSetup = `{"id":"seti_1","object":"setup_intent","status":"succeeded","customer":"cus_1",
	"payment_method":{"id":"pm_new","object":"payment_method","type":"card","card":{"brand":"mastercard","last4":"4444"}}}`

func TestStartCardSetup(t *testing.T) {
	s, f := newFakeStripe(t, "")
	started, err := s.StartCardSetup(context.Background(), "cus_1", "setup_sub1_1")
	if err != nil || started.Ref != "seti_1" || started.ClientSecret != "seti_1_secret_x" {
		t.Fatalf("StartCardSetup = %+v, %v", started, err)
	}
	reqs := f.sent()
	if len(reqs) != 1 {
		t.Fatalf("sent %d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.form.Get("customer") != "cus_1" || r.form.Get("usage") != "off_session" || r.form.Get("payment_method_types[0]") != "card" ||
		r.key != "setup_sub1_1" {
		t.Errorf("setup intent sent %v (key %q)", r.form, r.key)
	}
	if _, err := s.StartCardSetup(context.Background(), "", "k"); err == nil {
		t.Error("a setup without a customer was sent")
	}
}

func TestFinishCardSetupMakesTheCardTheDefault(t *testing.T) {
	s, f := newFakeStripe(t, succeededSetup)
	card, err := s.FinishCardSetup(context.Background(), "cus_1", "seti_1", "sub_1")
	if err != nil || card != (SavedCard{Ref: "pm_new", Brand: "mastercard", Last4: "4444"}) {
		t.Fatalf("FinishCardSetup = %+v, %v", card, err)
	}
	reqs := f.sent()
	if len(reqs) != 3 {
		t.Fatalf("sent %d requests, want 3: %+v", len(reqs), reqs)
	}
	if reqs[0].method != http.MethodGet || reqs[0].path != "/v1/setup_intents/seti_1" {
		t.Errorf("first request %s %s", reqs[0].method, reqs[0].path)
	}
	if reqs[1].path != "/v1/customers/cus_1" || reqs[1].form.Get("invoice_settings[default_payment_method]") != "pm_new" {
		t.Errorf("customer update %s %v", reqs[1].path, reqs[1].form)
	}
	if reqs[2].path != "/v1/subscriptions/sub_1" || reqs[2].form.Get("default_payment_method") != "pm_new" || reqs[2].key == "" {
		t.Errorf("subscription update %s %v (key %q)", reqs[2].path, reqs[2].form, reqs[2].key)
	}
}

func TestFinishCardSetupRefusesAnotherCustomersOrUnconfirmedSetup(t *testing.T) {
	for name, setup := range map[string]string{
		"another customer": strings.Replace(succeededSetup, `"cus_1"`, `"cus_2"`, 1),
		"not confirmed":    strings.Replace(succeededSetup, `"succeeded"`, `"requires_payment_method"`, 1),
	} {
		t.Run(name, func(t *testing.T) {
			s, f := newFakeStripe(t, setup)
			if _, err := s.FinishCardSetup(context.Background(), "cus_1", "seti_1", "sub_1"); !errors.Is(err, ErrSetupNotDone) {
				t.Fatalf("FinishCardSetup err = %v, want ErrSetupNotDone", err)
			}
			if n := len(f.sent()); n != 1 {
				t.Errorf("sent %d requests, want only the read", n)
			}
		})
	}
	s, f := newFakeStripe(t, succeededSetup)
	if _, err := s.FinishCardSetup(context.Background(), "cus_1", "pm_x", "sub_1"); !errors.Is(err, ErrSetupNotDone) || len(f.sent()) != 0 {
		t.Errorf("a ref that is no SetupIntent: err %v, %d requests", err, len(f.sent()))
	}
}

func TestStripeResume(t *testing.T) {
	s, f := newFakeStripe(t, "")
	bs, err := s.Resume(context.Background(), "sub_1", "resume_1")
	if err != nil || bs.Ref != "sub_1" || bs.CancelAtPeriodEnd {
		t.Fatalf("Resume = %+v, %v", bs, err)
	}
	r := f.sent()[0]
	if r.path != "/v1/subscriptions/sub_1" || r.form.Get("cancel_at_period_end") != "false" || r.key != "resume_1" {
		t.Errorf("resume sent %s %v (key %q)", r.path, r.form, r.key)
	}
}
