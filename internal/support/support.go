// Package support takes messages from the contact form: it checks every
// field, stores the message and queues it for the support mailbox in one
// transaction. It knows nothing of HTTP.
package support

import (
	"context"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/ids"
	"selfmap/internal/store"
	"selfmap/internal/validate"
)

// Topics are what a message can be about, in the form's order.
var Topics = []string{"subscription", "billing", "report", "privacy", "general"}

// Limits of the form's fields, in characters.
const (
	MaxName       = 80
	MinMessage    = 10
	MaxMessage    = 3000
	maxMailFields = 200
)

// Service is the contact service.
type Service struct {
	Store *store.Store
	Now   func() time.Time
	// To is the support mailbox.
	To string
}

// Input is what the contact form sends.
type Input struct {
	Name, Email, Topic, Message string
	// Locale is the tag of the page the form was sent from.
	Locale string
}

// Check cleans the input and reports what is wrong with it, field by field.
func Check(in Input) (Input, validate.FieldErrors) {
	errs := validate.FieldErrors{}
	var msg string
	in.Name, msg = validate.Name(in.Name, MaxName)
	errs.Add("name", msg)
	in.Email, msg = validate.Email(in.Email)
	errs.Add("email", msg)
	if !slices.Contains(Topics, in.Topic) {
		errs.Add("topic", "form.choose")
		in.Topic = ""
	}
	in.Message = cleanText(in.Message)
	switch n := utf8.RuneCountInString(in.Message); {
	case n == 0:
		errs.Add("message", "form.required")
	case n < MinMessage:
		errs.Add("message", "contact.error.message_short")
	case n > MaxMessage:
		errs.Add("message", "contact.error.message_long")
	}
	return in, errs
}

// cleanText keeps the lines of a message, drops control characters and
// trims the ends.
func cleanText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' {
			return r
		}
		if unicode.IsControl(r) || r == utf8.RuneError {
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// Send stores a valid message and queues it for the support mailbox, both
// or neither. An invalid one stores nothing and returns its errors.
func (s *Service) Send(ctx context.Context, in Input) (store.ContactMessage, validate.FieldErrors, error) {
	in, errs := Check(in)
	if errs.Any() {
		return store.ContactMessage{}, errs, nil
	}
	now := s.Now().UTC()
	m := store.ContactMessage{ID: ids.New(), Name: in.Name, Email: in.Email, Topic: in.Topic, Message: in.Message,
		Locale: in.Locale, Status: "new", CreatedAt: now}
	err := s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := s.Store.InsertContactMessage(ctx, tx, m); err != nil {
			return err
		}
		return s.Store.QueueMail(ctx, tx, store.Mail{ID: ids.New(), Kind: "contact", To: s.To, Locale: "en",
			Subject: subject(m), Body: body(m), Ref: m.ID, Status: "queued", CreatedAt: now})
	})
	if err != nil {
		return store.ContactMessage{}, nil, err
	}
	return m, nil, nil
}

// subject and body write the message for the support team, in English,
// which is the team's working language; the visitor's locale says which
// language to answer in.
func subject(m store.ContactMessage) string {
	return "[Selfmap support] " + m.Topic + ": " + shorten(m.Name, 60)
}

func body(m store.ContactMessage) string {
	var b strings.Builder
	b.WriteString("A visitor wrote with the contact form.\n\n")
	b.WriteString("Name: " + shorten(m.Name, maxMailFields) + "\n")
	b.WriteString("E-mail: " + m.Email + "\n")
	b.WriteString("Topic: " + m.Topic + "\n")
	b.WriteString("Language: " + m.Locale + "\n")
	b.WriteString("Message id: " + m.ID + "\n")
	b.WriteString("Received: " + m.CreatedAt.Format(time.RFC3339) + "\n\n")
	b.WriteString(m.Message + "\n\n")
	b.WriteString("Reply to the visitor's e-mail address above, in their language when you can.\n")
	return b.String()
}

func shorten(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max]) + "…"
}
