package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"selfmap/app/apptest"
)

// The full report opens for the browser that took the test and for a
// report link, and for nobody else; its two tabs carry every section, the
// figures come from stored results, and the rating is kept.
func TestFullReport(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, b := k.Store, newBrowser(t, k.Handler)
		token := b.CSRFToken("/")
		result, _ := b.PaidReport(token)

		page := b.Get("/report/result/BMBTI-1807?r=" + result)
		body := page.Body.String()
		if page.Code != 200 {
			t.Fatalf("report: %d", page.Code)
		}
		for _, want := range []string{`data-testid="type-code"`, `data-testid="keywords"`, `data-testid="population"`,
			`data-testid="tab-dimensions"`, `data-testid="about-test"`, "International Personality Item Pool", `data-testid="rating"`,
			"%2Ftypes%2FBMBTI-1807%2F", `data-testid="download-pdf"`} {
			if !strings.Contains(body, want) {
				t.Errorf("overview lacks %s", want)
			}
		}
		if m := messageID.FindString(body); m != "" {
			t.Errorf("a message id is shown instead of its text: %s", m)
		}
		if strings.Contains(body, "?r="+result+"&amp;") && strings.Contains(body, "facebook.com/sharer/sharer.php?u=") &&
			strings.Contains(body, "sharer.php?u="+url.QueryEscape("http://selfmap.test/report")) {
			t.Error("a share link carries the private report")
		}
		dims := b.Get("/report/result/BMBTI-1807?tab=dimensions&r=" + result).Body.String()
		if n := strings.Count(dims, `class="lean"`); n != 4 {
			t.Errorf("%d letters in the dimension analysis, want 4", n)
		}
		if n := strings.Count(dims, `class="scale scale-small"`); n != 30 {
			t.Errorf("%d facets, want 30", n)
		}
		for _, want := range []string{`data-testid="ranking"`, `data-testid="countries"`, "120"} {
			if !strings.Contains(dims, want) {
				t.Errorf("dimensions lack %s", want)
			}
		}

		// A report link opens it for anyone holding it; a wrong one is a
		// missing page, as is the link of a report nobody paid for.
		ctx := context.Background()
		if err := s.AddReportLink(ctx, s.DB, result, "link-token-1", k.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		stranger := newBrowser(t, b.Handler)
		stranger.CSRFToken("/")
		if rec := stranger.Get("/ko/report/result/BMBTI-1807?t=link-token-1"); rec.Code != 200 || !strings.Contains(rec.Body.String(), `lang="ko"`) {
			t.Errorf("report link: %d", rec.Code)
		}
		missing := stranger.Get("/report/result/BMBTI-1807?t=no-such-token")
		if missing.Code != 404 {
			t.Errorf("a wrong token: %d", missing.Code)
		}
		if rec := stranger.Get("/report/result/BMBTI-1807?r=" + result); rec.Code != 404 {
			t.Errorf("someone else's report by id: %d", rec.Code)
		}
		unpaid := b.PostJSON("/api/exam/order/info", token, apptest.Submission(t, func(i int) int { return 1 }))
		var sub struct{ Data struct{ ResultID string } }
		if err := jsonDecode(unpaid.Body.Bytes(), &sub); err != nil {
			t.Fatal(err)
		}
		if err := s.AddReportLink(ctx, s.DB, sub.Data.ResultID, "unpaid-token", k.Clock.Now()); err != nil {
			t.Fatal(err)
		}
		if rec := stranger.Get("/report/result/BMBTI-1807?t=unpaid-token"); rec.Code != 404 {
			t.Errorf("the link of an unpaid report: %d", rec.Code)
		}
		if rec := b.Get("/report/result/BMBTI-1807?r=" + sub.Data.ResultID); rec.Code != 303 || !strings.Contains(rec.Header().Get("Location"), "/paying/buyreport/") {
			t.Errorf("an unpaid report for its own browser: %d %s", rec.Code, rec.Header().Get("Location"))
		}

		// The accuracy rating: out of range is refused, 1-5 is kept once.
		rec := b.PostForm("/report/rating/BMBTI-1807?r="+result, url.Values{"_csrf": {token}, "score": {"9"}})
		if loc := rec.Header().Get("Location"); rec.Code != 303 || !strings.Contains(loc, "rating=invalid") {
			t.Errorf("rating 9: %d %s", rec.Code, loc)
		}
		for _, score := range []string{"2", "4"} {
			if rec := b.PostForm("/report/rating/BMBTI-1807?r="+result, url.Values{"_csrf": {token}, "score": {score}}); rec.Code != 303 {
				t.Fatalf("rating %s: %d", score, rec.Code)
			}
		}
		var got int
		if err := s.DB.Get(&got, s.DB.Rebind(`SELECT score FROM ratings WHERE result_id = ?`), result); err != nil || got != 4 {
			t.Errorf("stored rating %d (%v), want the last one, 4", got, err)
		}
		if !strings.Contains(b.Get("/report/result/BMBTI-1807?r="+result).Body.String(), `data-testid="rating-thanks"`) {
			t.Error("no thanks after rating")
		}
		if rec := stranger.PostForm("/report/rating/BMBTI-1807?r="+result, url.Values{"_csrf": {token}, "score": {"1"}}); rec.Code == 303 {
			t.Error("a stranger rated someone else's report")
		}
	})
}

