package httpx

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

func TestCompress(t *testing.T) {
	big := strings.Repeat("<p>a page long enough to be worth compressing</p>\n", 60)
	cases := []struct {
		name     string
		accept   string
		handler  echo.HandlerFunc
		status   int
		gzipped  bool
		wantBody string
	}{
		{"a page", "gzip, br", func(c echo.Context) error { return c.HTML(http.StatusOK, big) }, 200, true, big},
		{"a page written in pieces", "gzip", func(c echo.Context) error {
			c.Response().WriteHeader(http.StatusCreated)
			for _, part := range strings.SplitAfter(big, "\n") {
				if _, err := c.Response().Write([]byte(part)); err != nil {
					return err
				}
			}
			return nil
		}, 201, true, big},
		{"a client without gzip", "", func(c echo.Context) error { return c.HTML(http.StatusOK, big) }, 200, false, big},
		{"a small answer", "gzip", func(c echo.Context) error { return c.JSON(http.StatusAccepted, map[string]int{"result": 200}) },
			202, false, `{"result":200}` + "\n"},
		{"an error before any write", "gzip", func(echo.Context) error { return echo.ErrNotFound }, 404, false,
			`{"message":"Not Found"}` + "\n"},
		{"no body", "gzip", func(c echo.Context) error { return c.NoContent(http.StatusNoContent) }, 204, false, ""},
		{"a body the handler encoded", "gzip", func(c echo.Context) error {
			c.Response().Header().Set(echo.HeaderContentEncoding, "identity-test")
			return c.Blob(http.StatusOK, "application/octet-stream", []byte(big))
		}, 200, false, big},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := echo.New()
			e.Use(compress(func(echo.Context) bool { return false }))
			e.GET("/", tc.handler)
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			if tc.accept != "" {
				req.Header.Set(echo.HeaderAcceptEncoding, tc.accept)
			}
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			if rec.Code != tc.status {
				t.Errorf("status %d, want %d", rec.Code, tc.status)
			}
			if got := rec.Header().Get(echo.HeaderVary); got != echo.HeaderAcceptEncoding {
				t.Errorf("Vary %q", got)
			}
			body := rec.Body.String()
			if gz := rec.Header().Get(echo.HeaderContentEncoding) == "gzip"; gz != tc.gzipped {
				t.Fatalf("gzipped %v, want %v", gz, tc.gzipped)
			}
			if tc.gzipped {
				zr, err := gzip.NewReader(rec.Body)
				if err != nil {
					t.Fatal(err)
				}
				raw, err := io.ReadAll(zr)
				if err != nil {
					t.Fatal(err)
				}
				body = string(raw)
				if rec.Header().Get(echo.HeaderContentLength) != "" {
					t.Error("a compressed answer kept the plain Content-Length")
				}
			}
			if body != tc.wantBody {
				t.Errorf("body %q..., want %q...", body[:min(len(body), 40)], tc.wantBody[:min(len(tc.wantBody), 40)])
			}
		})
	}
}

// TestCompressLeavesSkippedPagesToTheHandler: a page the handler compresses
// itself (acceptsGzip) sees an unwrapped writer only when skipped.
func TestCompressLeavesSkippedPagesToTheHandler(t *testing.T) {
	for _, skip := range []bool{true, false} {
		e := echo.New()
		e.Use(compress(func(echo.Context) bool { return skip }))
		var own bool
		e.GET("/", func(c echo.Context) error { own = acceptsGzip(c); return c.String(http.StatusOK, "ok") })
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set(echo.HeaderAcceptEncoding, "gzip")
		e.ServeHTTP(httptest.NewRecorder(), req)
		if own != skip {
			t.Errorf("skip %v: handler compresses its own answer %v", skip, own)
		}
	}
}
