package ipipneo

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// NormsVersion names the norm table, stored with every result.
const NormsVersion = "johnson-shortipipneo3"

//go:embed norms.csv
var normsCSV []byte

// Sex selects a norm group; SexUnknown uses the pooled norm.
type Sex string

// The sexes of the norm tables.
const (
	SexUnknown Sex = ""
	Male       Sex = "M"
	Female     Sex = "F"
)

// Norm is the mean and standard deviation of one scale's raw sum.
type Norm struct {
	Mean, SD float64
}

// NormGroup is the set of norms a result is scored against.
type NormGroup struct {
	// Label names the group, e.g. "F 21-40", "M pooled ages", "pooled"; it
	// is stored with each result. It is a code: pages show the group in
	// words from Sex and the age band.
	Label string
	// Sex is the group's sex, SexUnknown when both are pooled.
	Sex Sex
	// AgeMin and AgeMax bound the age band; both 0 when ages are pooled.
	AgeMin, AgeMax int
	Scales         map[string]Norm
}

type normCell struct {
	sex            Sex
	ageMin, ageMax int
	scales         map[string]Norm
}

// Norms holds Johnson's norm cells, two sexes by four age bands, and every
// group For can return, computed once.
type Norms struct {
	cells   []normCell
	groups  map[groupKey]NormGroup
	byLabel map[string]NormGroup
}

// groupKey names a group by sex and the lower bound of its age band (0 for
// pooled ages).
type groupKey struct {
	sex    Sex
	ageMin int
}

// LoadNorms parses the embedded norm table.
func LoadNorms() (*Norms, error) {
	r := csv.NewReader(bytes.NewReader(normsCSV))
	r.Comment = '#'
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("ipipneo: read norms: %w", err)
	}
	if len(rows) < 2 || strings.Join(rows[0], ",") != "sex,age_min,age_max,scale,scale_kind,mean,sd" {
		return nil, fmt.Errorf("ipipneo: norms.csv has an unexpected header")
	}
	n := &Norms{}
	index := map[string]int{}
	for _, row := range rows[1:] {
		lo, err1 := strconv.Atoi(row[1])
		hi, err2 := strconv.Atoi(row[2])
		mean, err3 := strconv.ParseFloat(row[5], 64)
		sd, err4 := strconv.ParseFloat(row[6], 64)
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil || sd <= 0 {
			return nil, fmt.Errorf("ipipneo: bad norm row %v", row)
		}
		key := row[0] + row[1]
		i, ok := index[key]
		if !ok {
			i = len(n.cells)
			index[key] = i
			n.cells = append(n.cells, normCell{sex: Sex(row[0]), ageMin: lo, ageMax: hi, scales: map[string]Norm{}})
		}
		n.cells[i].scales[row[3]] = Norm{Mean: mean, SD: sd}
	}
	if len(n.cells) != 8 {
		return nil, fmt.Errorf("ipipneo: %d norm cells, want 8 (2 sexes x 4 age bands)", len(n.cells))
	}
	for _, c := range n.cells {
		if len(c.scales) != 35 {
			return nil, fmt.Errorf("ipipneo: norm cell %s %d-%d has %d scales, want 35", c.sex, c.ageMin, c.ageMax, len(c.scales))
		}
	}
	n.groups = map[groupKey]NormGroup{}
	n.byLabel = map[string]NormGroup{}
	for _, sex := range []Sex{SexUnknown, Male, Female} {
		n.groups[groupKey{sex, 0}] = n.pool(sex, 0)
		for _, c := range n.cells {
			n.groups[groupKey{sex, c.ageMin}] = n.pool(sex, c.ageMin)
		}
	}
	for _, g := range n.groups {
		n.byLabel[g.Label] = g
	}
	return n, nil
}

// Group returns the norm group a result was scored against, by the label
// stored with it.
func (n *Norms) Group(label string) (NormGroup, bool) {
	g, ok := n.byLabel[label]
	return g, ok
}

// Groups lists every group For can return (15: three sexes, pooled ages and
// the four bands), in a stable order.
func (n *Norms) Groups() []NormGroup {
	var out []NormGroup
	for _, sex := range []Sex{SexUnknown, Male, Female} {
		out = append(out, n.groups[groupKey{sex, 0}])
		for _, c := range n.cells[:4] {
			out = append(out, n.groups[groupKey{sex, c.ageMin}])
		}
	}
	return out
}

// For returns the norm group of a test-taker. A known sex and an age inside
// Johnson's bands (10-99) select one cell. When either is unknown the cells
// that match what is known are pooled as an equal-weight mixture (the source
// does not publish the cells' sample sizes): the pooled mean is the mean of
// the means, and the pooled variance the mean of the variances plus the
// variance of the means.
func (n *Norms) For(sex Sex, age int) NormGroup {
	for _, c := range n.cells {
		if age >= c.ageMin && age <= c.ageMax {
			return n.groups[groupKey{sex, c.ageMin}]
		}
	}
	return n.groups[groupKey{sex, 0}]
}

// pool builds the group of the cells matching sex and age (0: any).
func (n *Norms) pool(sex Sex, age int) NormGroup {
	var cells []normCell
	for _, c := range n.cells {
		if (sex == SexUnknown || c.sex == sex) && (age == 0 || (age >= c.ageMin && age <= c.ageMax)) {
			cells = append(cells, c)
		}
	}
	label := "pooled"
	switch {
	case len(cells) == 1:
		label = fmt.Sprintf("%s %d-%d", cells[0].sex, cells[0].ageMin, cells[0].ageMax)
	case sex != SexUnknown:
		label = string(sex) + " pooled ages"
	case age != 0:
		label = fmt.Sprintf("pooled sexes %d-%d", cells[0].ageMin, cells[0].ageMax)
	}
	g := NormGroup{Label: label, Sex: sex, Scales: map[string]Norm{}}
	if age != 0 {
		g.AgeMin, g.AgeMax = cells[0].ageMin, cells[0].ageMax
	}
	for scale := range cells[0].scales {
		var sumMean, sumVar float64
		for _, c := range cells {
			sumMean += c.scales[scale].Mean
			sumVar += c.scales[scale].SD * c.scales[scale].SD
		}
		k := float64(len(cells))
		mean := sumMean / k
		var spread float64
		for _, c := range cells {
			d := c.scales[scale].Mean - mean
			spread += d * d
		}
		g.Scales[scale] = Norm{Mean: mean, SD: math.Sqrt(sumVar/k + spread/k)}
	}
	return g
}
