// Package mail delivers the outbox over SMTP. Messages are written to the
// outbox in the same transaction as what caused them (a payment, a code);
// a job hands them to the SMTP server named by MAIL_URL. Without MAIL_URL
// they stay in the outbox, which /dev/mail shows in development.
package mail

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Message is one e-mail to send: Body is the plain text, HTML the
// alternative part (none when empty).
type Message struct {
	ID, To, Subject, Body, HTML string
}

// Sender delivers messages.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// SMTP sends through an SMTP server.
type SMTP struct {
	client *gomail.Client
	from   string
}

// NewSMTP reads a MAIL_URL: smtp://user:pass@host:port for STARTTLS (it must
// be offered), smtps://... for TLS from the first byte, and
// smtp://host:port?tls=none only for a server on this machine or a test.
func NewSMTP(rawURL, from string) (*SMTP, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" {
		return nil, fmt.Errorf("mail: MAIL_URL must be smtp://[user:pass@]host[:port], got %q", rawURL)
	}
	opts := []gomail.Option{gomail.WithTimeout(20 * time.Second)}
	port := 587
	switch {
	case u.Scheme == "smtps":
		opts = append(opts, gomail.WithSSL())
		port = 465
	case u.Scheme == "smtp" && u.Query().Get("tls") == "none":
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	case u.Scheme == "smtp":
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	default:
		return nil, fmt.Errorf("mail: MAIL_URL scheme must be smtp or smtps, got %q", u.Scheme)
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil {
			return nil, fmt.Errorf("mail: bad port in MAIL_URL: %w", err)
		}
	}
	opts = append(opts, gomail.WithPort(port))
	if u.User != nil {
		pass, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain), gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	c, err := gomail.NewClient(u.Hostname(), opts...)
	if err != nil {
		return nil, fmt.Errorf("mail: smtp client: %w", err)
	}
	return &SMTP{client: c, from: from}, nil
}

// Send delivers one message: multipart/alternative with the plain text
// first (the fallback) and the HTML last (preferred by clients that show it).
func (s *SMTP) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("mail: from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("mail: to: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(m.ID + "@selfmap")
	msg.SetDate()
	msg.SetBodyString(gomail.TypeTextPlain, m.Body)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	if err := s.client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("mail: send %s: %w", m.ID, err)
	}
	return nil
}
