package k10

import "fmt"

// Band is a level of psychological distress by the sum, in the bands of
// Andrews & Slade (2001).
type Band string

// The four bands, by sum: 10-15, 16-21, 22-29, 30-50.
const (
	Low      Band = "low"
	Moderate Band = "moderate"
	High     Band = "high"
	VeryHigh Band = "very_high"
)

// Result is a scored answer set; it is stored as the result's detail.
type Result struct {
	// Sum is the total, 10-50.
	Sum  int  `json:"sum"`
	Band Band `json:"band"`
	// Crisis is set in the top band (very high distress): the report shows
	// crisis resources before anything else.
	Crisis bool `json:"crisis"`
	// Answers are the ten answers, 1-5, in item order.
	Answers []int `json:"answers"`
}

// BandOf places a sum in its band. The sum is not rounded: 29.5 is high,
// not very high.
func BandOf(sum float64) Band {
	switch {
	case sum < 16:
		return Low
	case sum < 22:
		return Moderate
	case sum < 30:
		return High
	default:
		return VeryHigh
	}
}

// Score scores a complete answer set in item order. It refuses a set of
// the wrong length or an answer outside 1-5.
func Score(answers []int) (Result, error) {
	if len(answers) != ItemCount {
		return Result{}, fmt.Errorf("k10: %d answers, want %d", len(answers), ItemCount)
	}
	sum := 0
	for i, a := range answers {
		if a < ScaleMin || a > ScaleMax {
			return Result{}, fmt.Errorf("k10: answer %d is %d, want %d-%d", i+1, a, ScaleMin, ScaleMax)
		}
		sum += a
	}
	b := BandOf(float64(sum))
	return Result{Sum: sum, Band: b, Crisis: b == VeryHigh, Answers: append([]int(nil), answers...)}, nil
}
