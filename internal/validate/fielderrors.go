package validate

import (
	"errors"
	"slices"
	"strings"
)

// Form names the form as a whole in FieldErrors: a refusal that is about no
// one field (a failed log-in says nothing of which field was wrong).
const Form = ""

// FieldErrors is the one way every refused form says what is wrong: each
// field's name maps to the id of the message shown beside it (Form for the
// form as a whole). Services return it, handlers hand it to the view or the
// API's envelope unchanged, and views translate the ids. It is a map, so
// a view indexes it (errs["email"]) and a nil one holds no errors.
type FieldErrors map[string]string

// ErrorOn is the errors of a form refused for one reason: msgID on field,
// or none (nil) when msgID is empty, so a service's "message to show, if
// any" becomes the form's errors in one call.
func ErrorOn(field, msgID string) FieldErrors {
	if msgID == "" {
		return nil
	}
	return FieldErrors{field: msgID}
}

// Add records msgID against field; an empty msgID records nothing, so the
// message a check returns ("" when the value is fine) is added as it
// comes. A field keeps the first message it got: checks run from the most
// basic (required) to the finest, and the most basic problem is the one
// worth showing.
func (e FieldErrors) Add(field, msgID string) {
	if msgID != "" && !e.Has(field) {
		e[field] = msgID
	}
}

// Has reports whether field was refused.
func (e FieldErrors) Has(field string) bool { return e[field] != "" }

// Any reports whether anything was refused.
func (e FieldErrors) Any() bool { return len(e) > 0 }

// Err is e as an error, or nil when nothing was refused: a service that
// returns only an error returns errs.Err(), and the caller finds the
// fields again with AsFieldErrors.
func (e FieldErrors) Err() error {
	if !e.Any() {
		return nil
	}
	return e
}

// Error lists the refused fields and their message ids, in field order, for
// logs and tests; visitors see the translated messages instead.
func (e FieldErrors) Error() string {
	fields := make([]string, 0, len(e))
	for f := range e {
		fields = append(fields, f)
	}
	slices.Sort(fields)
	var b strings.Builder
	b.WriteString("validate: refused")
	for _, f := range fields {
		name := f
		if name == Form {
			name = "(form)"
		}
		b.WriteString(" " + name + "=" + e[f])
	}
	return b.String()
}

// AsFieldErrors finds the FieldErrors in err's chain.
func AsFieldErrors(err error) (FieldErrors, bool) {
	var e FieldErrors
	if errors.As(err, &e) && e.Any() {
		return e, true
	}
	return nil, false
}
