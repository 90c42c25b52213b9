package jobs_test

import (
	"context"
	"database/sql"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	netmail "net/mail"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/i18n"
	"selfmap/internal/jobs"
	"selfmap/internal/mail"
	"selfmap/internal/mail/smtptest"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/locales"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// queueComposed writes a real report-ready e-mail in a locale and queues it.
func queueComposed(t *testing.T, s *store.Store, id, tag, to string, now time.Time) mail.Content {
	t.Helper()
	catalog, err := i18n.Load(locales.Files)
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := mail.LoadTemplates()
	if err != nil {
		t.Fatal(err)
	}
	l, _ := i18n.ByTag(tag)
	c, err := tpl.Compose(mail.KindReportReady, catalog.Translator(l), mail.Data{
		Vars: map[string]any{"Type": "INFJ-T", "Order": "SM1"}, BaseURL: "http://selfmap.test",
		RetrieveURL: "http://selfmap.test/report/retrieve/BMBTI-1807",
		ReportURL:   "http://selfmap.test" + l.Path("/report/result/BMBTI-1807") + "?t=" + id + "-token",
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.InTx(context.Background(), func(tx *sqlx.Tx) error {
		return s.QueueMail(context.Background(), tx, store.Mail{ID: id, Kind: c.Kind, To: to, Locale: tag, Subject: c.Subject,
			Body: c.Text, HTMLBody: sql.NullString{String: c.HTML, Valid: true}, Ref: id, CreatedAt: now})
	}); err != nil {
		t.Fatal(err)
	}
	return c
}

// parts reads a multipart/alternative message into its content types and
// decoded bodies.
func parts(t *testing.T, msg *netmail.Message) map[string]string {
	t.Helper()
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/alternative" {
		t.Fatalf("Content-Type %q (%v); want multipart/alternative", msg.Header.Get("Content-Type"), err)
	}
	out := map[string]string{}
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ct, ps, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if !strings.EqualFold(ps["charset"], "utf-8") {
			t.Errorf("part %s has charset %q", ct, ps["charset"])
		}
		body, err := io.ReadAll(p) // quoted-printable is decoded by the reader
		if err != nil {
			t.Fatal(err)
		}
		out[ct] = string(body)
	}
	return out
}

// The outbox reaches a real SMTP server on loopback as multipart/alternative
// with the headers a mail client needs, in English and in Korean; a server
// that refuses leaves the message queued until its next attempt time, and a
// later run delivers it once.
func TestSendQueuedMailOverSMTP(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		clock := t0
		now := func() time.Time { return clock }
		ko := queueComposed(t, s, "m-ko", "ko", "min@example.com", t0)
		en := queueComposed(t, s, "m-en", "en", "ann@example.com", t0.Add(time.Second))

		srv := smtptest.Start(t)
		sender, err := mail.NewSMTP("smtp://"+srv.Addr+"?tls=none", "Selfmap <no-reply@selfmap.test>")
		if err != nil {
			t.Fatal(err)
		}

		srv.SetFailing(true)
		if sent, err := jobs.SendQueued(ctx, s, sender, quiet, now); err != nil || sent.Failed != 2 || sent.Delivered != 0 {
			t.Fatalf("a refusing server: %+v, %v", sent, err)
		}
		all, err := s.ListMail(ctx, s.DB, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range all {
			if m.Status != store.MailQueued || m.Attempts != 1 || !m.LastError.Valid || !strings.Contains(m.LastError.String, "451") ||
				!m.NextAttemptAt.Valid || !m.NextAttemptAt.Time.Equal(t0.Add(time.Minute)) {
				t.Fatalf("after a refused delivery: %s status %s, attempts %d, error %q, next %v", m.ID, m.Status, m.Attempts, m.LastError.String, m.NextAttemptAt)
			}
		}

		srv.SetFailing(false)
		clock = t0.Add(30 * time.Second)
		if sent, _ := jobs.SendQueued(ctx, s, sender, quiet, now); sent.Delivered+sent.Failed != 0 || len(srv.Messages()) != 0 {
			t.Fatalf("a message was tried before its next attempt time: %+v", sent)
		}
		clock = t0.Add(61 * time.Second)
		for range 2 {
			if _, err := jobs.SendQueued(ctx, s, sender, quiet, now); err != nil {
				t.Fatal(err)
			}
		}
		got := srv.Messages()
		if len(got) != 2 {
			t.Fatalf("%d messages delivered, want each of the two once", len(got))
		}
		for i, want := range []struct {
			id, to string
			c      mail.Content
			text   []string
		}{
			{"m-ko", "min@example.com", ko, []string{"리포트가 준비됐어요", "/ko/report/result/BMBTI-1807?t=m-ko-token"}},
			{"m-en", "ann@example.com", en, []string{"Your report is ready", "/report/result/BMBTI-1807?t=m-en-token"}},
		} {
			r := got[i]
			if len(r.To) != 1 || r.To[0] != want.to || r.From != "no-reply@selfmap.test" {
				t.Errorf("envelope %s -> %v", r.From, r.To)
			}
			msg, err := netmail.ReadMessage(strings.NewReader(r.Data))
			if err != nil {
				t.Fatal(err)
			}
			h := msg.Header
			subject, err := new(mime.WordDecoder).DecodeHeader(h.Get("Subject"))
			if err != nil || subject != want.c.Subject {
				t.Errorf("Subject %q decodes to %q, want %q", h.Get("Subject"), subject, want.c.Subject)
			}
			if want.id == "m-ko" && !strings.HasPrefix(strings.ToUpper(h.Get("Subject")), "=?UTF-8?") {
				t.Errorf("a Korean subject is not encoded: %q", h.Get("Subject"))
			}
			if from, err := netmail.ParseAddress(h.Get("From")); err != nil || from.Address != "no-reply@selfmap.test" || from.Name != "Selfmap" {
				t.Errorf("From %q", h.Get("From"))
			}
			if to, err := netmail.ParseAddress(h.Get("To")); err != nil || to.Address != want.to {
				t.Errorf("To %q", h.Get("To"))
			}
			if h.Get("Message-Id") != "<"+want.id+"@selfmap>" {
				t.Errorf("Message-ID %q", h.Get("Message-Id"))
			}
			if _, err := h.Date(); err != nil {
				t.Errorf("Date %q: %v", h.Get("Date"), err)
			}
			body := parts(t, msg)
			for _, w := range want.text {
				if !strings.Contains(body["text/plain"], w) || !strings.Contains(body["text/html"], w) {
					t.Errorf("%s: a part lacks %q", want.id, w)
				}
			}
			if !strings.Contains(body["text/html"], "<table") || strings.Contains(body["text/plain"], "<table") {
				t.Errorf("%s: the parts are not text and HTML", want.id)
			}
		}
		if q, _ := s.QueuedMail(ctx, s.DB, clock.Add(24*time.Hour), 10); len(q) != 0 {
			t.Fatalf("%d messages still queued after delivery", len(q))
		}
	})
}

