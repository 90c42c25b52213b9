// Package crisis knows where a visitor in distress can turn, by country: the
// emergency number, a crisis phone line (and a second one where there is
// one) and a web resource, each sourced and dated in lines.tsv (README.md
// beside it). A PHQ-9 answer above 0 on item 9, or a K10 sum in the top
// band, shows these before any score. The package is pure: it reads only
// its embedded file.
package crisis

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Default is the row of a country the file does not list. It has no
// numbers (no country's numbers work everywhere): the visitor is asked to
// call their local emergency number and given an international directory
// of helplines.
const Default = "*"

// Line is a phone line.
type Line struct {
	// Name is the line's name in its country's language; NameEn in English.
	Name   string
	NameEn string
	Phone  string
	// Hours says when it answers, as the source gives it ("24/7, free").
	Hours string
}

// Lines is what one country's visitors are shown.
type Lines struct {
	// Country is the ISO 3166-1 alpha-2 code, or Default.
	Country   string
	Emergency string
	Line      Line
	// Alt is a second line; its Phone is empty when there is none.
	Alt Line
	// WebName and WebNameEn name the web resource at WebURL.
	WebName   string
	WebNameEn string
	WebURL    string
	// Sources are the pages the row was checked against, on Checked.
	Sources []string
	Checked time.Time
	// Verified says which fields were checked ("yes") and which come from
	// knowledge and wait for a check.
	Verified string
	Note     string
}

// International reports whether these are the default row's: no number,
// only an international directory, so the page asks the visitor to call
// their local emergency number.
func (l Lines) International() bool { return l.Country == Default }

// Directory is every country's lines.
type Directory struct {
	byCountry map[string]Lines
}

//go:embed lines.tsv
var linesTSV []byte

// columns are the names of lines.tsv's second line, in order.
var columns = []string{"country", "emergency", "line_name", "line_name_en", "line_phone", "line_hours",
	"alt_line_name", "alt_line_name_en", "alt_line_phone", "alt_line_hours", "web_name", "web_name_en", "web_url",
	"source_urls", "checked", "verified", "note"}

var (
	countryCode = regexp.MustCompile(`^([A-Z]{2}|\*)$`)
	// phone is a number as dialled locally, with spaces, dashes or a note
	// in brackets ("741741 (text)").
	phone = regexp.MustCompile(`^[0-9][0-9 -]*[0-9]( \([^)]+\))?$`)
)

// Load reads the embedded lines.tsv.
func Load() (*Directory, error) { return read("lines.tsv", linesTSV) }

// For returns the lines of a country (an ISO 3166-1 alpha-2 code, any
// case), or the default row when the country is not listed.
func (d *Directory) For(country string) Lines {
	if l, ok := d.byCountry[strings.ToUpper(country)]; ok {
		return l
	}
	return d.byCountry[Default]
}

// Countries lists the countries with a row of their own, and Default,
// sorted.
func (d *Directory) Countries() []string {
	out := make([]string, 0, len(d.byCountry))
	for c := range d.byCountry {
		out = append(out, c)
	}
	slices.Sort(out)
	return out
}

// read parses the file: a provenance comment, the column names, then one
// country a line. It refuses a file without the default row, a country
// twice, or a row without an emergency number, a line, a web address, a
// source or a check date, naming the line.
func read(name string, data []byte) (*Directory, error) {
	d := &Directory{byCountry: map[string]Lines{}}
	header := "# " + strings.Join(columns, "\t")
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := sc.Text()
		switch {
		case line == 1 && (!strings.HasPrefix(s, "# ") || strings.Contains(s, "\t")):
			return nil, fmt.Errorf("crisis: %s:1: the first line must be the provenance comment", name)
		case line == 2 && s != header:
			return nil, fmt.Errorf("crisis: %s:2: the column names must read %q", name, header)
		case line <= 2 || strings.TrimSpace(s) == "":
			continue
		}
		l, err := parseRow(strings.Split(s, "\t"))
		if err != nil {
			return nil, fmt.Errorf("crisis: %s:%d: %w", name, line, err)
		}
		if _, dup := d.byCountry[l.Country]; dup {
			return nil, fmt.Errorf("crisis: %s:%d: country %s appears twice", name, line, l.Country)
		}
		d.byCountry[l.Country] = l
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("crisis: %s: %w", name, err)
	}
	if _, ok := d.byCountry[Default]; !ok {
		return nil, fmt.Errorf("crisis: %s has no default row %q", name, Default)
	}
	return d, nil
}

func parseRow(cols []string) (Lines, error) {
	if len(cols) != len(columns) {
		return Lines{}, fmt.Errorf("%d columns, want %d", len(cols), len(columns))
	}
	for i, c := range cols {
		if strings.TrimSpace(c) != c {
			return Lines{}, fmt.Errorf("%s starts or ends with spaces", columns[i])
		}
	}
	l := Lines{Country: cols[0], Emergency: cols[1],
		Line:    Line{Name: cols[2], NameEn: cols[3], Phone: cols[4], Hours: cols[5]},
		Alt:     Line{Name: cols[6], NameEn: cols[7], Phone: cols[8], Hours: cols[9]},
		WebName: cols[10], WebNameEn: cols[11], WebURL: cols[12], Verified: cols[15], Note: cols[16]}
	for _, src := range strings.Split(cols[13], " ; ") {
		if !isURL(src) {
			return l, fmt.Errorf("source %q is not a web address", src)
		}
		l.Sources = append(l.Sources, src)
	}
	checked, err := time.Parse(time.DateOnly, cols[14])
	if err != nil {
		return l, fmt.Errorf("checked %q is not a date (YYYY-MM-DD)", cols[14])
	}
	l.Checked = checked
	switch {
	case !countryCode.MatchString(l.Country):
		return l, fmt.Errorf("country %q, want an ISO 3166-1 alpha-2 code or %q", l.Country, Default)
	case l.Country == Default && (l.Emergency != "" || l.Line != (Line{}) || l.Alt != (Line{})):
		return l, fmt.Errorf("the default row has no numbers: none works in every country")
	case l.Country == Default && (l.WebName == "" || l.WebNameEn == "" || !strings.HasPrefix(l.WebURL, "https://")):
		return l, fmt.Errorf("the default row needs its web resource (an international directory)")
	case l.Country == Default && l.Verified != "":
		return l, nil
	case !phone.MatchString(l.Emergency):
		return l, fmt.Errorf("emergency number %q is not a number", l.Emergency)
	case l.Line.Name == "" || l.Line.NameEn == "" || !phone.MatchString(l.Line.Phone):
		return l, fmt.Errorf("the crisis line needs a name, an English name and a number (%q)", l.Line.Phone)
	case l.Alt != (Line{}) && (l.Alt.Name == "" || l.Alt.NameEn == "" || !phone.MatchString(l.Alt.Phone)):
		return l, fmt.Errorf("the second line needs a name, an English name and a number (%q), or nothing", l.Alt.Phone)
	case l.WebName == "" || l.WebNameEn == "" || !isURL(l.WebURL) || !strings.HasPrefix(l.WebURL, "https://"):
		return l, fmt.Errorf("the web resource needs a name, an English name and an https address (%q)", l.WebURL)
	case l.Verified == "":
		return l, fmt.Errorf("verified is empty: say what was checked")
	}
	return l, nil
}

func isURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}
