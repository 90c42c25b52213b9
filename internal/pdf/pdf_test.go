package pdf

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// printer finds Chromium; CI installs it, so there it must be present.
func printer(t *testing.T) *Printer {
	t.Helper()
	p, err := Find(os.Getenv("CHROMIUM_PATH"))
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return p
}

// A two-page document prints as a two-page PDF whose text (Korean
// included) pdftotext reads back.
func TestPrintCountsPagesAndKeepsText(t *testing.T) {
	p := printer(t)
	html := `<!doctype html><html lang="ko"><meta charset="utf-8"><style>@page{size:A4;margin:20mm}.p{break-after:page}</style>
<body><p class="p">첫 번째 페이지 Selfmap</p><p>두 번째 페이지</p></body></html>`
	out, pages, err := p.Print(context.Background(), []byte(html))
	if err != nil {
		t.Fatal(err)
	}
	if pages != 2 {
		t.Fatalf("pages = %d, want 2", pages)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pdftotext (poppler-utils) is missing")
		}
		t.Skip("pdftotext not installed")
	}
	cmd := exec.Command("pdftotext", "-", "-")
	cmd.Stdin = strings.NewReader(string(out))
	text, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(text), "첫 번째 페이지") || !strings.Contains(string(text), "두 번째 페이지") {
		t.Fatalf("text of the PDF: %q", text)
	}
}
