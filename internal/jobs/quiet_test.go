package jobs

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

// River's own lines: info is dropped, real errors pass, and an error that
// is only a canceled context (its maintenance stopped by a normal shutdown)
// is logged at info, so stopping serve right after start logs no ERROR.
func TestQuietRiverLog(t *testing.T) {
	var buf bytes.Buffer
	l := quiet(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	l.Info("leader elected")
	l.ErrorContext(context.Background(), "maintenance.PeriodicJobEnqueuer: Error starting transaction", "error", context.Canceled.Error())
	l.With("svc", "x").Error("job failed", "error", context.Canceled)
	l.Error("job failed", "error", "disk full")
	l.Warn("slow")
	out := buf.String()
	for _, want := range []string{`level=INFO msg="maintenance.PeriodicJobEnqueuer: Error starting transaction"`,
		`level=INFO msg="job failed" svc=x`, `level=ERROR msg="job failed" error="disk full"`, `level=WARN msg=slow`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "leader elected") || strings.Count(out, "level=ERROR") != 1 {
		t.Errorf("log:\n%s", out)
	}
}
