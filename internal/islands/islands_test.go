package islands

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// A bundle goes out gzipped from the bytes compressed at load to a client
// that accepts gzip, and as it is to one that does not.
func TestHandlerServesPrecompressedBundles(t *testing.T) {
	js := []byte(strings.Repeat("export const answer = 42;\n", 200))
	m, err := Load(fstest.MapFS{
		"manifest.json":        {Data: []byte(`{"quiz": {"file": "quiz-AB12.js", "imports": ["chunks/chunk-CD34.js"]}}`)},
		"quiz-AB12.js":         {Data: js},
		"chunks/chunk-CD34.js": {Data: []byte("x")},
	})
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, encoding string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if encoding != "" {
			req.Header.Set("Accept-Encoding", encoding)
		}
		rec := httptest.NewRecorder()
		m.Handler().ServeHTTP(rec, req)
		return rec
	}

	rec := get(Prefix+"quiz-AB12.js", "gzip, br")
	if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/javascript") {
		t.Fatalf("gzip answer: %d %v", rec.Code, rec.Header())
	}
	if rec.Body.Len() >= len(js)/4 {
		t.Errorf("compressed %d bytes of %d", rec.Body.Len(), len(js))
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := io.ReadAll(zr); err != nil || !bytes.Equal(got, js) {
		t.Fatalf("decompressed bundle differs (%v)", err)
	}
	if !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") || rec.Header().Get("Vary") != "Accept-Encoding" {
		t.Errorf("headers: %v", rec.Header())
	}

	rec = get(Prefix+"quiz-AB12.js", "")
	if rec.Header().Get("Content-Encoding") != "" || !bytes.Equal(rec.Body.Bytes(), js) {
		t.Fatalf("plain answer: %v %d bytes", rec.Header(), rec.Body.Len())
	}
	// A file gzip would not shrink is served as it is.
	if rec := get(Prefix+"chunks/chunk-CD34.js", "gzip"); rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != "x" {
		t.Fatalf("tiny chunk: %v %q", rec.Header(), rec.Body.String())
	}
	if rec := get(Prefix+"missing.js", "gzip"); rec.Code != http.StatusNotFound {
		t.Fatalf("missing bundle: %d", rec.Code)
	}
}
