package account

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"selfmap/internal/store"
	"selfmap/internal/validate"
)

// FuzzProfileForm reads the profile form (nickname, phone, birthday, sex,
// introduction): no panic; what it accepts is valid UTF-8 without control
// characters (but the introduction's line breaks) or, in the nickname,
// bidirectional controls, within its limits, a real date no later than
// today, one of the sexes; and a cleaned profile checks again to itself.
func FuzzProfileForm(f *testing.F) {
	f.Add("Kim  Lee", "+82 10-1234-5678", "1990-02-28", "female", "Hello,\r\nworld")
	f.Add("<b>", "++123", "2000-02-30", "other", "\x00\x01")
	f.Add(strings.Repeat("é", 31), "(030) 123.456", "1899-12-31", "", strings.Repeat("a", 501))
	f.Add("a\x01b", "123456", " 2026-11-22 ", "male", "\xff\xfe")
	f.Add("0", "", "", "", "\x01 0")             // a control character hid a space from the trim (CI, 2026-11-22)
	f.Add("Ada\u202Egpj.exe", "", "", "", "")    // a right-to-left override (issue 14)
	f.Add("\u2067Ada\u2069 Lee", "", "", "", "") // an isolate pair
	today := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, nickname, phone, birthday, sex, intro string) {
		in := store.Profile{Nickname: nickname, Phone: phone, Birthday: birthday, Sex: sex, Introduction: intro}
		out, errs := CheckProfile(in, today)
		if errs["nickname"] == "" {
			n := out.Nickname
			if !utf8.ValidString(n) || utf8.RuneCountInString(n) > MaxNickname || strings.ContainsAny(n, "<>{}") ||
				strings.ContainsFunc(n, unicode.IsControl) || strings.ContainsFunc(n, isBidiControl) || n != strings.Join(strings.Fields(n), " ") {
				t.Fatalf("nickname %q accepted as %q", nickname, n)
			}
		}
		if errs["phone"] == "" && out.Phone != "" {
			digits := 0
			for i, r := range out.Phone {
				switch {
				case r >= '0' && r <= '9':
					digits++
				case r == '+' && i == 0, strings.ContainsRune(" -().", r):
				default:
					t.Fatalf("phone %q accepted", out.Phone)
				}
			}
			if digits < 6 || digits > 15 {
				t.Fatalf("phone %q with %d digits accepted", out.Phone, digits)
			}
		}
		if errs["birthday"] == "" && out.Birthday != "" {
			d, err := time.Parse(time.DateOnly, out.Birthday)
			if err != nil || d.Format(time.DateOnly) != out.Birthday || d.Year() < 1900 || d.After(today) {
				t.Fatalf("birthday %q accepted", out.Birthday)
			}
		}
		if errs["sex"] == "" && out.Sex != "" && !slices.Contains(Sexes, out.Sex) {
			t.Fatalf("sex %q accepted", out.Sex)
		}
		if errs["introduction"] == "" {
			s := out.Introduction
			if !utf8.ValidString(s) || utf8.RuneCountInString(s) > MaxIntroduction ||
				strings.ContainsFunc(s, func(r rune) bool { return r != '\n' && unicode.IsControl(r) }) {
				t.Fatalf("introduction %q accepted as %q", intro, s)
			}
		}
		if len(errs) == 0 {
			again, errs2 := CheckProfile(out, today)
			if len(errs2) != 0 || again != out {
				t.Fatalf("a clean profile changed on a second check: %+v -> %+v %v", out, again, errs2)
			}
		}
	})
}

