package tracking

import (
	"strings"
	"testing"
)

// FuzzParse reads site configurations: no panic, and whatever it accepts
// can go into a script (ids of letters, digits, _ and - only, known
// vendors only).
func FuzzParse(f *testing.F) {
	f.Add(`{"pixels":{"meta":"123"},"tagManager":"GTM-1"}`)
	f.Add(`{"pixels":{"meta":"1\"};alert(1)//"}}`)
	f.Add(`{"sessionReplay":"</script>"}`)
	f.Fuzz(func(t *testing.T, raw string) {
		c, err := Parse(raw)
		if err != nil {
			return
		}
		for name, id := range c.Pixels {
			if _, ok := Vendors[name]; !ok || !idPattern.MatchString(id) {
				t.Fatalf("accepted pixel %q=%q", name, id)
			}
		}
		for _, id := range []string{c.TagManager, c.SessionReplay, c.BotProtection} {
			if id != "" && (!idPattern.MatchString(id) || strings.ContainsAny(id, `"'<>\`)) {
				t.Fatalf("accepted id %q", id)
			}
		}
	})
}
