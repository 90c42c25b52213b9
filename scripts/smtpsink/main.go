// Command smtpsink is the mail server of scripts/two-instances.sh: it takes
// every message on a loopback port and appends one line per message to a
// file (its recipients), so the script can count deliveries.
package main

import (
	"flag"
	"io"
	"log"
	"os"
	"strings"
	"sync"

	"github.com/emersion/go-smtp"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:2525", "listen address")
	out := flag.String("out", "delivered.txt", "file that gets one line per message")
	flag.Parse()
	f, err := os.OpenFile(*out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		log.Fatal(err)
	}
	var mu sync.Mutex
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &session{deliver: func(to []string) error {
			mu.Lock()
			defer mu.Unlock()
			_, err := io.WriteString(f, strings.Join(to, ",")+"\n")
			return err
		}}, nil
	}))
	srv.Addr = *addr
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	log.Fatal(srv.ListenAndServe())
}

type session struct {
	to      []string
	deliver func(to []string) error
}

func (s *session) Reset()                                    { s.to = nil }
func (s *session) Logout() error                             { return nil }
func (s *session) Mail(string, *smtp.MailOptions) error      { return nil }
func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error { s.to = append(s.to, to); return nil }
func (s *session) Data(r io.Reader) error {
	if _, err := io.Copy(io.Discard, r); err != nil {
		return err
	}
	return s.deliver(s.to)
}
