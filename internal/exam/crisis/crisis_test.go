package crisis

import (
	"strings"
	"testing"
)

// Every country we sell to, and the English-speaking visitors we expect,
// has a row of its own with a line, a web resource and an emergency number;
// any other country gets the default row.
func TestEveryMarketHasItsLines(t *testing.T) {
	d, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []string{"BR", "CN", "DE", "ES", "FR", "GB", "HK", "JP", "KR", "PT", "CA", "AU"} {
		l := d.For(c)
		if l.Country != c || l.Emergency == "" || l.Line.Phone == "" || l.WebURL == "" || l.Checked.IsZero() || len(l.Sources) == 0 {
			t.Errorf("%s: %+v", c, l)
		}
	}
	us := d.For("US")
	if us.Country != "US" || us.Emergency != "911" || us.Line.Phone != "988" {
		t.Errorf("US: %+v, want 911 and 988", us)
	}
	// Anywhere else: no number that may not work there, the local
	// emergency number asked for, an international directory.
	other := d.For("IN")
	if !other.International() || other.Emergency != "" || other.Line.Phone != "" || !strings.HasPrefix(other.WebURL, "https://") {
		t.Errorf("an unlisted country: %+v", other)
	}
	if d.For("zz").Country != Default || d.For("").Country != Default {
		t.Error("an unknown country does not get the default row")
	}
	if d.For("gb").Country != "GB" {
		t.Error("a lower-case code does not find its row")
	}
	if n := len(d.Countries()); n < 13 {
		t.Errorf("%d rows", n)
	}
}

const (
	header = "# Lines.\n# " + "country\temergency\tline_name\tline_name_en\tline_phone\tline_hours\talt_line_name\talt_line_name_en\talt_line_phone\talt_line_hours\tweb_name\tweb_name_en\tweb_url\tsource_urls\tchecked\tverified\tnote\n"
	star   = "*\t\t\t\t\t\t\t\t\t\tDirectory\tDirectory\thttps://findahelpline.com\thttps://findahelpline.com\t2026-11-26\tpartly\t\n"
	usRow  = "US\t911\tLifeline\tLifeline\t988\t24/7\t\t\t\t\tLifeline\tLifeline\thttps://988lifeline.org\thttps://example.org/a ; https://example.org/b\t2026-11-26\tyes\t"
	good   = header + star + usRow + "\n"
)

func TestReadRefusesBadRows(t *testing.T) {
	if d, err := read("lines.tsv", []byte(good)); err != nil || len(d.For("US").Sources) != 2 || !d.For("FR").International() {
		t.Fatalf("the good file: %v", err)
	}
	row := strings.Split(usRow, "\t")
	with := func(col int, v string) string {
		r := append([]string(nil), row...)
		r[col] = v
		return strings.Join(r, "\t")
	}
	starWith := func(col int, v string) string {
		r := strings.Split(strings.TrimSuffix(star, "\n"), "\t")
		r[col] = v
		return strings.Join(r, "\t") + "\n"
	}
	head := header + star
	cases := []struct {
		name, data, want string
	}{
		{"no provenance", strings.SplitN(good, "\n", 2)[1], "lines.tsv:1:"},
		{"renamed column", strings.Replace(good, "web_url", "url", 1), "lines.tsv:2:"},
		{"no default", header + with(0, "FR") + "\n", `no default row "*"`},
		{"twice", good + with(0, "US") + "\n", "lines.tsv:5: country US appears twice"},
		{"bad country", good + with(0, "France") + "\n", "lines.tsv:5: country"},
		{"no emergency number", good + with(0, "FR") + "\n" + with(0, "DE") + "\t\n", "lines.tsv:6: 18 columns"},
		{"emergency not a number", good + with(1, "call 112") + "\n", "lines.tsv:5: emergency number"},
		{"no line number", head + with(4, "") + "\n", "lines.tsv:4: the crisis line"},
		{"half a second line", head + with(8, "116 123") + "\n", "lines.tsv:4: the second line"},
		{"web not https", head + with(12, "http://988lifeline.org") + "\n", "lines.tsv:4: the web resource"},
		{"source not a URL", head + with(13, "a friend") + "\n", `lines.tsv:4: source "a friend"`},
		{"no date", head + with(14, "26/11/2026") + "\n", "lines.tsv:4: checked"},
		{"unsaid verification", head + with(15, "") + "\n", "lines.tsv:4: verified is empty"},
		{"padded", head + with(3, "Lifeline ") + "\n", "lines.tsv:4: line_name_en starts or ends with spaces"},
		{"a number in the default row", header + starWith(1, "911") + usRow + "\n", "lines.tsv:3: the default row has no numbers"},
		{"no directory in the default row", header + starWith(12, "") + usRow + "\n", "lines.tsv:3: the default row needs its web resource"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := read("lines.tsv", []byte(c.data))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one naming %q", err, c.want)
			}
		})
	}
}
