package content

import (
	"errors"
	"strings"
)

// The bodies of articles and documents are plain text with three marks, so
// that translators need no HTML and nothing stored can inject markup:
//
//	## A heading            (a line of its own)
//	- a list item           (consecutive lines form one list)
//	[words](/local/path)    (a link to a page of this site; {p} stands for
//	                        the page's {code}-{examId} pair)
//
// Blocks are separated by a blank line; the lines of a paragraph are joined.

// BlockKind says what a block is.
type BlockKind int

// The kinds of block.
const (
	Paragraph BlockKind = iota
	Heading
	List
)

// Inline is a run of text, a link when Href is set.
type Inline struct {
	Text string
	Href string
}

// Block is a paragraph, a heading or a list.
type Block struct {
	Kind BlockKind
	// Text is a paragraph's or a heading's content.
	Text []Inline
	// Items are a list's items.
	Items [][]Inline
}

// Parse splits a body into blocks.
func Parse(body string) []Block {
	var out []Block
	var para []string
	inList := false
	flush := func() {
		if len(para) > 0 {
			out = append(out, Block{Kind: Paragraph, Text: inlines(strings.Join(para, " "))})
			para = nil
		}
	}
	for _, raw := range strings.Split(body, "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case line == "":
			flush()
			inList = false
		case strings.HasPrefix(line, "## "):
			flush()
			out = append(out, Block{Kind: Heading, Text: inlines(strings.TrimSpace(line[3:]))})
			inList = false
		case strings.HasPrefix(line, "- "):
			flush()
			item := inlines(strings.TrimSpace(line[2:]))
			if inList {
				out[len(out)-1].Items = append(out[len(out)-1].Items, item)
			} else {
				out = append(out, Block{Kind: List, Items: [][]Inline{item}})
				inList = true
			}
		default:
			if inList {
				// A line under a list item continues it.
				items := out[len(out)-1].Items
				items[len(items)-1] = append(items[len(items)-1], inlines(" "+line)...)
				continue
			}
			para = append(para, line)
		}
	}
	flush()
	return out
}

// inlines splits text into plain runs and [label](/path) links. Anything
// that is not a well-formed local link stays text.
func inlines(s string) []Inline {
	var out []Inline
	for s != "" {
		label, href, before, after, ok := nextLink(s)
		if !ok {
			out = append(out, Inline{Text: s})
			break
		}
		if before != "" {
			out = append(out, Inline{Text: before})
		}
		out = append(out, Inline{Text: label, Href: href})
		s = after
	}
	return out
}

func nextLink(s string) (label, href, before, after string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != '[' {
			continue
		}
		mid := strings.Index(s[i:], "](")
		if mid < 0 {
			return "", "", "", "", false
		}
		mid += i
		end := strings.IndexByte(s[mid:], ')')
		if end < 0 {
			return "", "", "", "", false
		}
		end += mid
		label, href = s[i+1:mid], s[mid+2:end]
		if label != "" && !strings.Contains(label, "[") && localHref(href) {
			return label, href, s[:i], s[end+1:], true
		}
	}
	return "", "", "", "", false
}

// localHref accepts a path on this site: one leading slash, no scheme or
// host, nothing a browser would read as another origin.
func localHref(h string) bool {
	return strings.HasPrefix(h, "/") && !strings.HasPrefix(h, "//") && !strings.ContainsAny(h, " \\\"'<>\t\n")
}

// Validate reports a body whose link marks are broken: a translator's slip
// would otherwise show brackets on the page.
func Validate(body string) error {
	for _, b := range Parse(body) {
		runs := [][]Inline{b.Text}
		runs = append(runs, b.Items...)
		for _, run := range runs {
			for _, in := range run {
				if in.Href == "" && strings.Contains(in.Text, "](") {
					return errors.New("a link is not of the form [words](/path)")
				}
			}
		}
	}
	return nil
}

// Plain returns a body as plain text: headings and paragraphs as lines,
// list items after a dash, links as their words. Meta descriptions and
// structured data use it.
func Plain(body string) string {
	var b strings.Builder
	for _, bl := range Parse(body) {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		switch bl.Kind {
		case List:
			for i, item := range bl.Items {
				if i > 0 {
					b.WriteString("\n")
				}
				b.WriteString("- ")
				b.WriteString(text(item))
			}
		default:
			b.WriteString(text(bl.Text))
		}
	}
	return b.String()
}

func text(run []Inline) string {
	var b strings.Builder
	for _, in := range run {
		b.WriteString(in.Text)
	}
	return b.String()
}

// Summary returns the first sentence of a text, at most about max runes:
// what a search result shows. Chinese and Japanese end a sentence with 。,
// the other locales with a full stop and a space.
func Summary(s string, max int) string {
	s = strings.TrimSpace(strings.SplitN(s, "\n", 2)[0])
	for _, end := range []string{"。", "！", "？", ". ", "! ", "? "} {
		if i := strings.Index(s, end); i > 0 {
			s = s[:i+len(strings.TrimSpace(end))]
		}
	}
	r := []rune(s)
	if len(r) > max {
		cut := max
		for cut > max*2/3 && r[cut] != ' ' {
			cut--
		}
		s = strings.TrimRight(string(r[:cut]), " ,;:、，") + "…"
	}
	return s
}
