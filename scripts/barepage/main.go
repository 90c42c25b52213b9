// Command barepage is the yardstick of docs/performance.md: a bare net/http
// handler that writes a fixed 23 KB page from memory. Our pages are measured
// beside it, in the same run, so the figures compare across machines.
package main

import (
	"bytes"
	"flag"
	"log"
	"net/http"
	"os"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8099", "listen address")
	file := flag.String("file", "", "serve this file's bytes instead (e.g. a landing page saved with curl), so the ceiling is the same page")
	flag.Parse()
	page := bytes.Repeat([]byte("<p>Selfmap bare handler yardstick page.</p>\n"), 23*1024/44)
	if *file != "" {
		var err error
		if page, err = os.ReadFile(*file); err != nil {
			log.Fatal(err)
		}
	}
	log.Fatal(http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page) //nolint:errcheck // benchmark
	})))
}
