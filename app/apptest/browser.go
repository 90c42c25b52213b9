package apptest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"selfmap/internal/exam"
)

// Browser sends requests to a handler in process as one visitor's browser
// would: it keeps the cookies it is given and sends them back, and reads
// the CSRF token of a page to post a form or call the API.
type Browser struct {
	T testing.TB
	// Handler answers the requests; a test may switch it to another
	// instance of the app over the same database.
	Handler http.Handler
	// Cookies are the browser's cookies by name.
	Cookies map[string]*http.Cookie
}

// NewBrowser is a browser with no cookies on a handler.
func NewBrowser(t testing.TB, h http.Handler) *Browser {
	return &Browser{T: t, Handler: h, Cookies: map[string]*http.Cookie{}}
}

// Do sends a request with the browser's cookies and keeps the ones the
// answer sets.
func (b *Browser) Do(req *http.Request) *httptest.ResponseRecorder {
	for _, c := range b.Cookies {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	b.Handler.ServeHTTP(rec, req)
	for _, c := range rec.Result().Cookies() {
		b.Cookies[c.Name] = c
	}
	return rec
}

// Get opens a path.
func (b *Browser) Get(path string) *httptest.ResponseRecorder {
	return b.Do(httptest.NewRequest(http.MethodGet, path, nil))
}

// Expect opens a path and checks the status and what the page shows: a
// wrong status ends the test, a missing text is reported.
func (b *Browser) Expect(path string, status int, contains ...string) *httptest.ResponseRecorder {
	b.T.Helper()
	rec := b.Get(path)
	if rec.Code != status {
		b.T.Fatalf("GET %s: %d, want %d; %.300s", path, rec.Code, status, rec.Body.String())
	}
	for _, want := range contains {
		if !strings.Contains(rec.Body.String(), want) {
			b.T.Errorf("GET %s lacks %q", path, want)
		}
	}
	return rec
}

var pageToken = regexp.MustCompile(`"csrf":"([^"]+)"`)

// CSRFToken opens a page and returns the CSRF token it gives its scripts.
func (b *Browser) CSRFToken(path string) string {
	b.T.Helper()
	m := pageToken.FindStringSubmatch(b.Get(path).Body.String())
	if m == nil {
		b.T.Fatalf("no CSRF token on %s", path)
	}
	return m[1]
}

// PostForm posts a form as it is, token or not.
func (b *Browser) PostForm(path string, form url.Values) *httptest.ResponseRecorder {
	b.T.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return b.Do(req)
}

// Submit posts a form with the CSRF token of the page it is on.
func (b *Browser) Submit(page, action string, form url.Values) *httptest.ResponseRecorder {
	b.T.Helper()
	form.Set("_csrf", b.CSRFToken(page))
	return b.PostForm(action, form)
}

// PostJSON calls the API as the islands do, with the token in a header.
func (b *Browser) PostJSON(path, token string, body any) *httptest.ResponseRecorder {
	b.T.Helper()
	buf, err := json.Marshal(body)
	if err != nil {
		b.T.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(string(buf)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", token)
	return b.Do(req)
}

// Login submits the log-in form.
func (b *Browser) Login(email, password string) *httptest.ResponseRecorder {
	b.T.Helper()
	return b.Submit("/user/login", "/user/login", url.Values{"email": {email}, "password": {password}})
}

// Submission answers every statement of exam 1807 with value(i), as the
// question island sends them.
func Submission(t testing.TB, value func(i int) int) map[string]any {
	t.Helper()
	reg, err := exam.LoadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	e, _ := reg.Exam(1807)
	var answers []map[string]any
	for i, q := range e.Instrument.Questions("en") {
		answers = append(answers, map[string]any{"id": q.ID, "value": value(i)})
	}
	return map[string]any{"examId": 1807, "code": "BMBTI", "version": e.FullVersion(), "answers": answers, "durationSeconds": 700}
}

// PaidReport takes the test and pays for the report through the API, as
// the islands do, and returns the result id and the report's order number.
func (b *Browser) PaidReport(token string) (resultID, order string) {
	b.T.Helper()
	rec := b.PostJSON("/api/exam/order/info", token, Submission(b.T, func(i int) int { return i%5 + 1 }))
	var sub struct {
		Data struct{ ResultID, OrderNumber string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &sub); err != nil || sub.Data.OrderNumber == "" {
		b.T.Fatalf("submission: %s", rec.Body.String())
	}
	attempt := b.StartPayment("/pay/pay/order/create", token, sub.Data.OrderNumber, "mbti-report")
	b.ConfirmCard(token, attempt)
	return sub.Data.ResultID, sub.Data.OrderNumber
}

// StartPayment opens a payment of an order for a product (sku) at a
// payment call (path) and returns its attempt.
func (b *Browser) StartPayment(path, token, order, sku string) string {
	b.T.Helper()
	rec := b.PostJSON(path, token, map[string]any{"orderNumber": order, "skuId": sku, "email": "kim@example.com", "amount": 1})
	var created struct{ Data struct{ AttemptID string } }
	if err := json.Unmarshal(rec.Body.Bytes(), &created); err != nil || rec.Code != 200 {
		b.T.Fatalf("%s %s: %d %s", path, sku, rec.Code, rec.Body.String())
	}
	return created.Data.AttemptID
}

// ConfirmCard pays an attempt with the sandbox's card that always
// succeeds, and expects it to.
func (b *Browser) ConfirmCard(token, attempt string) {
	b.T.Helper()
	rec := b.PostJSON("/pay/sandbox/confirm", token, map[string]any{"attemptId": attempt, "number": "4242424242424242",
		"expMonth": 12, "expYear": 2030, "cvc": "123", "name": "Kim", "postalCode": "10115"})
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"status":"succeeded"`) {
		b.T.Fatalf("confirm: %d %s", rec.Code, rec.Body.String())
	}
}
