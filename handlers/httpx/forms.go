package httpx

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"selfmap/internal/apperr"
)

// formFail is how a page shows a service's refusal: its message id, the
// status, and whether it is about the field as typed.
type formFail struct {
	Id     string
	Status int
	Field  bool
}

// FormFailure turns a service's refusal of a form (an *apperr.Error) into
// what the page shows, logging the server's own failures under what; any
// other error is returned for the error handler.
func (s *Server) FormFailure(c echo.Context, what string, err error) (formFail, error) {
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		return formFail{}, err
	}
	if ae.Status >= 500 {
		s.Logger.ErrorContext(c.Request().Context(), what+": refused", "request_id", State(c).RequestID, "err", err)
	}
	f := formFail{Id: ae.ID, Status: ae.Status, Field: ae.Status == http.StatusBadRequest}
	if f.Field {
		f.Status = http.StatusUnprocessableEntity
	}
	return f, nil
}

// AddFlash keeps a value for the next page under a key of the session.
func (s *Server) AddFlash(c echo.Context, value, key string) error {
	sess := s.Session(c)
	sess.AddFlash(value, key)
	return sess.Save(c.Request(), c.Response())
}

// TakeFlash reads and forgets the value kept under a key ("" when none).
func (s *Server) TakeFlash(c echo.Context, key string) (string, error) {
	sess := s.Session(c)
	flashes := sess.Flashes(key)
	if len(flashes) == 0 {
		return "", nil
	}
	v, _ := flashes[0].(string)
	return v, sess.Save(c.Request(), c.Response())
}