// FuzzRegisterFields reads the registration and log-in forms' name,
// address and password: no panic; an accepted name is valid UTF-8 of at
// most MaxName characters with single spaces, no markup, control or
// bidirectional control characters, and is accepted again as itself; an
// accepted address is lower case, valid UTF-8 without U+FFFD, and accepted
// again as itself; a new password is accepted only between the limits and
// equal to its repetition.
func FuzzRegisterFields(f *testing.F) {
	f.Add("  Kim   Lee ", "Kim@Example.COM", "correct horse", "correct horse")
	f.Add("<script>", "a@b", "short", "short")
	f.Add("a\x00b\x1bc", " x@y.z ", strings.Repeat("ü", 129), "")
	f.Add(strings.Repeat("名", 51), "\xff@x.io", "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8", "\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8")
	f.Add("Eve\u202E", "\uFFFD@x.io", "correct horse", "correct horse")        // issue 14: an override; broken bytes a JSON body decoded
	f.Add("\u2066Kim\u2069", "ad\xc3a@x.io", "correct horse", "correct horse") // an isolate pair; a cut UTF-8 sequence
	f.Fuzz(func(t *testing.T, name, email, password, confirm string) {
		if out, msg := validate.Name(name, MaxName); msg == "" {
			if out == "" || !utf8.ValidString(out) || utf8.RuneCountInString(out) > MaxName || out != strings.Join(strings.Fields(out), " ") ||
				strings.ContainsAny(out, "<>{}") || strings.ContainsFunc(out, unicode.IsControl) || strings.ContainsFunc(out, isBidiControl) {
				t.Fatalf("name %q accepted as %q", name, out)
			}
			if again, msg := validate.Name(out, MaxName); msg != "" || again != out {
				t.Fatalf("name %q accepted, then %q (%s)", out, again, msg)
			}
		}
		if e, msg := normalEmail(email); msg == "" {
			if e != strings.ToLower(e) || !utf8.ValidString(e) || strings.ContainsRune(e, utf8.RuneError) {
				t.Fatalf("address %q kept as %q", email, e)
			}
			if again, msg := normalEmail(e); msg != "" || again != e {
				t.Fatalf("address %q accepted, then %q refused or changed (%q)", email, e, msg)
			}
		}
		errs := validate.FieldErrors{}
		checkNewPassword(errs, "password", password, confirm)
		if len(errs) == 0 {
			if n := utf8.RuneCountInString(password); n < MinPassword || n > MaxPassword || password != confirm {
				t.Fatalf("password of %d characters accepted (confirm equal: %v)", n, password == confirm)
			}
		}
		if n := utf8.RuneCountInString(password); n >= MinPassword && n <= MaxPassword && password == confirm && len(errs) != 0 {
			t.Fatalf("a good password was refused: %v", errs)
		}
	})
}

// avatarSeeds are small pictures in each format the decoder reads, and
// headers that claim huge sizes.
func avatarSeeds(f *testing.F) {
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{200, 10, 10, 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	f.Add(bytes.Clone(b.Bytes()))
	b.Reset()
	_ = jpeg.Encode(&b, img, nil)
	f.Add(bytes.Clone(b.Bytes()))
	b.Reset()
	_ = gif.Encode(&b, img, nil)
	f.Add(bytes.Clone(b.Bytes()))
	// A PNG header that claims 100000 x 100000 pixels.
	big := image.NewGray(image.Rect(0, 0, 1, 1))
	b.Reset()
	_ = png.Encode(&b, big)
	hdr := bytes.Clone(b.Bytes())
	copy(hdr[16:24], []byte{0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0})
	f.Add(hdr)
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "))
	f.Add([]byte{})
	// 16 bits a channel, which takes both decoding turns (issue 14).
	deep := image.NewNRGBA64(image.Rect(0, 0, 3, 2))
	deep.Set(2, 1, color.NRGBA64{R: 0xffff, A: 0x8000})
	b.Reset()
	_ = png.Encode(&b, deep)
	f.Add(bytes.Clone(b.Bytes()))
}

// isBidiControl reports whether r is a bidirectional embedding, override
// or isolate (U+202A-U+202E, U+2066-U+2069).
func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

// FuzzProcessAvatar feeds the avatar upload hostile pictures: no panic;
// nothing over the size limit or with a side over MaxAvatarSide is decoded;
// what it keeps is a JPEG or PNG of the media type it names, no larger than
// AvatarSide on either side.
func FuzzProcessAvatar(f *testing.F) {
	avatarSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		out, mediaType, msg := ProcessAvatar(data)
		cfg, _, cfgErr := image.DecodeConfig(bytes.NewReader(data))
		if cfgErr == nil && (cfg.Width > MaxAvatarSide || cfg.Height > MaxAvatarSide) && msg != "account.error.avatar_dims" {
			t.Fatalf("a %dx%d picture was not refused for its size: %q", cfg.Width, cfg.Height, msg)
		}
		if msg != "" {
			if out != nil || mediaType != "" {
				t.Fatal("a refused picture returned an image")
			}
			return
		}
		if cfgErr != nil {
			t.Fatalf("accepted a picture whose header does not decode: %v", cfgErr)
		}
		got, format, err := image.DecodeConfig(bytes.NewReader(out))
		if err != nil || "image/"+format != mediaType || (format != "jpeg" && format != "png") {
			t.Fatalf("kept %q as %s (%v)", format, mediaType, err)
		}
		if got.Width < 1 || got.Height < 1 || got.Width > AvatarSide || got.Height > AvatarSide {
			t.Fatalf("kept a %dx%d picture", got.Width, got.Height)
		}
	})
}
