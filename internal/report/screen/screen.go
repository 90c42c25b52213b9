// Package screen builds the reports of the two clinical screens, the PHQ-9
// (the depression screen, DEPS) and the K10 (the general psychological
// test, YDGX): a free result (the sum, its band and what the band means)
// and a full report (crisis resources first when the answers call for
// them, the score on its published scale, what the band means and does
// not mean, the statements answered most often, a two-week self-care plan
// and when to get help). Both are one Builder over a Spec: the screens
// differ only in their data. Every number shown is the stored sum, checked
// against the stored answers, or a published band limit.
package screen

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"selfmap/internal/exam/crisis"
	"selfmap/internal/exam/itembank"
	"selfmap/internal/exam/k10"
	"selfmap/internal/exam/phq9"
	"selfmap/internal/i18n"
	"selfmap/internal/report"
	"selfmap/internal/result"
)

// Band is a published band of a screen's sum, From-To inclusive; Key is
// its name in the scored detail and in the messages.
type Band struct {
	Key      string
	From, To int
}

// Spec is what one screen's report needs of its instrument.
type Spec struct {
	// Name is the screen's message prefix, screen.<Name> ("phq9", "k10"),
	// and Short its printed name ("PHQ-9").
	Name, Short string
	Bank        *itembank.Bank
	// Min and Max bound the sum; Bands cover it in order.
	Min, Max int
	Bands    []Band
	// Often is the answer from which a statement is reflected back ("more
	// than half the days", "most of the time").
	Often int
	// SeeDoctor is the index of the first band whose report says plainly
	// to talk to a doctor (moderate on both screens).
	SeeDoctor int
}

// PHQ9 is the PHQ-9's spec: 0-27 in the bands of Kroenke, Spitzer &
// Williams (2001).
func PHQ9() (Spec, error) {
	bank, err := phq9.LoadBank()
	return Spec{Name: "phq9", Short: "PHQ-9", Bank: bank, Min: 0, Max: 27, Often: 2, SeeDoctor: 2, Bands: []Band{
		{string(phq9.Minimal), 0, 4}, {string(phq9.Mild), 5, 9}, {string(phq9.Moderate), 10, 14},
		{string(phq9.ModeratelySevere), 15, 19}, {string(phq9.Severe), 20, 27},
	}}, err
}

// K10 is the K10's spec: 10-50 in the bands of Andrews & Slade (2001).
func K10() (Spec, error) {
	bank, err := k10.LoadBank()
	return Spec{Name: "k10", Short: "K10", Bank: bank, Min: 10, Max: 50, Often: 4, SeeDoctor: 1, Bands: []Band{
		{string(k10.Low), 10, 15}, {string(k10.Moderate), 16, 21}, {string(k10.High), 22, 29}, {string(k10.VeryHigh), 30, 50},
	}}, err
}

// Builder is a screen's report.Builder.
type Builder struct {
	Spec Spec
	// Crisis gives the lines of the result's country.
	Crisis *crisis.Directory
}

// New is the builder of a screen's reports.
func New(spec Spec, dir *crisis.Directory) (*Builder, error) {
	if spec.Bank == nil || dir == nil || len(spec.Bands) == 0 {
		return nil, fmt.Errorf("report/screen: %s needs its items, its bands and the crisis lines", spec.Name)
	}
	return &Builder{Spec: spec, Crisis: dir}, nil
}

// detail is the stored detail both screens share (phq9.Result, k10.Result).
type detail struct {
	Sum     int    `json:"sum"`
	Band    string `json:"band"`
	Crisis  bool   `json:"crisis"`
	Answers []int  `json:"answers"`
}

// scored reads a result's detail and refuses one whose sum is not its
// answers' or whose band is not the sum's: the report never shows a
// number the answers did not produce.
func (b *Builder) scored(r result.Result) (detail, int, error) {
	var d detail
	if err := json.Unmarshal([]byte(r.Scores), &d); err != nil {
		return d, 0, fmt.Errorf("report/screen: scores of result %s: %w", r.ID, err)
	}
	sum := 0
	for _, a := range d.Answers {
		sum += a
	}
	if len(d.Answers) != len(b.Spec.Bank.Spec.IDs) || sum != d.Sum {
		return d, 0, fmt.Errorf("report/screen: result %s: sum %d of %d answers does not add up", r.ID, d.Sum, len(d.Answers))
	}
	for i, band := range b.Spec.Bands {
		if sum >= band.From && sum <= band.To {
			if band.Key != d.Band {
				return d, 0, fmt.Errorf("report/screen: result %s: band %q, want %q", r.ID, d.Band, band.Key)
			}
			return d, i, nil
		}
	}
	return d, 0, fmt.Errorf("report/screen: result %s: sum %d outside %d-%d", r.ID, sum, b.Spec.Min, b.Spec.Max)
}

