// Package pdf prints HTML documents to PDF with headless Chromium (Debian's
// chromium package), so the PDF report is the web report's own markup and
// SVG charts, set in the system's fonts (Noto CJK for Chinese, Japanese and
// Korean).
package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"time"

	"github.com/chromedp/chromedp"
)

// ErrNotPrintable is a document that will never print (a report nobody
// paid for, an unknown locale): a job should stop trying.
var ErrNotPrintable = errors.New("pdf: not printable")

// ErrNoBrowser is a printer without a Chromium to run.
var ErrNoBrowser = errors.New("pdf: no chromium found (set CHROMIUM_PATH or install Debian's chromium)")

// Printer prints HTML with the Chromium at Path.
type Printer struct {
	Path string
	// Timeout bounds one printing, browser start included.
	Timeout time.Duration
}

// Find returns a printer for the Chromium at path, or on the PATH.
func Find(path string) (*Printer, error) {
	if path == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				path = p
				break
			}
		}
	}
	if path == "" {
		return nil, ErrNoBrowser
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoBrowser, err)
	}
	return &Printer{Path: path, Timeout: 60 * time.Second}, nil
}

// Print renders a self-contained HTML document (styles inline, no network)
// to an A4 PDF, backgrounds included, and counts its pages.
func (p *Printer) Print(ctx context.Context, html []byte) ([]byte, int, error) {
	dir, err := os.MkdirTemp("", "selfmap-pdf-")
	if err != nil {
		return nil, 0, err
	}
	defer os.RemoveAll(dir)
	doc := filepath.Join(dir, "report.html")
	if err := os.WriteFile(doc, html, 0o600); err != nil {
		return nil, 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, p.Timeout)
	defer cancel()
	// The document is whole: every host name resolves to nothing, so
	// nothing it could name is fetched.
	opts := append(Options(p.Path, filepath.Join(dir, "profile")), chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND"))
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelAlloc()
	tab, cancelTab := chromedp.NewContext(alloc)
	defer cancelTab()
	if err := chromedp.Do(tab, chromedp.Navigate("file://"+doc)); err != nil {
		return nil, 0, fmt.Errorf("pdf: load: %w", err)
	}
	if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](`document.fonts.ready.then(() => true)`, chromedp.EvalAwaitPromise)); err != nil {
		return nil, 0, fmt.Errorf("pdf: fonts: %w", err)
	}
	out, err := chromedp.Run(tab, chromedp.PrintToPDF(chromedp.PDFPaper(chromedp.PaperA4), chromedp.PDFPrintBackground(),
		chromedp.PDFPreferCSSPageSize(), chromedp.PDFOutlineAndTagged()))
	if err != nil {
		return nil, 0, fmt.Errorf("pdf: print: %w", err)
	}
	return out, Pages(out), nil
}

// Options start a headless Chromium that asks nothing of the network on its
// own (no updates, sync or background requests), with a profile of its own.
// The browser tests start theirs the same way.
// The sandbox is kept unless the process runs as root, where Chromium
// cannot start with it.
func Options(path, profile string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", os.Geteuid() == 0),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(profile),
	}
}

var pageObject = regexp.MustCompile(`/Type\s*/Page[^s]`)

// Pages counts the page objects of a PDF Chromium wrote (it does not
// compress object dictionaries).
func Pages(pdf []byte) int {
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		return 0
	}
	return len(pageObject.FindAllIndex(pdf, -1))
}
