package handlers_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"selfmap/app/apptest"
	"selfmap/internal/exam"
	"selfmap/internal/store/storetest"
)

// quizProps reads the question island's props from a question page.
func quizProps(t *testing.T, page string) map[string]any {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script[^>]* id="quiz-props"[^>]*>(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no quiz-props on the question page")
	}
	var p map[string]any
	if err := json.Unmarshal([]byte(m[1]), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// The depression screen's question page is the PHQ-9's, not the 16-type's:
// its title, the note that it is a screen and that answers are private, the
// stem, nine items of four labelled answers on one page, no part, no Big
// Five meters or 16-type tips in the island's texts, and a storage key of
// its own. The 16-type page keeps its title, tips and meters.
func TestQuestionPageOfTheDepressionScreen(t *testing.T) {
	e := apptest.New(t, storetest.SQLite(t)).Handler
	labels := []string{"Not at all", "Several days", "More than half the days", "Nearly every day"}
	var contains []string
	for _, l := range labels {
		contains = append(contains, `<span class="quiz-label">`+l+`</span>`)
	}
	rec := scenario{url: "/answer/question/BDEPS-2001", status: 200, contains: append(contains,
		// A no-break hyphen keeps "PHQ‑9" whole where the title wraps.
		"<title>Depression screen (PHQ\u20119)", `<h1 class="quiz-title">Depression screen (PHQ`+"\u2011"+`9)</h1>`,
		`data-testid="quiz-screen-note">This is a screen, not a diagnosis`, "Your answers are private.",
		`<p class="quiz-intro">Over the last 2 weeks, how often have you been bothered by any of the following problems?</p>`,
		`data-options="4"`, "Tip: press 0–3 to answer", `"storageKey":"DEPS-2001-phq-9`,
	), notContain: []string{
		"Neuroticism", "Part 1 of", "quiz.exam_", `"tip1_title"`, "Rate how accurately",
	}}.run(t, e)
	body := rec.Body.String()
	if n := strings.Count(body, `data-testid="quiz-statement"`); n != 9 {
		t.Errorf("%d items on the page, want all 9", n)
	}
	if n := strings.Count(body, `class="quiz-radio"`); n != 36 {
		t.Errorf("%d answers, want 9 items of 4", n)
	}
	if n := strings.Count(body, `<label class="quiz-option"><input class="quiz-radio" type="radio"`); n != 36 {
		t.Errorf("%d answers inside their label, want 36", n)
	}
	p := quizProps(t, body)
	texts, _ := p["texts"].(map[string]any)
	if texts["title"] != "Depression screen (PHQ\u20119)" || texts["meters"] != nil || texts["tips"] != nil ||
		texts["calcText"] != "We’re scoring your answers." || len(texts["includes"].([]any)) != 4 {
		t.Errorf("island texts %v", texts)
	}
	if n := len(p["questions"].([]any)); n != 9 || p["parts"] != 1.0 {
		t.Errorf("%d questions in %v parts", n, p["parts"])
	}

	ja := scenario{url: "/ja/answer/question/BDEPS-2001", status: 200, contains: []string{
		"うつ状態のスクリーニング（PHQ\u20119）", "医学的な診断ではありません", "ほかの人に共有されることはありません",
		`<span class="quiz-label">数日</span>`,
	}, notContain: []string{"神経症傾向"}}.run(t, e)
	if n := strings.Count(ja.Body.String(), `class="quiz-radio"`); n != 36 {
		t.Errorf("ja: %d answers, want 36", n)
	}

	mbti := quizProps(t, scenario{url: "/answer/question/BMBTI-1807", status: 200, contains: []string{
		"<title>16-type personality test", "Rate how accurately", "Part 1 of 3",
	}, notContain: []string{`data-testid="quiz-screen-note"`}}.run(t, e).Body.String())
	mt, _ := mbti["texts"].(map[string]any)
	if len(mt["meters"].([]any)) != 5 || mt["meters"].([]any)[0] != "Neuroticism" || len(mt["tips"].([]any)) != 2 ||
		!strings.HasPrefix(mbti["storageKey"].(string), "MBTI-1807-") {
		t.Errorf("16-type props: texts %v, key %v", mt, mbti["storageKey"])
	}
	if _, leaked := mbti["messages"].(map[string]any)["exam_deps.title"]; leaked {
		t.Error("the island's shared messages carry every exam's texts")
	}
}

// screenSubmission answers every item of an exam with value(i).
func screenSubmission(t *testing.T, id int, code string, value func(i int) int) map[string]any {
	t.Helper()
	reg, err := exam.LoadRegistry()
	if err != nil {
		t.Fatal(err)
	}
	e, ok := reg.Exam(id)
	if !ok {
		t.Fatalf("exam %d is not in the catalogue", id)
	}
	var answers []map[string]any
	for i, q := range e.Instrument.Questions("en") {
		answers = append(answers, map[string]any{"id": q.ID, "value": value(i)})
	}
	return map[string]any{"examId": id, "code": code, "version": e.FullVersion(), "answers": answers, "durationSeconds": 90}
}

// The details step asks the depression screen for names and country only:
// no year of birth, no sex, and a text that does not speak of comparison
// groups. A year or sex posted anyway is neither checked nor stored, and the
// score stays as submitted. The 16-type test still asks both.
func TestDetailsStepAsksOnlyWhatTheExamNeeds(t *testing.T) {
	apptest.Each(t, func(t *testing.T, k *apptest.Kit) {
		b := newBrowser(t, k.Handler)
		token := b.CSRFToken("/")
		submit := func(body map[string]any) string {
			rec := b.PostJSON("/api/exam/order/info", token, body)
			var env struct{ Data struct{ ResultID string } }
			if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || rec.Code != 200 || env.Data.ResultID == "" {
				t.Fatalf("submission: %d %s", rec.Code, rec.Body.String())
			}
			return env.Data.ResultID
		}
		// Item 9 answered "Several days": the crisis signal is set at submission.
		id := submit(screenSubmission(t, 2001, "BDEPS", func(i int) int { return map[bool]int{true: 1, false: 2}[i == 8] }))
		before, err := k.Store.GetResult(t.Context(), k.Store.DB, id)
		if err != nil {
			t.Fatal(err)
		}
		emailURL := "/answer/email/BDEPS-2001?r=" + id
		form := url.Values{"_csrf": {token}, "step": {"email"}, "email": {"sam@example.com"}}
		if rec := b.PostForm(emailURL, form); rec.Code != http.StatusSeeOther {
			t.Fatalf("e-mail: %d", rec.Code)
		}
		page := b.Expect(emailURL, 200, `data-testid="details-form"`, `id="firstName"`, `id="lastName"`, `id="country"`, "helplines where you live")
		for _, no := range []string{`id="birthYear"`, `name="gender"`, "Year of birth", "right group of people"} {
			if strings.Contains(page.Body.String(), no) {
				t.Errorf("the screen's details step has %q", no)
			}
		}

		details := url.Values{"_csrf": {token}, "step": {"details"}, "firstName": {"Sam"}, "lastName": {""}, "country": {"GB"},
			"birthYear": {"not a year"}, "gender": {"nonsense"}}
		rec := b.PostForm(emailURL, details)
		body := rec.Body.String()
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(body, `data-testid="lastName-error"`) ||
			strings.Contains(body, "birthYear-error") || strings.Contains(body, "gender-error") || strings.Contains(body, `id="birthYear"`) {
			t.Fatalf("details without a last name: %d, errors beyond the name field or the norms' fields shown", rec.Code)
		}
		details.Set("lastName", "Lee")
		if rec := b.PostForm(emailURL, details); rec.Code != http.StatusSeeOther {
			t.Fatalf("details: %d %.300s", rec.Code, rec.Body.String())
		}
		after, err := k.Store.GetResult(t.Context(), k.Store.DB, id)
		if err != nil {
			t.Fatal(err)
		}
		if after.FirstName.String != "Sam" || after.Country.String != "GB" || after.BirthYear.Valid || after.Gender.Valid ||
			after.Scores != before.Scores || after.ResultCode != before.ResultCode || after.NormGroup != before.NormGroup {
			t.Errorf("stored details and score: %+v (before %+v)", after, before)
		}

		// The 16-type test's details step keeps the year of birth and sex.
		mbti := submit(apptest.Submission(t, func(i int) int { return i%5 + 1 }))
		mbtiURL := "/answer/email/BMBTI-1807?r=" + mbti
		form.Set("email", "sam@example.com")
		if rec := b.PostForm(mbtiURL, form); rec.Code != http.StatusSeeOther {
			t.Fatalf("e-mail: %d", rec.Code)
		}
		if page := b.Expect(mbtiURL, 200, `id="birthYear"`, `name="gender" value="female"`, "right group of people"); strings.Contains(page.Body.String(), "helplines where you live") {
			t.Error("the 16-type details step has the screens' text")
		}
		bad := url.Values{"_csrf": {token}, "step": {"details"}, "firstName": {"Sam"}, "lastName": {"Lee"}, "country": {"GB"},
			"birthYear": {"not a year"}, "gender": {"nonsense"}}
		if rec := b.PostForm(mbtiURL, bad); rec.Code != http.StatusUnprocessableEntity ||
			!strings.Contains(rec.Body.String(), "birthYear-error") || !strings.Contains(rec.Body.String(), "gender-error") {
			t.Errorf("16-type details with a bad year and sex: %d", rec.Code)
		}
	})
}
