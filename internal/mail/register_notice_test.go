package mail_test

import (
	"regexp"
	"strings"
	"testing"

	"selfmap/internal/i18n"
	"selfmap/internal/mail"
	"selfmap/locales"
)

// mailedDigits is what a six-digit code would look like in a mail.
var mailedDigits = regexp.MustCompile(`\b\d{6}\b`)

// The register notice composes in every locale with both links in both
// parts, no code, no message id and no missing value.
func TestRegisterNoticeInEveryLocale(t *testing.T) {
	catalog, err := i18n.Load(locales.Files)
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := mail.LoadTemplates()
	if err != nil {
		t.Fatal(err)
	}
	login, reset := "https://selfmap.test/fr/user/login", "https://selfmap.test/fr/user/forgot-password"
	d := mail.Data{Vars: map[string]any{"LoginURL": login, "ResetURL": reset}, RetrieveURL: "https://selfmap.test/report/retrieve/BMBTI-1807"}
	for _, l := range i18n.Locales {
		c, err := tpl.Compose(mail.KindRegisterNotice, catalog.Translator(l), d)
		if err != nil {
			t.Fatalf("%s: %v", l.Tag, err)
		}
		if c.Kind != mail.KindRegisterNotice || c.Subject == "" || messageID.MatchString(c.Subject) {
			t.Errorf("%s: kind %q, subject %q", l.Tag, c.Kind, c.Subject)
		}
		for part, body := range map[string]string{"text": c.Text, "html": c.HTML} {
			if !strings.Contains(body, login) || !strings.Contains(body, reset) {
				t.Errorf("%s %s lacks a link:\n%s", l.Tag, part, body)
			}
			if messageID.MatchString(body) || strings.Contains(body, "<no value>") || mailedDigits.MatchString(body) {
				t.Errorf("%s %s shows a message id, a missing value or a code:\n%s", l.Tag, part, body)
			}
		}
	}
}
