package ogimage

import (
	"bytes"
	"image/png"
	"testing"
)

func TestCardsArePNGsOfTheNetworksSize(t *testing.T) {
	cards, err := Draw([]string{"INTJ", "ESFP"}, "16 personality types")
	if err != nil {
		t.Fatal(err)
	}
	if len(cards) != 2 {
		t.Fatalf("%d cards", len(cards))
	}
	for code, b := range cards {
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		if r := img.Bounds(); r.Dx() != Width || r.Dy() != Height {
			t.Errorf("%s is %v", code, r)
		}
		if len(b) > 100<<10 {
			t.Errorf("%s weighs %d bytes", code, len(b))
		}
	}
	if bytes.Equal(cards["INTJ"], cards["ESFP"]) {
		t.Error("two types drew the same card")
	}
}
