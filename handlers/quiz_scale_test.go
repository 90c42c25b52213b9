package handlers_test

import (
	"strings"
	"testing"

	"selfmap/app/apptest"
	"selfmap/internal/store/storetest"
)

// The 16-type question page reads as it always has, its answer scale now
// the instrument's: five options a statement with IPIP's labels in the
// page's locale, both ends under the row, "1–5" in the keyboard hint, and
// the same scale in the island's props and the questions API.
func TestQuestionPageShowsTheInstrumentsScale(t *testing.T) {
	e := apptest.New(t, storetest.SQLite(t)).Handler
	for _, sc := range []scenario{
		{url: "/answer/question/BMBTI-1807", status: 200, contains: []string{
			`<span class="quiz-label">Very inaccurate</span>`, `<span class="quiz-label">Neither accurate nor inaccurate</span>`,
			`<div class="quiz-ends" aria-hidden="true"><span>Very inaccurate</span><span>Very accurate</span></div>`,
			`data-options="5"`, "Tip: press 1–5 to answer", "Part 1 of 3", "Rate how accurately each statement",
			`"scale":{"min":1,"max":5,"labels":["Very inaccurate","Moderately inaccurate","Neither accurate nor inaccurate","Moderately accurate","Very accurate"]}`,
			`"kind":"likert"`,
		}, notContain: []string{"quiz.scale"}},
		{url: "/ja/answer/question/BMBTI-1807", status: 200, contains: []string{
			`<span class="quiz-label">まったく当てはまらない</span>`, "ヒント：1〜5のキーで回答し", "パート 1 / 3",
		}},
		{url: "/api/exam/question/list/1807/DE", status: 200, contains: []string{
			`"scale":{"min":1,"max":5,"labels":["Trifft gar nicht zu","Trifft eher nicht zu","Teils, teils","Trifft eher zu","Trifft voll zu"]}`,
		}},
	} {
		rec := sc.run(t, e)
		if n := strings.Count(rec.Body.String(), `class="quiz-radio"`); sc.url != "/api/exam/question/list/1807/DE" && n != 25 {
			t.Errorf("%s: %d radios on the first page, want 5 statements of 5", sc.url, n)
		}
	}
}
