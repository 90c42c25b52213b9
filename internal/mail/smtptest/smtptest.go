// Package smtptest runs a real SMTP server on loopback for tests, keeping
// what it receives.
package smtptest

import (
	"bytes"
	"io"
	"net"
	"sync"
	"testing"

	"github.com/emersion/go-smtp"
)

// Received is one delivered message.
type Received struct {
	From string
	To   []string
	Data string
}

// Server is a running test SMTP server.
type Server struct {
	Addr    string
	mu      sync.Mutex
	got     []Received
	failing bool
}

// SetFailing makes the server refuse every message with a temporary error
// (451), as a server that is overloaded does, until set back.
func (s *Server) SetFailing(failing bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failing = failing
}

// Start listens on a free loopback port until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) { return &session{s: s}, nil }))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = ln.Addr().String()
	go srv.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { srv.Close() })
	return s
}

// Messages returns what arrived so far.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.got...)
}

type session struct {
	s   *Server
	cur Received
}

func (x *session) Reset()        { x.cur = Received{} }
func (x *session) Logout() error { return nil }
func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	x.cur.From = from
	return nil
}
func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.cur.To = append(x.cur.To, to)
	return nil
}
func (x *session) Data(r io.Reader) error {
	var b bytes.Buffer
	if _, err := io.Copy(&b, r); err != nil {
		return err
	}
	x.cur.Data = b.String()
	x.s.mu.Lock()
	defer x.s.mu.Unlock()
	if x.s.failing {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	x.s.got = append(x.s.got, x.cur)
	return nil
}
