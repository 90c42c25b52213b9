package httpx

import (
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// minGzip is the smallest body worth compressing.
const minGzip = 1024

// gzipWriters keeps gzip writers at level 1 for reuse. A writer costs about
// 1 MB (flate keeps its hash tables inline), so compress takes one only once
// a body has passed minGzip bytes, usually when the page is rendered at the
// end of the handler. echo's Gzip middleware takes one for the whole request:
// under the visitor mix, requests waiting for the database held tens of
// megabytes of them (docs/performance.md).
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed)
	return w
}}

func getGzip(w io.Writer) *gzip.Writer {
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(w)
	return zw
}

// putGzip ends a writer's stream and returns it to the pool.
func putGzip(zw *gzip.Writer) error {
	err := zw.Close()
	zw.Reset(io.Discard)
	gzipWriters.Put(zw)
	return err
}

// compress gzips answers of minGzip bytes or more for clients that accept
// it, unless skip says the handler compresses its own (or the body is
// compressed already). Smaller answers, and answers a handler encoded
// itself, go out as they are.
func compress(skip func(echo.Context) bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if skip(c) {
				return next(c)
			}
			res := c.Response()
			res.Header().Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
			if !strings.Contains(c.Request().Header.Get(echo.HeaderAcceptEncoding), "gzip") {
				return next(c)
			}
			gw := &gzipWriter{ResponseWriter: res.Writer}
			res.Writer = gw
			err := next(c)
			// An error page is written after this returns, by echo's error
			// handler: straight to the client when nothing was written yet.
			res.Writer = gw.ResponseWriter
			if ferr := gw.finish(); err == nil {
				err = ferr
			}
			return err
		}
	}
}

// gzipWriter holds back the status and the first minGzip bytes of a body
// until it knows whether to compress.
type gzipWriter struct {
	http.ResponseWriter
	code  int
	buf   []byte
	zw    *gzip.Writer
	plain bool
}

// Unwrap lets acceptsGzip see that this answer is compressed here.
func (w *gzipWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *gzipWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *gzipWriter) Write(p []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	switch {
	case w.zw != nil:
		return w.zw.Write(p)
	case w.plain:
		return w.ResponseWriter.Write(p)
	case w.Header().Get(echo.HeaderContentEncoding) != "":
		// The handler encoded its answer itself.
		w.plain = true
		if err := w.flushPlain(); err != nil {
			return 0, err
		}
		return w.ResponseWriter.Write(p)
	}
	w.buf = append(w.buf, p...)
	if len(w.buf) >= minGzip {
		if err := w.start(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// start sends the headers of a compressed answer and what is held back.
func (w *gzipWriter) start() error {
	h := w.Header()
	if h.Get(echo.HeaderContentType) == "" {
		h.Set(echo.HeaderContentType, http.DetectContentType(w.buf))
	}
	h.Set(echo.HeaderContentEncoding, "gzip")
	h.Del(echo.HeaderContentLength)
	w.ResponseWriter.WriteHeader(w.code)
	w.zw = getGzip(w.ResponseWriter)
	_, err := w.zw.Write(w.buf)
	w.buf = nil
	return err
}

// flushPlain sends the status and what is held back, uncompressed.
func (w *gzipWriter) flushPlain() error {
	w.plain = true
	w.ResponseWriter.WriteHeader(w.code)
	_, err := w.ResponseWriter.Write(w.buf)
	w.buf = nil
	return err
}

// Flush sends what is written so far: a streamed answer is compressed.
func (w *gzipWriter) Flush() {
	if w.zw == nil && !w.plain && w.code != 0 {
		w.start() //nolint:errcheck // the client is gone; the handler's next write says so
	}
	if w.zw != nil {
		w.zw.Flush() //nolint:errcheck // as above
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// finish ends the answer: the gzip stream's end, or the small body as it is.
func (w *gzipWriter) finish() error {
	switch {
	case w.zw != nil:
		zw := w.zw
		w.zw = nil
		return putGzip(zw)
	case !w.plain && w.code != 0:
		return w.flushPlain()
	}
	return nil
}
