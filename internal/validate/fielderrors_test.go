package validate

import (
	"fmt"
	"testing"
)

func TestFieldErrorsAdd(t *testing.T) {
	errs := FieldErrors{}
	errs.Add("email", "")
	if errs.Any() || errs.Err() != nil {
		t.Fatalf("an empty message refused the form: %v", errs)
	}
	errs.Add("email", "form.email.required")
	errs.Add("email", "form.email.invalid")
	errs.Add(Form, "account.error.login_failed")
	if !errs.Has("email") || errs["email"] != "form.email.required" {
		t.Errorf("email = %q, want the first message", errs["email"])
	}
	if errs.Has("name") {
		t.Error("name refused without a message")
	}
	if got, want := errs.Error(), "validate: refused (form)=account.error.login_failed email=form.email.required"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestFieldErrorsAsError(t *testing.T) {
	var none FieldErrors
	if none.Err() != nil || none.Has("x") || none.Any() {
		t.Fatal("a nil FieldErrors refused something")
	}
	wrapped := fmt.Errorf("account: register: %w", FieldErrors{"name": "form.required"}.Err())
	got, ok := AsFieldErrors(wrapped)
	if !ok || got["name"] != "form.required" {
		t.Fatalf("AsFieldErrors(%v) = %v, %v", wrapped, got, ok)
	}
	if _, ok := AsFieldErrors(fmt.Errorf("other")); ok {
		t.Error("found field errors in an unrelated error")
	}
}

func TestErrorOn(t *testing.T) {
	if ErrorOn("code", "") != nil {
		t.Error("ErrorOn with no message is not nil")
	}
	if got := ErrorOn("code", "account.error.code_refused"); len(got) != 1 || got["code"] != "account.error.code_refused" {
		t.Errorf("ErrorOn = %v", got)
	}
}
