package mail_test

import (
	"regexp"
	"strings"
	"testing"

	"selfmap/internal/i18n"
	"selfmap/internal/mail"
	"selfmap/locales"
)

// messageID is an untranslated id such as mail.receipt.order ("e-mail." is
// text).
var messageID = regexp.MustCompile(`\b(mail|retrieve|meta)\.[a-z_]+`)

// Every kind composes in every locale: both parts carry the link, no
// message id or missing value shows, and what came from outside is escaped
// in the HTML part.
func TestComposeEveryKindInEveryLocale(t *testing.T) {
	catalog, err := i18n.Load(locales.Files)
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := mail.LoadTemplates()
	if err != nil {
		t.Fatal(err)
	}
	data := mail.Data{
		Vars:        map[string]any{"Order": "SM261122-ABCDEFGH", "Product": "Full report", "Total": "$9.99", "Type": "INTJ-A<script>", "Hours": 24},
		BaseURL:     "https://selfmap.test",
		RetrieveURL: "https://selfmap.test/report/retrieve/BMBTI-1807",
		ReportURL:   "https://selfmap.test/report/result/BMBTI-1807?t=tok_A-1",
		CancelURL:   "https://selfmap.test/cancel/confirm/BMBTI-1807?t=tok_C-3",
		Reports:     []mail.ReportLink{{Type: "ENFP-T", Order: "SM1", Date: "2026-11-22", URL: "https://selfmap.test/report/result/BMBTI-1807?t=tok_B-2"}},
	}
	for _, l := range i18n.Locales {
		tr := catalog.Translator(l)
		for kind, want := range map[string]string{mail.KindReceipt: "SM261122-ABCDEFGH", mail.KindReportReady: "tok_A-1", mail.KindRetrieval: "tok_B-2",
			mail.KindCancelLink: "tok_C-3"} {
			c, err := tpl.Compose(kind, tr, data)
			if err != nil {
				t.Fatalf("%s %s: %v", l.Tag, kind, err)
			}
			if c.Subject == "" || messageID.MatchString(c.Subject) || c.Kind != kind {
				t.Errorf("%s %s: subject %q", l.Tag, kind, c.Subject)
			}
			for part, body := range map[string]string{"text": c.Text, "html": c.HTML} {
				if !strings.Contains(body, want) || !strings.Contains(body, data.RetrieveURL) {
					t.Errorf("%s %s %s lacks %q or the retrieval link", l.Tag, kind, part, want)
				}
				if messageID.MatchString(body) || strings.Contains(body, "<no value>") {
					t.Errorf("%s %s %s shows a message id or a missing value:\n%s", l.Tag, kind, part, body)
				}
			}
			if !strings.Contains(c.HTML, `<html lang="`+l.Tag+`">`) || strings.Contains(c.HTML, "<script>") {
				t.Errorf("%s %s: HTML without its lang or with unescaped input", l.Tag, kind)
			}
		}
	}
}
