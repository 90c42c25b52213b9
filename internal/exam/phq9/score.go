package phq9

import "fmt"

// Band is a published severity band of the sum (Kroenke, Spitzer &
// Williams 2001).
type Band string

// The five bands, by sum: 0-4, 5-9, 10-14, 15-19, 20-27.
const (
	Minimal          Band = "minimal"
	Mild             Band = "mild"
	Moderate         Band = "moderate"
	ModeratelySevere Band = "moderately_severe"
	Severe           Band = "severe"
)

// Result is a scored answer set; it is stored as the result's detail.
type Result struct {
	// Sum is the total, 0-27.
	Sum  int  `json:"sum"`
	Band Band `json:"band"`
	// Crisis is set when item 9 (thoughts of being better off dead or of
	// hurting oneself) is answered above "Not at all": the report shows
	// crisis resources before anything else.
	Crisis bool `json:"crisis"`
	// Answers are the nine answers, 0-3, in item order.
	Answers []int `json:"answers"`
}

// BandOf places a sum in its band. The sum is not rounded: an unrounded
// score (a mean times nine, say) falls in the band its value reaches.
func BandOf(sum float64) Band {
	switch {
	case sum < 5:
		return Minimal
	case sum < 10:
		return Mild
	case sum < 15:
		return Moderate
	case sum < 20:
		return ModeratelySevere
	default:
		return Severe
	}
}

// Score scores a complete answer set in item order. It refuses a set of
// the wrong length or an answer outside 0-3.
func Score(answers []int) (Result, error) {
	if len(answers) != ItemCount {
		return Result{}, fmt.Errorf("phq9: %d answers, want %d", len(answers), ItemCount)
	}
	sum := 0
	for i, a := range answers {
		if a < ScaleMin || a > ScaleMax {
			return Result{}, fmt.Errorf("phq9: answer %d is %d, want %d-%d", i+1, a, ScaleMin, ScaleMax)
		}
		sum += a
	}
	return Result{Sum: sum, Band: BandOf(float64(sum)), Crisis: answers[CrisisItem] > 0, Answers: append([]int(nil), answers...)}, nil
}