// The PDF: printed by Chromium from the report's own markup, named after
// the order, several pages, its Korean text readable by pdftotext, made
// once and then served from the database.
func TestReportPDF(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil && os.Getenv("CI") != "true" {
		t.Skip("chromium is not installed")
	}
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, b := k.Store, newBrowser(t, k.Handler)
		token := b.CSRFToken("/ko/")
		result, order := b.PaidReport(token)

		start := time.Now()
		rec := b.Get("/ko/report/result-download/BMBTI-1807?r=" + result)
		t.Logf("the Korean PDF took %s to make: %d bytes", time.Since(start).Round(time.Millisecond), rec.Body.Len())
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/pdf" {
			t.Fatalf("download: %d %s %.300s", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
		}
		if cd := rec.Header().Get("Content-Disposition"); !strings.Contains(cd, order) {
			t.Errorf("file name %q lacks the order number %s", cd, order)
		}
		pdf := rec.Body.Bytes()
		var pages int
		if err := s.DB.Get(&pages, s.DB.Rebind(`SELECT pages FROM report_pdfs WHERE result_id = ? AND locale = 'ko'`), result); err != nil || pages < 4 {
			t.Errorf("pages %d (%v), want a multi-page report", pages, err)
		}
		if _, err := exec.LookPath("pdftotext"); err == nil || os.Getenv("CI") == "true" {
			cmd := exec.Command("pdftotext", "-", "-")
			cmd.Stdin = bytes.NewReader(pdf)
			text, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"성격", order} {
				if !strings.Contains(string(text), want) {
					t.Errorf("the PDF's text lacks %q", want)
				}
			}
			// Pages as pictures, for a person to look at.
			if _, err := exec.LookPath("pdftoppm"); err == nil {
				dir := filepath.Join("..", "test-artifacts", "pdf")
				if err := os.MkdirAll(dir, 0o755); err == nil {
					cmd := exec.Command("pdftoppm", "-r", "60", "-png", "-f", "1", "-l", "6", "-", filepath.Join(dir, "report-ko"))
					cmd.Stdin = bytes.NewReader(pdf)
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Errorf("pdftoppm: %v %s", err, out)
					}
				}
			}
			if dir := os.Getenv("PDF_ARTIFACTS"); dir != "" {
				os.WriteFile(dir+"/report-ko.pdf", pdf, 0o644) //nolint:errcheck // a look, not a check
				for _, prefix := range []string{"", "/zh-cn"} {
					rec := b.Get(prefix + "/report/result-download/BMBTI-1807?r=" + result)
					name := map[string]string{"": "en", "/zh-cn": "zh-CN"}[prefix]
					os.WriteFile(dir+"/report-"+name+".pdf", rec.Body.Bytes(), 0o644) //nolint:errcheck // a look, not a check
				}
			}
		}
		again := b.Get("/ko/report/result-download/BMBTI-1807?r=" + result)
		if !bytes.Equal(again.Body.Bytes(), pdf) {
			t.Error("the second download printed a new PDF instead of serving the kept one")
		}
		// The waiting page, looking again, finds the file: it stops its
		// spinner, says so and starts the download, instead of answering
		// with the file and spinning on.
		ready := b.Get("/ko/report/result-download/BMBTI-1807?r=" + result + "&try=3").Body.String()
		if !strings.Contains(ready, `data-testid="pdf-ready"`) || strings.Contains(ready, `class="spinner"`) ||
			!strings.Contains(ready, `content="0; url=/ko/report/result-download/BMBTI-1807?r=`+result+`"`) {
			t.Errorf("the waiting page once the PDF is ready: %.600s", between(ready, "<head>", "</head>"))
		}
		info := b.PostJSON("/api/exam/order/file/down/info?hl=KR", token, map[string]string{"orderNumber": order}).Body.String()
		if !strings.Contains(info, `"status":"ready"`) || !strings.Contains(info, `"locale":"ko"`) {
			t.Errorf("file info: %s", info)
		}
		other := newBrowser(t, b.Handler)
		otherToken := other.CSRFToken("/")
		if rec := other.PostJSON("/api/exam/order/file/down/info", otherToken, map[string]string{"orderNumber": order}); rec.Code != 404 {
			t.Errorf("a stranger's file info: %d", rec.Code)
		}
		if rec := other.Get("/report/result-download/BMBTI-1807?r=" + result); rec.Code != 404 {
			t.Errorf("a stranger's download: %d", rec.Code)
		}
	})
}

