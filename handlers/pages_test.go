package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"selfmap/app/apptest"
	"selfmap/internal/store/storetest"
	"selfmap/internal/typology"
)

// The types list, the type pages, the tests page, the help centre, its
// articles, the support page and the legal documents, in English and
// other locales, and their API calls.
func TestContentPages(t *testing.T) {
	scenarios := []scenario{
		{name: "types list", url: "/types/BMBTI-1807", status: 200, contains: []string{
			`<h1 id="types-title" data-testid="types-title">The 16 personality types</h1>`, "The Quiet Cartographer",
			`href="/types/BMBTI-1807/intj"`, `href="/types/BMBTI-1807/esfp"`, `"@type":"CollectionPage"`, `"numberOfItems":16`,
			`href="/answer/question/BMBTI-1807"`, `<link rel="canonical" href="http://selfmap.test/types/BMBTI-1807">`, "/assets/static/css/pages."}},
		{name: "types list in Japanese", url: "/ja/types/BMBTI-1807", status: 200, contains: []string{`<html lang="ja">`, `href="/ja/types/BMBTI-1807/intj"`,
			"16の性格タイプ | Selfmap", "ビジョンを描く思考派"}},
		{name: "a type page", url: "/types/BMBTI-1807/intj?gclid=g1", status: 200, contains: []string{
			"The Quiet Cartographer", `data-testid="section-strengths"`, `data-testid="section-growth"`,
			"You tend to see the whole system at once", `"@type":"Article"`, `"@type":"BreadcrumbList"`, `"inLanguage":"en"`,
			`<link rel="canonical" href="http://selfmap.test/types/BMBTI-1807/intj">`, `hreflang="ko" href="http://selfmap.test/ko/types/BMBTI-1807/intj"`,
			`href="/answer/question/BMBTI-1807?gclid=g1"`, `href="/types/BMBTI-1807/entj"`, "INTJ-A", "Extraversion"},
			notContain: []string{"typeprofile.", "typepage.", "{{"}},
		{name: "a type page in Korean", url: "/ko/types/BMBTI-1807/enfp", status: 200, contains: []string{`<html lang="ko">`, `"inLanguage":"ko"`,
			`href="/ko/answer/question/BMBTI-1807"`, "강점", "열정적이고 창의적이며", "ENFP 성격 유형"}},
		{name: "a type page in Hong Kong Chinese", url: "/zh-hk/types/BMBTI-1807/istj", status: 200, contains: []string{"優勢", "你往往可靠、有條理"}},
		{name: "a type code in capitals moves to lower case", url: "/fr/types/BMBTI-1807/INTJ?gclid=1", status: 301, location: "/fr/types/BMBTI-1807/intj?gclid=1"},
		{name: "an unknown type", url: "/types/BMBTI-1807/abcd", status: 404, contains: []string{"Page Not Found: /types/BMBTI-1807/abcd"}},
		{name: "a type with its identity letter", url: "/types/BMBTI-1807/intj-a", status: 404},
		{name: "a type page of an unknown pair", url: "/types/NOPE-1807/intj", status: 404},
		{name: "tests page", url: "/tests/BMBTI-1807", status: 200, contains: []string{
			`data-testid="test-1807"`, "16-type personality test", "120 statements", "10–15 minutes", "in 3 parts", "IPIP-NEO-120",
			`href="/answer/question/BMBTI-1807"`, `"@type":"ItemList"`}},
		{name: "tests page in German", url: "/de/tests/BMBTI-1807", status: 200, contains: []string{`<html lang="de">`, `href="/de/answer/question/BMBTI-1807"`,
			"120 Aussagen", "in 3 Teilen"}},
		{name: "help centre", url: "/help/BMBTI-1807", status: 200, contains: []string{
			"Subscription management", "Billing and payments", "Legal and policies", "Contact support", "Can I get a refund?",
			`"@type":"FAQPage"`, `"@type":"Question"`, `href="/helpDetail/BMBTI-1807?id=refunds"`, `href="/legal/privacy/BMBTI-1807"`}},
		{name: "help centre in Spanish", url: "/es/help/BMBTI-1807", status: 200, contains: []string{`<html lang="es">`,
			`href="/es/helpDetail/BMBTI-1807?id=refunds"`, `href="/es/support/BMBTI-1807"`, "Gestión de la suscripción", "¿Puedo obtener un reembolso?"}},
		{name: "a help article", url: "/helpDetail/BMBTI-1807?id=refunds", status: 200, contains: []string{
			`data-testid="help-article"`, "Can I get a refund?", "Can I get a refund? | Selfmap",
			`<link rel="canonical" href="http://selfmap.test/helpDetail/BMBTI-1807?id=refunds">`,
			`hreflang="ja" href="http://selfmap.test/ja/helpDetail/BMBTI-1807?id=refunds"`, `href="/support/BMBTI-1807"`,
			"More in this section", `href="/helpDetail/BMBTI-1807?id=payment-methods"`, `"@type":"BreadcrumbList"`},
			notContain: []string{`href="/helpDetail/BMBTI-1807?id=refunds">Can I get`}},
		{name: "a help article in Chinese", url: "/zh-cn/helpDetail/BMBTI-1807?id=cancel-subscription", status: 200, contains: []string{`<html lang="zh-CN">`,
			"怎样取消订阅？", `<link rel="canonical" href="http://selfmap.test/zh-cn/helpDetail/BMBTI-1807?id=cancel-subscription">`}},
		{name: "an unknown article", url: "/helpDetail/BMBTI-1807?id=nope", status: 404},
		{name: "a malformed article id", url: "/helpDetail/BMBTI-1807?id=..%2Frefunds", status: 404},
		{name: "an article page without an id", url: "/fr/helpDetail/BMBTI-1807?gclid=1", status: 303, location: "/fr/help/BMBTI-1807?gclid=1"},
		{name: "the old article path", url: "/help-detail/BMBTI-1807?id=refunds", status: 301, location: "/helpDetail/BMBTI-1807?id=refunds"},
		{name: "support page", url: "/support/BMBTI-1807", status: 200, contains: []string{
			`data-testid="contact-form"`, `action="/support/BMBTI-1807"`, `name="_csrf"`, `<option value="billing">`,
			`maxlength="3000"`, `href="/helpDetail/BMBTI-1807?id=cancel-subscription"`, `href="/legal/privacy/BMBTI-1807"`}},
		{name: "support page in Portuguese", url: "/pt/support/BMBTI-1807", status: 200, contains: []string{`<html lang="pt">`, `action="/pt/support/BMBTI-1807"`,
			"Falar com o suporte", "Privacidade e meus dados"}},
		{name: "privacy policy", url: "/legal/privacy/BMBTI-1807", status: 200, contains: []string{
			`data-testid="legal-document"`, "Privacy policy", "Last updated: 22 November 2026", `href="#part-1"`, `<h2 id="part-1">`,
			`href="/support/BMBTI-1807"`, `aria-current="page">Privacy policy`, `href="/legal/cookies/BMBTI-1807"`}},
		{name: "terms of service", url: "/legal/terms/BMBTI-1807", status: 200, contains: []string{"Terms of service", `href="/legal/subscription-terms/BMBTI-1807"`}},
		{name: "subscription terms", url: "/legal/subscription-terms/BMBTI-1807", status: 200, contains: []string{"Cancel any time", "not refunded after activation"}},
		{name: "cookie policy in Korean", url: "/ko/legal/cookies/BMBTI-1807", status: 200, contains: []string{`<html lang="ko">`, "sm_session", "i18n_redirected", "쿠키 정책"}},
		{name: "subscription terms in French", url: "/fr/legal/subscription-terms/BMBTI-1807", status: 200, contains: []string{"Conditions d’abonnement", "Résiliation à tout moment", "Dernière mise à jour\u00a0: 22 novembre 2026"}},
		{name: "an unknown legal document", url: "/legal/nope/BMBTI-1807", status: 404},
		{name: "header and footer link every content page", url: "/", status: 200, contains: []string{
			`href="/types/BMBTI-1807"`, `href="/tests/BMBTI-1807"`, `href="/help/BMBTI-1807"`, `href="/support/BMBTI-1807"`,
			`href="/legal/privacy/BMBTI-1807"`, `href="/legal/terms/BMBTI-1807"`, `href="/legal/subscription-terms/BMBTI-1807"`, `href="/legal/cookies/BMBTI-1807"`, `href="/report/retrieve/BMBTI-1807"`, `href="/user/login"`},
			notContain: []string{`href="/userCenter"`}},
		{name: "sitemap lists the content pages", url: "/sitemap.xml", status: 200, contains: []string{
			"<loc>http://selfmap.test/types/BMBTI-1807</loc>", "<loc>http://selfmap.test/ja/types/BMBTI-1807/istp</loc>",
			"<loc>http://selfmap.test/tests/BMBTI-1807</loc>", "<loc>http://selfmap.test/de/help/BMBTI-1807</loc>",
			"<loc>http://selfmap.test/helpDetail/BMBTI-1807?id=refunds</loc>", "<loc>http://selfmap.test/support/BMBTI-1807</loc>",
			"<loc>http://selfmap.test/zh-hk/legal/subscription-terms/BMBTI-1807</loc>",
			`hreflang="fr" href="http://selfmap.test/fr/legal/cookies/BMBTI-1807"`}},

		{name: "API help list", url: "/api/app/help/list/1807/EN", status: 200, contains: []string{
			`"result":200`, `"id":"refunds"`, `"section":"billing"`, `"sectionTitle":"Billing and payments"`, `"title":"Can I get a refund?"`},
			notContain: []string{`"content"`}},
		{name: "API help list in Japanese by tag", url: "/api/app/help/list/1807/ja", status: 200, contains: []string{`"locale":"ja"`}},
		{name: "API help list of an unknown exam", url: "/api/app/help/list/99/EN", status: 404, contains: []string{`"result":404`}},
		{name: "API help list in an unknown language", url: "/api/app/help/list/1807/XX", status: 400, contains: []string{`"result":400`, "hl"}},
		{name: "API help info", url: "/api/app/help/info/refunds", status: 200, contains: []string{`"id":"refunds"`, `"content":"You can cancel`, `"locale":"en"`}},
		{name: "API help info in French", url: "/api/app/help/info/refunds?hl=FR", status: 200, contains: []string{`"locale":"fr"`}},
		{name: "API help info of an unknown article", url: "/api/app/help/info/nope", status: 404, contains: []string{`"result":404`, "Not found."}},
		{name: "API protocol list", url: "/api/app/protocol/list/1807/DE", status: 200, contains: []string{
			`"id":"terms","flag":1`, `"id":"privacy","flag":2`, `"id":"subscription-terms","flag":3`, `"id":"cookies","flag":4`,
			`"url":"http://selfmap.test/de/legal/privacy/BMBTI-1807"`, `"locale":"de"`}, notContain: []string{`"content"`}},
		{name: "API privacy and agreement", url: "/api/app/protocol/getPrivacyAndAgreement/1807/EN", status: 200, contains: []string{
			`"privacy":{"id":"privacy","flag":2`, `"agreement":{"id":"terms","flag":1`, `"content":"This policy explains`}},
		{name: "API protocol list of an unknown exam", url: "/api/app/protocol/list/5/EN", status: 404},
		{name: "API protocol info", url: "/api/app/protocol/info/subscription-terms?hl=KR", status: 200, contains: []string{`"flag":3`, `"locale":"ko"`, `"content":"`}},
		{name: "API protocol info of an unknown document", url: "/api/app/protocol/info/nope", status: 404},
	}
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		e := k.Handler
		for _, sc := range scenarios {
			t.Run(sc.name, func(t *testing.T) { sc.run(t, e) })
		}
		// Every type has its page, in every part.
		for _, code := range typology.Codes {
			scenario{url: "/types/BMBTI-1807/" + strings.ToLower(code), status: 200, contains: []string{code},
				notContain: []string{"typeprofile." + code, "type." + code}}.run(t, e)
		}
	})
}

