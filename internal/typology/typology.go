// Package typology knows the sixteen personality types: their codes, the
// axes their letters come from, and how they group and relate. The texts
// about each type are messages (type.<CODE>.*, typeprofile.<CODE>.*).
package typology

import "strings"

// Codes lists the sixteen types, grouped by their middle letters (NT, NF,
// SJ, SP), in the order the types page shows them.
var Codes = []string{
	"INTJ", "INTP", "ENTJ", "ENTP",
	"INFJ", "INFP", "ENFJ", "ENFP",
	"ISTJ", "ISFJ", "ESTJ", "ESFJ",
	"ISTP", "ISFP", "ESTP", "ESFP",
}

// Groups are the four families of types, in display order.
var Groups = []string{"NT", "NF", "SJ", "SP"}

// Axis is one letter position of a type code: its two poles, and the Big
// Five domain whose score decides between them (the first pole is the high
// end).
type Axis struct {
	High, Low byte
	Domain    string
}

// Axes are the four letter positions, in code order.
var Axes = []Axis{
	{High: 'E', Low: 'I', Domain: "E"},
	{High: 'N', Low: 'S', Domain: "O"},
	{High: 'F', Low: 'T', Domain: "A"},
	{High: 'J', Low: 'P', Domain: "C"},
}

// Normalize returns the upper-case code of one of the sixteen types, or ""
// for anything else.
func Normalize(code string) string {
	up := strings.ToUpper(code)
	for _, c := range Codes {
		if c == up {
			return c
		}
	}
	return ""
}

// Group returns the family of a valid code: NT, NF, SJ or SP.
func Group(code string) string {
	switch {
	case code[1] == 'N':
		return "N" + code[2:3]
	default:
		return "S" + code[3:4]
	}
}

// Neighbours returns the four types that differ from code by one letter,
// in axis order: the types a borderline result could also be.
func Neighbours(code string) []string {
	out := make([]string, 0, len(Axes))
	for i, a := range Axes {
		b := []byte(code)
		if b[i] == a.High {
			b[i] = a.Low
		} else {
			b[i] = a.High
		}
		out = append(out, string(b))
	}
	return out
}
