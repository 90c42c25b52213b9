package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"selfmap/app/apptest"
)

// Once the report is paid, the e-mail and details steps (the form and the
// API) refuse another address, another norm group (sex, or a birth year in
// another age band) and another country, each with its message beside the
// field, and store nothing; the report's scores and price country stay as
// paid. A correction that keeps both, a name or a birth year in the same
// band, is still taken. The e-mail step of a paid result leads to the
// report.
func TestPaidDetailsAreFrozen(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, b := k.Store, newBrowser(t, k.Handler)
		token := b.CSRFToken("/")
		rec := b.PostJSON("/api/exam/order/info", token, apptest.Submission(t, func(i int) int { return i%5 + 1 }))
		var sub struct {
			Data struct{ ResultID, OrderNumber string }
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &sub); err != nil || sub.Data.ResultID == "" {
			t.Fatalf("submission: %s", rec.Body.String())
		}
		id := sub.Data.ResultID
		emailURL := "/answer/email/BMBTI-1807?r=" + id
		step := func(form url.Values) *httptest.ResponseRecorder {
			form.Set("_csrf", token)
			return b.PostForm(emailURL, form)
		}
		details := url.Values{"step": {"details"}, "firstName": {"Ana"}, "lastName": {"Kim"}, "birthYear": {"1995"}, "gender": {"female"}, "country": {"KR"}}
		if rec := step(url.Values{"step": {"email"}, "email": {"ana@example.com"}}); rec.Code != http.StatusSeeOther {
			t.Fatalf("e-mail: %d", rec.Code)
		}
		if rec := step(details); rec.Code != http.StatusSeeOther {
			t.Fatalf("details: %d", rec.Code)
		}
		b.ConfirmCard(token, b.StartPayment("/pay/pay/order/create", token, sub.Data.OrderNumber, "mbti-report"))
		paid, err := s.GetResult(t.Context(), s.DB, id)
		if err != nil || !strings.HasPrefix(paid.NormGroup, "F 21-40") || paid.Country.String != "KR" {
			t.Fatalf("paid result %+v, %v", paid, err)
		}

		if rec := b.Get(emailURL); rec.Code != http.StatusSeeOther || !strings.HasPrefix(rec.Header().Get("Location"), "/report/result/BMBTI-1807?") {
			t.Errorf("the e-mail step of a paid result: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		for _, tc := range []struct {
			name, field, value, want string
		}{
			{"another sex", "gender", "male", "comparison group it was scored against"},
			{"unspecified sex", "gender", "unspecified", "comparison group it was scored against"},
			{"a birth year in another band", "birthYear", "2010", "comparison group it was scored against"},
			{"no birth year", "birthYear", "", "comparison group it was scored against"},
			{"another country", "country", "US", "so its country can no longer change"},
		} {
			form := url.Values{}
			for k, v := range details {
				form[k] = v
			}
			form.Set(tc.field, tc.value)
			rec := step(form)
			if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), tc.want) {
				t.Errorf("%s: %d %.300s", tc.name, rec.Code, rec.Body.String())
			}
		}
		if rec := step(url.Values{"step": {"email"}, "email": {"eve@example.com"}}); rec.Code != http.StatusUnprocessableEntity ||
			!strings.Contains(rec.Body.String(), "so its e-mail address can no longer change") {
			t.Errorf("another address in the form: %d", rec.Code)
		}
		api := b.PostJSON("/api/exam/order/update/email", token, map[string]string{"orderNumber": sub.Data.OrderNumber, "email": "eve@example.com"})
		if api.Code != http.StatusBadRequest || !strings.Contains(api.Body.String(), "so its e-mail address can no longer change") {
			t.Errorf("another address through the API: %d %s", api.Code, api.Body.String())
		}
		if after, err := s.GetResult(t.Context(), s.DB, id); err != nil || after.NormGroup != paid.NormGroup || after.Scores != paid.Scores ||
			after.ResultCode != paid.ResultCode || after.Gender != paid.Gender || after.BirthYear != paid.BirthYear ||
			after.Country != paid.Country || after.Email != paid.Email {
			t.Fatalf("a refused change was stored: %+v (%v)", after, err)
		}

		// Corrections that keep the norm group and the country.
		if rec := b.PostJSON("/api/exam/order/update/email", token, map[string]string{"orderNumber": sub.Data.OrderNumber, "email": "ANA@example.com"}); rec.Code != http.StatusOK {
			t.Errorf("the same address again: %d %s", rec.Code, rec.Body.String())
		}
		details.Set("firstName", "Anna")
		details.Set("birthYear", "1996")
		if rec := step(details); rec.Code != http.StatusSeeOther {
			t.Fatalf("a correction in the same band: %d %.300s", rec.Code, rec.Body.String())
		}
		after, err := s.GetResult(t.Context(), s.DB, id)
		if err != nil || after.FirstName.String != "Anna" || after.BirthYear.Int64 != 1996 || after.NormGroup != paid.NormGroup ||
			after.ResultCode != paid.ResultCode || after.Country != paid.Country {
			t.Errorf("after the correction %+v, %v", after, err)
		}
	})
}
