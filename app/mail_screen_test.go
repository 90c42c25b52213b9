package app

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"selfmap/internal/exam"
	"selfmap/internal/exam/phq9"
	"selfmap/internal/i18n"
	"selfmap/internal/mail"
	"selfmap/internal/retrieve"
	"selfmap/internal/store"
	"selfmap/internal/store/storetest"
	"selfmap/locales"
)

// testMailer is the app's mailer over st (nil: none), with the builders
// made on first use as in the app.
func testMailer(t *testing.T, st *store.Store) (*mailer, *i18n.Catalog) {
	t.Helper()
	catalog, err := i18n.Load(locales.Files)
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := mail.LoadTemplates()
	if err != nil {
		t.Fatal(err)
	}
	exams, err := exam.LoadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	return &mailer{templates: tpl, catalog: catalog, exams: exams, baseURL: "https://selfmap.test", store: st}, catalog
}

// phqResult is a depression screen's result scored as the product scores
// it, taken in locale tag from country.
func phqResult(t *testing.T, id, tag, country string, answers ...int) store.Result {
	t.Helper()
	scored, err := phq9.Score(answers)
	if err != nil {
		t.Fatal(err)
	}
	detail, err := json.Marshal(scored)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	return store.Result{ID: id, ExamID: 2001, PageCode: "BDEPS", Locale: tag, Answers: "[]", ExamVersion: "v", ItemsVersion: "i",
		NormsVersion: "n", NormGroup: "none", Scores: string(detail), ResultCode: string(scored.Band),
		Country: sql.NullString{String: country, Valid: country != ""}, CreatedAt: at, UpdatedAt: at}
}

func reportOrder(r store.Result) store.Order {
	return store.Order{ID: "o-" + r.ID, OrderNumber: "SM-" + r.ID, ResultID: r.ID, ExamID: r.ExamID, Kind: store.OrderReport,
		Status: store.OrderPaid, Total: 990, Currency: sql.NullString{String: "USD", Valid: true},
		SKUID: sql.NullString{String: "deps-report", Valid: true}, CreatedAt: r.CreatedAt, UpdatedAt: r.CreatedAt}
}

// startsWithCrisis checks that both parts of c open with the crisis block,
// before the heading and anything else the mail says, and hold want.
func startsWithCrisis(t *testing.T, c mail.Content, tr *i18n.Translator, want ...string) {
	t.Helper()
	title, heading := tr.T("crisis.title"), tr.T("mail."+c.Kind+".heading")
	for part, body := range map[string]string{"text": c.Text, "html": c.HTML} {
		block, head := strings.Index(body, title), strings.LastIndex(body, heading)
		if block < 0 || head < 0 || block > head {
			t.Errorf("%s %s %s: crisis block at %d, heading at %d:\n%s", tr.Locale.Tag, c.Kind, part, block, head, body)
			continue
		}
		if part == "text" && strings.TrimSpace(body[:block]) != "Selfmap\n\n==" {
			t.Errorf("%s %s text: %q before the crisis block", tr.Locale.Tag, c.Kind, body[:block])
		}
		crisis := body[block:head]
		for _, w := range append([]string{tr.T("crisis.reason_phq9"), tr.T("crisis.talk")}, want...) {
			if part == "text" && strings.HasPrefix(w, "href=") {
				continue
			}
			if part == "html" {
				w = strings.ReplaceAll(w, "&", "&amp;")
			}
			if !strings.Contains(crisis, w) {
				t.Errorf("%s %s %s: the crisis block lacks %q:\n%s", tr.Locale.Tag, c.Kind, part, w, crisis)
			}
		}
	}
	if !strings.Contains(c.HTML, `<div style="display:none;max-height:0;overflow:hidden;">`+tr.T("crisis.title")) {
		t.Errorf("%s %s: the preview text is not the crisis block's title", tr.Locale.Tag, c.Kind)
	}
}

func noCrisis(t *testing.T, c mail.Content, tr *i18n.Translator) {
	t.Helper()
	for _, body := range []string{c.Text, c.HTML} {
		if strings.Contains(body, tr.T("crisis.title")) || strings.Contains(body, "tel:") || strings.Contains(body, `data-block="crisis"`) {
			t.Errorf("%s %s: a crisis block without a reason:\n%s", tr.Locale.Tag, c.Kind, body)
		}
	}
}