// Structured data is valid JSON with the schema.org context.
func TestStructuredDataParses(t *testing.T) {
	e := apptest.New(t, storetest.SQLite(t)).Handler
	ld := regexp.MustCompile(`(?s)<script type="application/ld\+json" nonce="[^"]+">(.*?)</script>`)
	for _, path := range []string{"/types/BMBTI-1807", "/ja/types/BMBTI-1807/isfj", "/tests/BMBTI-1807", "/help/BMBTI-1807", "/helpDetail/BMBTI-1807?id=refunds", "/legal/terms/BMBTI-1807"} {
		body := scenario{url: path, status: 200}.run(t, e).Body.String()
		m := ld.FindStringSubmatch(body)
		if m == nil {
			t.Errorf("%s has no JSON-LD", path)
			continue
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(m[1]), &v); err != nil || v["@context"] != "https://schema.org" {
			t.Errorf("%s: JSON-LD %v, %v", path, v["@context"], err)
		}
	}
}

func contactForm(b *browser, path, token string, fields map[string]string) *httptest.ResponseRecorder {
	form := url.Values{"_csrf": {token}}
	for k, v := range fields {
		form.Set(k, v)
	}
	return b.PostForm(path, form)
}

// The contact form: refused without a token, shown again with every value
// and a localized message per field when invalid (stored nowhere), and
// stored with its mail queued when valid.
func TestContactForm(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		s, b := k.Store, newBrowser(t, k.Handler)
		page := b.Get("/fr/support/BMBTI-1807").Body.String()
		m := csrfField.FindStringSubmatch(page)
		if m == nil {
			t.Fatal("the support page has no CSRF token")
		}
		token := m[1]

		if rec := contactForm(b, "/fr/support/BMBTI-1807", "forged", map[string]string{"name": "A", "email": "a@b.co", "topic": "billing", "message": "Hello there, help."}); rec.Code != http.StatusForbidden {
			t.Fatalf("forged token: %d", rec.Code)
		}
		req := httptest.NewRequest("POST", "/fr/support/BMBTI-1807", strings.NewReader(url.Values{"name": {"A"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if rec := b.Do(req); rec.Code != http.StatusForbidden {
			t.Fatalf("no token: %d", rec.Code)
		}

		bad := contactForm(b, "/fr/support/BMBTI-1807", token, map[string]string{
			"name": "", "email": "Zoé <not-an-address>", "topic": "hack", "message": `short<script>alert(1)</script>`,
		})
		body := bad.Body.String()
		if bad.Code != http.StatusUnprocessableEntity {
			t.Fatalf("invalid form: %d", bad.Code)
		}
		for _, want := range []string{
			`<html lang="fr">`, `data-testid="contact-errors"`, `data-testid="contact-name-error"`, `data-testid="contact-email-error"`,
			`data-testid="contact-topic-error"`, `value="Zoé &lt;not-an-address&gt;"`, `short&lt;script&gt;alert(1)&lt;/script&gt;</textarea>`,
			`aria-invalid="true"`,
		} {
			if !strings.Contains(body, want) {
				t.Errorf("invalid form lacks %q", want)
			}
		}
		if strings.Contains(body, "<script>alert(1)") {
			t.Error("the message is shown unescaped")
		}
		for field, want := range map[string]string{
			"name": "Ce champ est obligatoire.", "email": "Format d’adresse e-mail invalide.", "topic": "Veuillez choisir une option.",
		} {
			if !strings.Contains(body, `data-testid="contact-`+field+`-error">`+want+`<`) {
				t.Errorf("the %s field's message is not %q in French", field, want)
			}
		}
		if n := countRows(t, s, "contact_messages") + countRows(t, s, "mail_outbox"); n != 0 {
			t.Fatalf("an invalid form stored %d rows", n)
		}

		token = csrfField.FindStringSubmatch(body)[1]
		ok := contactForm(b, "/fr/support/BMBTI-1807?gclid=x", token, map[string]string{
			"name": "Zoé Martin", "email": "zoe@example.fr", "topic": "billing", "message": "J'ai été débité deux fois <b>hier</b>.",
		})
		if ok.Code != http.StatusSeeOther || ok.Header().Get("Location") != "/fr/support/BMBTI-1807?gclid=x" {
			t.Fatalf("valid form: %d %q %.300s", ok.Code, ok.Header().Get("Location"), ok.Body.String())
		}
		after := b.Get("/fr/support/BMBTI-1807?gclid=x").Body.String()
		if !strings.Contains(after, `data-testid="flash"`) {
			t.Error("no thank-you after sending")
		}
		msgs, err := s.ListContactMessages(b.T.Context(), s.DB, 10)
		if err != nil || len(msgs) != 1 || msgs[0].Name != "Zoé Martin" || msgs[0].Locale != "fr" || msgs[0].Topic != "billing" {
			t.Fatalf("stored: %+v, %v", msgs, err)
		}
		mail, err := s.ListMail(b.T.Context(), s.DB, 10)
		if err != nil || len(mail) != 1 || mail[0].Kind != "contact" || mail[0].To != "support@selfmap.localhost" || mail[0].Ref != msgs[0].ID ||
			!strings.Contains(mail[0].Body, "J'ai été débité deux fois <b>hier</b>.") {
			t.Fatalf("queued mail: %+v, %v", mail, err)
		}

		// A robot fills the hidden field: thanked, nothing kept.
		token = csrfField.FindStringSubmatch(after)[1]
		robot := contactForm(b, "/support/BMBTI-1807", token, map[string]string{
			"name": "Bot", "email": "bot@example.com", "topic": "general", "message": "Buy cheap things now!", "website": "http://spam.example",
		})
		if robot.Code != http.StatusSeeOther || countRows(t, s, "contact_messages") != 1 {
			t.Errorf("honeypot: %d, %d messages", robot.Code, countRows(t, s, "contact_messages"))
		}
	})
}

// The contact form allows a few messages from one address, then answers
// 429 until time passes.
func TestContactFormIsRateLimited(t *testing.T) {
	b := newBrowser(t, apptest.New(t, storetest.SQLite(t)).Handler)
	token := csrfField.FindStringSubmatch(b.Get("/support/BMBTI-1807").Body.String())[1]
	for i := range 5 {
		if rec := contactForm(b, "/support/BMBTI-1807", token, map[string]string{"name": "A"}); rec.Code != http.StatusUnprocessableEntity {
			t.Fatalf("message %d: %d", i+1, rec.Code)
		}
	}
	rec := contactForm(b, "/support/BMBTI-1807", token, map[string]string{"name": "A"})
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("sixth message: %d", rec.Code)
	}
}
