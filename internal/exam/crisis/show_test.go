package crisis

import "testing"

// A line is shown in the reader's language and dialled by its digits; a
// text line is texted, and hours with English words are kept from a reader
// of another language.
func TestShowALine(t *testing.T) {
	l := Line{Name: "よりそいホットライン", NameEn: "Yorisoi Hotline", Phone: "0120-279-338", Hours: "24時間365日 (24/7), free"}
	if l.NameIn("ja") != "よりそいホットライン" || l.NameIn("en") != "Yorisoi Hotline" || l.HoursIn("ja") != "" || l.HoursIn("en") != l.Hours {
		t.Errorf("%q %q %q %q", l.NameIn("ja"), l.NameIn("en"), l.HoursIn("ja"), l.HoursIn("en"))
	}
	if h := (Line{Hours: "24시간 (24/7)"}).HoursIn("ko"); h != "24시간 (24/7)" {
		t.Errorf("ko hours %q", h)
	}
	for phone, want := range map[string]string{"0120-279-338": "tel:0120279338", "116 123": "tel:116123", "741741 (text)": "sms:741741", "988": "tel:988"} {
		if got := Dial(phone); got != want {
			t.Errorf("Dial(%q) = %q, want %q", phone, got, want)
		}
	}
	if w := (Lines{WebName: "まもろうよ こころ", WebNameEn: "Mamorouyo Kokoro"}); w.WebNameIn("fr") != "まもろうよ こころ" || w.WebNameIn("en") != "Mamorouyo Kokoro" {
		t.Error("web name")
	}
}
