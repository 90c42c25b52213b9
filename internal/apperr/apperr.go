// Package apperr is the error a domain package returns when the visitor
// should be told something: an HTTP status and a message id that the
// handler translates. The cause, if any, is for the log only.
package apperr

import (
	"errors"
	"fmt"
)

// ErrNotFound is what every layer returns for a row, a page or an object
// that does not exist: the store wraps it, services pass it on, and handlers
// test it with errors.Is without knowing where it came from.
var ErrNotFound = errors.New("not found")

// Error is a failure with a translatable message.
type Error struct {
	Status int
	// ID is the message id, e.g. "exam.error.value".
	ID string
	// Data fills the message's placeholders.
	Data  map[string]any
	Cause error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s (%d): %v", e.ID, e.Status, e.Cause)
	}
	return fmt.Sprintf("%s (%d)", e.ID, e.Status)
}

func (e *Error) Unwrap() error { return e.Cause }

// BadRequest is a 400 with a message id.
func BadRequest(id string, data map[string]any) *Error {
	return &Error{Status: 400, ID: id, Data: data}
}

// NotFound is a 404 with a message id.
func NotFound(id string) *Error { return &Error{Status: 404, ID: id} }
