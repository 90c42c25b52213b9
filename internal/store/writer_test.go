package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"selfmap/internal/store/storetest"
)

// TestInTxWaitsForTheWriterInGo: on SQLite, transactions waiting for the
// writer wait in Go, holding no connection, so reads go on meanwhile (with
// SQLite's lock alone, seven waiting transactions held the rest of the pool
// of eight); a wait ends with the caller's context.
func TestInTxWaitsForTheWriterInGo(t *testing.T) {
	s := storetest.SQLite(t)
	ctx := context.Background()
	held, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- s.InTx(ctx, func(*sqlx.Tx) error { close(held); <-release; return nil }) }()
	<-held

	var started, waiting sync.WaitGroup
	for range 10 {
		started.Add(1)
		waiting.Go(func() {
			started.Done()
			if err := s.InTx(ctx, func(*sqlx.Tx) error { return nil }); err != nil {
				t.Error(err)
			}
		})
	}
	started.Wait()
	read, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var n int
	if err := s.DB.GetContext(read, &n, `SELECT COUNT(*) FROM sites`); err != nil {
		t.Errorf("a read while transactions wait: %v", err)
	}

	canceled, stop := context.WithCancel(ctx)
	stop()
	err := s.InTx(canceled, func(*sqlx.Tx) error { t.Error("ran without its turn"); return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Error(err)
	}
	waiting.Wait()
}
