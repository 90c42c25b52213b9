// Command soakcheck checks a soak run's invariants from the database and
// loadmix's record (docs/reliability.md): every paid order fulfilled exactly
// once, none lost, no duplicate charge, no 5xx outside the fault windows,
// memory bounded. It prints a summary and exits 1 when any fails.
//
// A payment whose delivery was lost to a kill is applied by the
// reconciler a few minutes later; with -settle, soakcheck repeats the
// checks until they pass or that time is up.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	"selfmap/internal/store"
)

func main() {
	db := flag.String("db", "", "the server's DATABASE_URL")
	recPath := flag.String("record", "", "loadmix's -json record")
	grace := flag.Duration("grace", 2*time.Second, "widening of each fault window, both sides")
	maxRSS := flag.Int64("max-rss-mb", 120, "bound on the server's peak resident set, MB")
	settle := flag.Duration("settle", 0, "repeat failing checks for up to this long (the reconciler's delay)")
	flag.Parse()
	if *db == "" || *recPath == "" {
		log.Fatal("soakcheck needs -db and -record")
	}
	buf, err := os.ReadFile(*recPath)
	if err != nil {
		log.Fatal(err)
	}
	var rec Record
	if err := json.Unmarshal(buf, &rec); err != nil {
		log.Fatalf("soakcheck: read record: %v", err)
	}
	ctx := context.Background()
	st, err := store.Open(ctx, *db)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	lim := Limits{Grace: *grace, MaxRSSKB: *maxRSS * 1024}
	deadline := time.Now().Add(*settle)
	for {
		findings, err := Check(ctx, st, rec, lim)
		if err != nil {
			log.Fatal(err)
		}
		if MaySettle(findings) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Second)
			continue
		}
		for _, f := range findings {
			mark := "ok  "
			if !f.OK {
				mark = "FAIL"
			}
			fmt.Printf("%s %-38s %s\n", mark, f.Name, f.Detail)
		}
		if Failed(findings) {
			os.Exit(1)
		}
		return
	}
}
