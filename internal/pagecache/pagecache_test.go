package pagecache

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
	"time"
)

func TestGzipEqualsThePlainPage(t *testing.T) {
	html := []byte(`<html><script nonce="@N@">x</script><input value="@C@"><p>` + strings.Repeat("constant text ", 500) +
		`</p><script nonce="@N@"></script>@C@</html>`)
	p, err := Compile(html, []string{"@N@", "@C@"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, values := range [][]string{
		{"nonce123", "csrf-token-456"},
		{"", ""},
		{"n", strings.Repeat("x", 70000)},
	} {
		var plain, gz bytes.Buffer
		if err := p.WriteTo(&plain, values); err != nil {
			t.Fatal(err)
		}
		want := strings.NewReplacer("@N@", values[0], "@C@", values[1]).Replace(string(html))
		if plain.String() != want {
			t.Fatalf("plain page differs")
		}
		if err := p.WriteGzip(&gz, values); err != nil {
			t.Fatal(err)
		}
		r, err := gzip.NewReader(&gz)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("gzip stream: %v", err)
		}
		if string(got) != want {
			t.Fatalf("gzip page differs: %d bytes, want %d", len(got), len(want))
		}
	}
	if p.size >= len(html) {
		t.Errorf("the constant parts are %d of %d bytes", p.size, len(html))
	}
}

func TestCacheExpires(t *testing.T) {
	now := time.Unix(0, 0)
	c := &Cache{TTL: time.Minute, Now: func() time.Time { return now }, Max: 1}
	p, _ := Compile([]byte("x"), nil, now)
	c.Put("a", p)
	if _, ok := c.Get("a"); !ok {
		t.Fatal("a fresh page is missing")
	}
	c.Put("b", p)
	if _, ok := c.Get("b"); ok {
		t.Error("a full cache took another page")
	}
	now = now.Add(time.Minute)
	if _, ok := c.Get("a"); ok {
		t.Error("an expired page was served")
	}
	fresh, _ := Compile([]byte("y"), nil, now)
	c.Put("b", fresh)
	if _, ok := c.Get("b"); !ok {
		t.Error("expired pages were not dropped for a new one")
	}
}

// BenchmarkWriteGzip serves a 23 KB page with two per-visitor values as gzip.
func BenchmarkWriteGzip(b *testing.B) {
	html := []byte(`<html><script nonce="@N@"></script><input value="@C@">` + strings.Repeat("<p>constant text of a landing page</p>", 600) + `</html>`)
	p, err := Compile(html, []string{"@N@", "@C@"}, time.Now())
	if err != nil {
		b.Fatal(err)
	}
	values := []string{"a-nonce-of-22-chars-xy", "a-csrf-token-of-86-characters-a-csrf-token-of-86-characters-a-csrf-token-of-86-chars"}
	b.SetBytes(int64(len(html)))
	for b.Loop() {
		if err := p.WriteGzip(io.Discard, values); err != nil {
			b.Fatal(err)
		}
	}
}
