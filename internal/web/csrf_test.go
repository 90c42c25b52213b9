package web

import "testing"

func TestCSRFMaskedTokensCheckAndDiffer(t *testing.T) {
	secret := NewCSRFSecret()
	a, b := MaskCSRF(secret), MaskCSRF(secret)
	if a == b {
		t.Fatal("two masks of one secret are equal; masking is not random")
	}
	if !CheckCSRF(secret, a) || !CheckCSRF(secret, b) {
		t.Fatal("a masked token of the secret does not check")
	}
	other := NewCSRFSecret()
	for _, forged := range []string{"", "x", MaskCSRF(other), a[:len(a)-1], a + "A"} {
		if CheckCSRF(secret, forged) {
			t.Errorf("forged token %q checks", forged)
		}
	}
}
