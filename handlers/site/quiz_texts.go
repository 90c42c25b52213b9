package site

import (
	"strconv"
	"strings"

	"selfmap/internal/i18n"
	"selfmap/views"
)

// quizTexts reads an exam's own words from its message table
// quiz.exam_<report> (lower case): the title, intro and screen note, the
// tips tip1_*, tip2_*, … after each part, and the numbered meter_1, … and
// includes_1, … of the calculating screen. A list stops at its first gap; a
// missing title shows its id, as a missing message does everywhere.
func quizTexts(tr *i18n.Translator, report string) views.QuizTexts {
	prefix := "quiz.exam_" + strings.ToLower(report) + "."
	m := tr.Messages(prefix)
	x := views.QuizTexts{
		Title: m["title"], Intro: m["intro"], Notice: m["notice"], CalcText: m["calc_text"],
		Meters: numbered(m, "meter_"), Includes: numbered(m, "includes_"),
	}
	if x.Title == "" {
		x.Title = prefix + "title"
	}
	for i := 1; m["tip"+strconv.Itoa(i)+"_title"] != ""; i++ {
		n := "tip" + strconv.Itoa(i) + "_"
		x.Tips = append(x.Tips, views.QuizTip{Title: m[n+"title"], Text: m[n+"text"], Hint: m[n+"hint"]})
	}
	return x
}

// numbered lists the messages key1, key2, … up to the first missing one.
func numbered(m map[string]string, key string) []string {
	var out []string
	for i := 1; m[key+strconv.Itoa(i)] != ""; i++ {
		out = append(out, m[key+strconv.Itoa(i)])
	}
	return out
}

// quizMessages are the flow's shared messages (quiz.*) for the island,
// without the exams' own tables, which reach it as its texts.
func quizMessages(tr *i18n.Translator) map[string]string {
	all := tr.Messages("quiz.")
	out := make(map[string]string, len(all))
	for k, v := range all {
		if !strings.HasPrefix(k, "exam_") {
			out[k] = v
		}
	}
	return out
}
