// Package pagecache keeps rendered pages whose only per-visitor parts are a
// few short values (the CSP nonce, the CSRF token), and serves them without
// rendering again, gzip included: each constant part is compressed once,
// the values go between them as stored deflate blocks, and the gzip trailer
// is computed per response. A response costs a few copies and a CRC.
package pagecache

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"io"
	"sync"
	"time"
)

// Page is a rendered page split at its per-visitor values.
type Page struct {
	// parts are the constant pieces; holes[i] is the index of the value
	// that goes after parts[i] (-1 after the last piece).
	parts [][]byte
	holes []int
	// deflated are the parts compressed one by one, each ending on a byte
	// boundary (a sync flush), so they can be joined with stored blocks.
	deflated [][]byte
	size     int
	made     time.Time
}

// Compile splits html at every occurrence of the sentinels (value i is
// written where sentinels[i] stands) and compresses the pieces.
func Compile(html []byte, sentinels []string, made time.Time) (*Page, error) {
	p := &Page{made: made}
	rest := html
	for {
		at, which := -1, -1
		for i, s := range sentinels {
			if k := bytes.Index(rest, []byte(s)); k >= 0 && (at < 0 || k < at) {
				at, which = k, i
			}
		}
		if at < 0 {
			p.parts = append(p.parts, bytes.Clone(rest))
			p.holes = append(p.holes, -1)
			break
		}
		// Copies: the render's buffer is not kept alive by the cache.
		p.parts = append(p.parts, bytes.Clone(rest[:at]))
		p.holes = append(p.holes, which)
		rest = rest[at+len(sentinels[which]):]
	}
	var buf bytes.Buffer
	fw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return nil, err
	}
	for _, part := range p.parts {
		buf.Reset()
		fw.Reset(&buf)
		if _, err := fw.Write(part); err != nil {
			return nil, err
		}
		if err := fw.Flush(); err != nil {
			return nil, err
		}
		p.deflated = append(p.deflated, bytes.Clone(buf.Bytes()))
		p.size += len(part)
	}
	return p, nil
}

// Made is when the page was rendered.
func (p *Page) Made() time.Time { return p.made }

// WriteTo writes the page with the values in place, plain.
func (p *Page) WriteTo(w io.Writer, values []string) error {
	for i, part := range p.parts {
		if _, err := w.Write(part); err != nil {
			return err
		}
		if h := p.holes[i]; h >= 0 {
			if _, err := io.WriteString(w, values[h]); err != nil {
				return err
			}
		}
	}
	return nil
}

// gzipHeader is a gzip member header: deflate, no name, no time, unknown OS.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}

// WriteGzip writes the page with the values in place as one gzip member.
func (p *Page) WriteGzip(w io.Writer, values []string) error {
	crc := crc32.NewIEEE()
	size := 0
	out := make([]byte, 0, 64)
	write := func(b []byte) error { _, err := w.Write(b); return err }
	if err := write(gzipHeader); err != nil {
		return err
	}
	for i, part := range p.parts {
		crc.Write(part) //nolint:errcheck // a hash never fails
		size += len(part)
		if err := write(p.deflated[i]); err != nil {
			return err
		}
		if h := p.holes[i]; h >= 0 {
			v := values[h]
			// A stored block: BFINAL 0, BTYPE 00, byte-aligned after the
			// sync flush, then LEN, NLEN and the bytes.
			for len(v) > 0 {
				n := min(len(v), 0xffff)
				out = append(out[:0], 0, byte(n), byte(n>>8), ^byte(n), ^byte(n>>8))
				if err := write(out); err != nil {
					return err
				}
				if _, err := io.WriteString(w, v[:n]); err != nil {
					return err
				}
				io.WriteString(crc, v[:n]) //nolint:errcheck // a hash never fails
				size += n
				v = v[n:]
			}
		}
	}
	// The final block: fixed Huffman, empty (BFINAL 1, BTYPE 01, end code).
	out = append(out[:0], 0x03, 0x00)
	out = binary.LittleEndian.AppendUint32(out, crc.Sum32())
	out = binary.LittleEndian.AppendUint32(out, uint32(size))
	return write(out)
}

// Cache holds pages by key for a time.
type Cache struct {
	TTL time.Duration
	Now func() time.Time
	// Max bounds how many pages are kept; when full, pages are made per
	// request until the next ones expire.
	Max int

	mu    sync.Mutex
	pages map[string]*Page
}

// Get returns a page younger than the TTL.
func (c *Cache) Get(key string) (*Page, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pages[key]
	if !ok || c.Now().Sub(p.made) >= c.TTL {
		return nil, false
	}
	return p, true
}

// Put keeps a page, dropping expired ones when the cache is full.
func (c *Cache) Put(key string, p *Page) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pages == nil {
		c.pages = map[string]*Page{}
	}
	if len(c.pages) >= c.Max {
		now := c.Now()
		for k, old := range c.pages {
			if now.Sub(old.made) >= c.TTL {
				delete(c.pages, k)
			}
		}
		if len(c.pages) >= c.Max {
			return
		}
	}
	c.pages[key] = p
}