// With the job queue running (serve), a download asks the report_pdf job
// for the PDF and the waiting page finds it once the job has printed it.
func TestReportPDFThroughTheJobQueue(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil && os.Getenv("CI") != "true" {
		t.Skip("chromium is not installed")
	}
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		r := k.PaidReport(t)
		b, result, order := &browser{r.Owner}, r.ResultID, r.OrderNumber
		if rec := b.Get("/report/result-download/BMBTI-1807?r=" + result); rec.Code != http.StatusAccepted {
			t.Fatalf("first download with a queue: %d, want 202 while the job prints", rec.Code)
		}
		deadline := time.Now().Add(90 * time.Second)
		for try := 1; ; try++ {
			rec := b.Get("/report/result-download/BMBTI-1807?r=" + result + "&try=" + strconv.Itoa(try))
			if strings.Contains(rec.Body.String(), `data-testid="pdf-ready"`) {
				break
			}
			if rec.Code != http.StatusAccepted || time.Now().After(deadline) {
				t.Fatalf("waiting page, try %d: %d", try, rec.Code)
			}
			time.Sleep(500 * time.Millisecond)
		}
		rec := b.Get("/report/result-download/BMBTI-1807?r=" + result)
		if rec.Code != 200 || !bytes.HasPrefix(rec.Body.Bytes(), []byte("%PDF")) || !strings.Contains(rec.Header().Get("Content-Disposition"), order) {
			t.Fatalf("download once printed: %d %s", rec.Code, rec.Header().Get("Content-Disposition"))
		}
	}, apptest.WithJobs())
}

// messageID finds a message id of ours left in a page's text.
var messageID = regexp.MustCompile(`>[^<]*\b(report|typeprofile|pack|package)\.[a-z_]+\.[a-zA-Z0-9_.]+`)

func jsonDecode(b []byte, into any) error { return json.Unmarshal(b, into) }

// Every type has a social card; its page points at it; nothing else is one.
func TestSocialCards(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		b := newBrowser(t, e)
		rec := b.Get("/og/type/enfp.png")
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/png" || !bytes.HasPrefix(rec.Body.Bytes(), []byte("\x89PNG")) {
			t.Fatalf("card: %d %s", rec.Code, rec.Header().Get("Content-Type"))
		}
		for _, bad := range []string{"/og/type/zzzz.png", "/og/type/enfp.jpg", "/og/type/enfp-a.png"} {
			if rec := b.Get(bad); rec.Code != 404 {
				t.Errorf("%s: %d", bad, rec.Code)
			}
		}
		page := b.Get("/ja/types/BMBTI-1807/enfp").Body.String()
		if !strings.Contains(page, `<meta property="og:image" content="http://selfmap.test/og/type/enfp.png">`) {
			t.Error("the type page does not name its card")
		}
	})
}

// A paid buyer whose order cannot be read (the database failing, as in a
// restart) gets an error page, not the buy page: a failure to read is not
// "unpaid".
func TestReportWhenTheOrderCannotBeRead(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, b := k.Store, newBrowser(t, k.Handler)
		result, _ := b.PaidReport(b.CSRFToken("/"))
		if rec := b.Get("/report/result/BMBTI-1807?r=" + result); rec.Code != 200 {
			t.Fatalf("paid report: %d", rec.Code)
		}
		if _, err := s.DB.Exec(`ALTER TABLE orders RENAME TO orders_away`); err != nil {
			t.Fatal(err)
		}
		defer s.DB.Exec(`ALTER TABLE orders_away RENAME TO orders`)
		rec := b.Get("/report/result/BMBTI-1807?r=" + result)
		if rec.Code != http.StatusInternalServerError || strings.Contains(rec.Header().Get("Location"), "buyreport") {
			t.Fatalf("report with the orders unreadable: %d %s", rec.Code, rec.Header().Get("Location"))
		}
	})
}
