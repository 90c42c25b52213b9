package jobs_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/jobs"
	"selfmap/internal/mail"
	"selfmap/internal/mail/smtptest"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
)

// The outbox reaches a real SMTP server once, in UTF-8, and a failed
// delivery stays queued for the next run.
func TestSendQueuedMail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		now := time.Now().UTC()
		if err := s.InTx(ctx, func(tx *sqlx.Tx) error {
			return s.QueueMail(ctx, tx, store.Mail{ID: "m1", Kind: "receipt", To: "min@example.com", Locale: "ko",
				Subject: "Selfmap 영수증", Body: "결제해 주셔서 감사합니다.", Ref: "order-1", Status: "queued", CreatedAt: now})
		}); err != nil {
			t.Fatal(err)
		}
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))

		down, err := mail.NewSMTP("smtp://127.0.0.1:1?tls=none", "Selfmap <no-reply@selfmap.test>")
		if err != nil {
			t.Fatal(err)
		}
		if err := jobs.SendQueued(ctx, s, down, logger, time.Now); err == nil {
			t.Fatal("a delivery to a closed port reported success")
		}
		if q, _ := s.QueuedMail(ctx, 10); len(q) != 1 {
			t.Fatalf("after a failed delivery %d messages are queued, want 1", len(q))
		}

		srv := smtptest.Start(t)
		sender, err := mail.NewSMTP("smtp://"+srv.Addr+"?tls=none", "Selfmap <no-reply@selfmap.test>")
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := jobs.SendQueued(ctx, s, sender, logger, time.Now); err != nil {
				t.Fatal(err)
			}
		}
		got := srv.Messages()
		if len(got) != 1 || got[0].To[0] != "min@example.com" || !strings.Contains(got[0].Data, "Message-ID: <m1@selfmap>") {
			t.Fatalf("received %+v", got)
		}
		if q, _ := s.QueuedMail(ctx, 10); len(q) != 0 {
			t.Fatalf("%d messages still queued after delivery", len(q))
		}
	})
}