// Free is the crisis block when it applies, the sum and its band with what
// the band means.
func (b *Builder) Free(_ context.Context, in report.Input) (report.Report, error) {
	d, band, err := b.scored(in.Result)
	if err != nil {
		return nil, err
	}
	return b.free(in, d, band), nil
}

func (b *Builder) free(in report.Input, d detail, band int) Free {
	t, s := in.T, b.Spec
	k := "screen." + s.Name + "."
	f := Free{Screen: s.Name, Short: s.Short, Name: t.T(k + "name"), Sum: d.Sum, Min: s.Min, Max: s.Max,
		Band: s.Bands[band].Key, BandName: t.T(k + "band." + s.Bands[band].Key), Meaning: t.T(k + "meaning." + s.Bands[band].Key)}
	f.Crisis = b.crisis(in.Result, d, t)
	for i, bd := range s.Bands {
		f.Bands = append(f.Bands, BandMark{Key: bd.Key, Name: t.T(k + "band." + bd.Key), From: bd.From, To: bd.To, Current: i == band})
	}
	return f
}

// CrisisFor is the crisis block a stored result calls for, worded by t,
// or nil when its answers do not call for one: the one decision the free
// result, the report, the PDF and the e-mails share. A result whose stored
// detail does not add up is an error, as for the report.
func (b *Builder) CrisisFor(r result.Result, t *i18n.Translator) (*Crisis, error) {
	d, _, err := b.scored(r)
	if err != nil {
		return nil, err
	}
	return b.crisis(r, d, t), nil
}

// crisis is the block of a scored detail: the lines of the result's
// country when the scoring flagged the answers (PHQ-9 item 9 above 0, K10
// in its top band).
func (b *Builder) crisis(r result.Result, d detail, t *i18n.Translator) *Crisis {
	if !d.Crisis {
		return nil
	}
	return &Crisis{Lines: b.Crisis.For(r.Country.String), Reason: t.T("crisis.reason_" + b.Spec.Name)}
}

// Build is the full report.
func (b *Builder) Build(_ context.Context, in report.Input) (report.Report, error) {
	d, band, err := b.scored(in.Result)
	if err != nil {
		return nil, err
	}
	t, s, r := in.T, b.Spec, in.Result
	k := "screen." + s.Name + "."
	rep := Report{Free: b.free(in, d, band), Order: in.Order, Date: r.CreatedAt.Format("2006-01-02"),
		PreparedFor: reportName(in.Locale, r.FirstName.String, r.LastName.String),
		Detail:      t.T(k + "detail." + s.Bands[band].Key),
		NotMeans:    t.T(k + "not_means"), SeeDoctor: band >= s.SeeDoctor, Credit: t.T(k + "credit")}
	loc := s.Bank.Locale(in.Locale.Tag)
	rep.Often = loc.Scale.Labels[s.Often-s.Bank.Spec.Min]
	rep.Stem = loc.Scale.Stem
	for i, it := range loc.Items {
		if it.Verdict == itembank.VerdictTranslated {
			rep.OwnTranslation = true
		}
		if a := d.Answers[i]; a >= s.Often {
			rep.Items = append(rep.Items, ItemLine{Number: strconv.Itoa(i + 1), Text: it.Text, Answer: loc.Scale.Labels[a-s.Bank.Spec.Min]})
		}
	}
	return rep, nil
}

// reportName is whom the report is prepared for, as the 16-type report
// names them: the given name, or the full name family first where that is
// the order (Chinese, Japanese, Korean).
func reportName(l i18n.Locale, given, family string) string {
	if l.FamilyNameFirst() && family != "" {
		if given == "" {
			return family
		}
		return family + " " + given
	}
	return given
}