// A depression screen with item 9 above 0: the receipt and the report-ready
// mail start with the crisis block of the result's country, in the mail's
// language, with tel: links in HTML and plain numbers in text, and name
// the result by its test and band (the subject by its test only).
func TestPaidScreenMailsStartWithCrisis(t *testing.T) {
	m, catalog := testMailer(t, nil)
	cases := []struct {
		tag, country, named string
		want                []string
	}{
		{"en", "US", "Depression screen (PHQ-9): Moderate", []string{"Emergency: ", "911", `href="tel:911"`, "988 Suicide & Crisis Lifeline: ",
			`href="tel:988"`, "Crisis Text Line", `href="sms:741741"`, "https://988lifeline.org"}},
		{"ja", "JP", "うつ状態のスクリーニング（PHQ-9）：中等度", []string{"119", `href="tel:119"`, "よりそいホットライン：", "0120-279-338",
			`href="tel:0120279338"`, "0570-064-556", "2026年11月"}},
	}
	for _, c := range cases {
		l, _ := i18n.ByTag(c.tag)
		tr := catalog.Translator(l)
		r := phqResult(t, "deps-"+c.tag, c.tag, c.country, 2, 3, 1, 1, 1, 1, 1, 0, 1) // 11: moderate, item 9 at 1
		mails, err := m.paidOrder(reportOrder(r), r, "tok-"+c.tag)
		if err != nil || len(mails) != 2 {
			t.Fatalf("%s: %d mails, %v", c.tag, len(mails), err)
		}
		for _, msg := range mails {
			startsWithCrisis(t, msg, tr, c.want...)
			if !strings.Contains(msg.Text, c.named) || !strings.Contains(msg.HTML, c.named) {
				t.Errorf("%s %s: the result is not named %q:\n%s", c.tag, msg.Kind, c.named, msg.Text)
			}
			if strings.Contains(msg.Text, "moderate") || strings.Contains(msg.Subject, tr.T("screen.phq9.band.moderate")) {
				t.Errorf("%s %s: a raw code, or the band in the subject %q", c.tag, msg.Kind, msg.Subject)
			}
		}
		if ready := mails[1]; !strings.Contains(ready.Subject, tr.T("exam.name_2001")) || !strings.Contains(ready.Text, "tok-"+c.tag) ||
			strings.Contains(ready.Text, tr.T("mail.report_ready.intro")[:20]) {
			t.Errorf("%s: report-ready %q:\n%s", c.tag, ready.Subject, ready.Text)
		}
		if receipt := mails[0]; !strings.Contains(receipt.Text, tr.T("mail.receipt.result")) || strings.Contains(receipt.Text, tr.T("mail.receipt.type")) {
			t.Errorf("%s: the receipt labels a screen's result as a type:\n%s", c.tag, receipt.Text)
		}
	}
}

// Item 9 at 0 (even at a severe sum): no crisis block; the result is still
// named by its test. A country without a row gets no number: the local
// emergency number and the international directory.
func TestPaidScreenMailsWithoutCrisisAndUnlistedCountry(t *testing.T) {
	m, catalog := testMailer(t, nil)
	for _, tag := range []string{"en", "ja"} {
		l, _ := i18n.ByTag(tag)
		tr := catalog.Translator(l)
		r := phqResult(t, "calm-"+tag, tag, "JP", 3, 3, 3, 3, 3, 3, 3, 3, 0)
		mails, err := m.paidOrder(reportOrder(r), r, "tok")
		if err != nil {
			t.Fatal(err)
		}
		for _, msg := range mails {
			noCrisis(t, msg, tr)
			if want := tr.T("screen.phq9.band.severe"); !strings.Contains(msg.Text, want) {
				t.Errorf("%s %s: no %q:\n%s", tag, msg.Kind, want, msg.Text)
			}
		}
	}
	tr := catalog.Translator(i18n.Default)
	r := phqResult(t, "nz", "en", "NZ", 0, 0, 0, 0, 0, 0, 0, 0, 2)
	mails, err := m.paidOrder(reportOrder(r), r, "tok")
	if err != nil {
		t.Fatal(err)
	}
	startsWithCrisis(t, mails[1], tr, tr.T("crisis.local_emergency"), tr.T("crisis.directory"), "https://findahelpline.com")
	if strings.Contains(mails[1].HTML, "tel:") {
		t.Errorf("a number guessed for a country without a row:\n%s", mails[1].HTML)
	}
}