// Retries back off from a minute, doubling up to an hour, and stop as
// failed after MaxMailAttempts.
func TestMailRetriesBackOffAndGiveUp(t *testing.T) {
	for failures, want := range map[int]time.Duration{1: time.Minute, 2: 2 * time.Minute, 3: 4 * time.Minute, 6: 32 * time.Minute, 7: time.Hour, 30: time.Hour} {
		if got := jobs.MailBackoff(failures); got != want {
			t.Errorf("MailBackoff(%d) = %v, want %v", failures, got, want)
		}
	}
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		clock := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
		queueComposed(t, s, "m1", "ja", "aoi@example.com", clock)
		down, err := mail.NewSMTP("smtp://127.0.0.1:1?tls=none", "Selfmap <no-reply@selfmap.test>")
		if err != nil {
			t.Fatal(err)
		}
		for i := range jobs.MaxMailAttempts + 2 {
			if _, err := jobs.SendQueued(ctx, s, down, quiet, func() time.Time { return clock }); err != nil {
				t.Fatalf("run %d: %v", i, err)
			}
			clock = clock.Add(2 * time.Hour)
		}
		all, _ := s.ListMail(ctx, s.DB, 1)
		if len(all) != 1 || all[0].Status != store.MailFailed || all[0].Attempts != jobs.MaxMailAttempts || all[0].NextAttemptAt.Valid {
			t.Fatalf("after every retry failed: %+v", all)
		}
	})
}
