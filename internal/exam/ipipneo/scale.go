package ipipneo

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"strings"
)

// ScaleMin and ScaleMax bound an answer: 1 "Very inaccurate" to 5 "Very
// accurate".
const (
	ScaleMin = 1
	ScaleMax = 5
)

//go:embed scale.tsv
var scaleTSV []byte

// scaleHeader is the second line of scale.tsv.
const scaleHeader = "# locale\t1\t2\t3\t4\t5"

// LoadScale reads scale.tsv: a provenance comment, the column names, then
// one locale a line with the labels of values 1 to 5. It refuses a file
// without English, a locale twice, or a line without five labels, naming
// the line.
func LoadScale() (map[string][]string, error) {
	return readScale("scale.tsv", scaleTSV)
}

func readScale(name string, data []byte) (map[string][]string, error) {
	out := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		s := sc.Text()
		switch {
		case line == 1 && (!strings.HasPrefix(s, "# ") || strings.Contains(s, "\t")):
			return nil, fmt.Errorf("ipipneo: %s:1: the first line must be the provenance comment", name)
		case line == 2 && s != scaleHeader:
			return nil, fmt.Errorf("ipipneo: %s:2: the column names must read %q", name, scaleHeader)
		case line <= 2 || strings.TrimSpace(s) == "":
			continue
		}
		cols := strings.Split(s, "\t")
		if len(cols) != 1+ScaleMax-ScaleMin+1 {
			return nil, fmt.Errorf("ipipneo: %s:%d: %d columns, want a locale and %d labels", name, line, len(cols), ScaleMax-ScaleMin+1)
		}
		if _, dup := out[cols[0]]; dup {
			return nil, fmt.Errorf("ipipneo: %s:%d: locale %s appears twice", name, line, cols[0])
		}
		labels := cols[1:]
		for i, l := range labels {
			if strings.TrimSpace(l) != l || l == "" {
				return nil, fmt.Errorf("ipipneo: %s:%d: the label of %d is empty or padded", name, line, ScaleMin+i)
			}
		}
		out[cols[0]] = labels
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("ipipneo: %s: %w", name, err)
	}
	if _, ok := out["en"]; !ok {
		return nil, fmt.Errorf("ipipneo: %s has no English line", name)
	}
	return out, nil
}