// The 16-type mails read as before: the type code, no crisis block.
func TestPaidTypeMailsUnchanged(t *testing.T) {
	m, catalog := testMailer(t, nil)
	tr := catalog.Translator(i18n.Default)
	r := store.Result{ID: "t1", ExamID: 1807, Locale: "en", ResultCode: "ENFP-T", Scores: "{}"}
	o := reportOrder(r)
	o.SKUID.String = "mbti-report"
	mails, err := m.paidOrder(o, r, "tok")
	if err != nil || len(mails) != 2 {
		t.Fatalf("%d mails, %v", len(mails), err)
	}
	for _, msg := range mails {
		noCrisis(t, msg, tr)
	}
	if !strings.Contains(mails[0].Text, "Your type: ENFP-T") || mails[1].Subject != "Your Selfmap report is ready (ENFP-T)" ||
		!strings.Contains(mails[1].Text, "Your full 16-type personality report (ENFP-T) is ready.") {
		t.Errorf("16-type mails changed: %q\n%s\n%s", mails[1].Subject, mails[0].Text, mails[1].Text)
	}
}

// The retrieval e-mail listing a depression screen's report whose item 9
// is above 0 starts with the crisis block of that result's country, in the
// page's language, and names each report: the 16-type by its code, the
// screen by its test and band. Without item 9 there is no block.
func TestRetrievalMailOfScreens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		m, catalog := testMailer(t, st)
		storetest.Buy(t, st, storetest.Purchase{ResultID: "type1", Code: "INTJ-A", Report: store.OrderPaid, ReportEmail: "a@example.com",
			At: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)})
		crisisR := phqResult(t, "deps1", "ja", "JP", 0, 1, 0, 0, 0, 0, 0, 0, 1)
		calmR := phqResult(t, "deps2", "en", "JP", 1, 1, 1, 1, 1, 1, 0, 0, 0)
		for _, r := range []store.Result{crisisR, calmR} {
			if err := st.CreateResultWithOrder(ctx, st.DB, r, reportOrder(r)); err != nil {
				t.Fatal(err)
			}
		}
		paid := func(id string, examID int, code string) retrieve.Report {
			return retrieve.Report{PaidReport: store.PaidReport{ResultID: id, ExamID: examID, ResultCode: code, OrderNumber: "SM-" + id,
				PaidAt: time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)}, Token: "tok-" + id}
		}
		for _, tag := range []string{"en", "ja"} {
			l, _ := i18n.ByTag(tag)
			tr := catalog.Translator(l)
			c, err := m.retrieval(l, []retrieve.Report{paid("type1", 1807, "INTJ-A"), paid("deps2", 2001, "mild"), paid("deps1", 2001, "minimal")})
			if err != nil {
				t.Fatal(err)
			}
			startsWithCrisis(t, c, tr, "0120-279-338", "119")
			for _, want := range []string{
				tr.TD("mail.retrieval.item", map[string]any{"Type": "INTJ-A", "Order": "SM-type1", "Date": tr.LongDay(time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC))}),
				tr.T("exam.name_2001"), tr.T("screen.phq9.band.mild"), tr.T("screen.phq9.band.minimal"), "tok-deps1", "tok-deps2", "tok-type1",
			} {
				if !strings.Contains(c.Text, want) {
					t.Errorf("%s: the retrieval mail lacks %q:\n%s", tag, want, c.Text)
				}
			}
			if strings.Contains(c.Text, "mild report") || strings.Contains(c.Text, "minimal") {
				t.Errorf("%s: a screen named by its raw code:\n%s", tag, c.Text)
			}
			calm, err := m.retrieval(l, []retrieve.Report{paid("deps2", 2001, "mild"), paid("type1", 1807, "INTJ-A")})
			if err != nil {
				t.Fatal(err)
			}
			noCrisis(t, calm, tr)
		}
		m.store = nil
		if _, err := m.retrieval(i18n.Default, []retrieve.Report{paid("deps1", 2001, "minimal")}); err == nil {
			t.Error("a screen's retrieval mail composed without reading its answers")
		}
	})
}
