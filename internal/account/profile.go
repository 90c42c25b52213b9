package account

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"image/png"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // decodes WebP avatars, re-encoded as PNG
	_ "image/gif"               // decodes GIF avatars, re-encoded as PNG

	"selfmap/internal/store"
)

// Profile limits.
const (
	MaxNickname     = 30
	MaxIntroduction = 500
	MaxAvatarBytes  = 2 << 20
	MaxAvatarSide   = 4096
)

// Sexes are the profile's choices, in the form's order.
var Sexes = []string{"male", "female", "confidential"}

// CheckProfile cleans a profile and reports what is wrong, field by field.
func CheckProfile(p store.Profile, today time.Time) (store.Profile, Errors) {
	errs := Errors{}
	p.Nickname = strings.Join(strings.Fields(p.Nickname), " ")
	switch {
	case utf8.RuneCountInString(p.Nickname) > MaxNickname:
		errs["nickname"] = "form.too_long"
	case strings.ContainsAny(p.Nickname, "<>{}") || strings.ContainsFunc(p.Nickname, unicode.IsControl) || !utf8.ValidString(p.Nickname):
		// As validate.Name: no markup, no control characters (a nickname
		// reaches mail and exports), no broken UTF-8 (PostgreSQL refuses it).
		errs["nickname"] = "form.name.invalid"
	}
	p.Phone = strings.TrimSpace(p.Phone)
	if p.Phone != "" && !validPhone(p.Phone) {
		errs["phone"] = "account.error.phone"
	}
	p.Birthday = strings.TrimSpace(p.Birthday)
	if p.Birthday != "" {
		d, err := time.Parse(time.DateOnly, p.Birthday)
		if err != nil || d.Year() < 1900 || d.After(today) {
			errs["birthday"] = "account.error.birthday"
		}
	}
	if p.Sex != "" && !slices.Contains(Sexes, p.Sex) {
		errs["sex"] = "form.choose"
		p.Sex = ""
	}
	// Control characters go first, so that the trim sees what they hid: an
	// introduction of "\x01 hi" must clean to "hi", not " hi".
	p.Introduction = strings.Map(func(r rune) rune {
		if r != '\n' && unicode.IsControl(r) {
			return -1
		}
		return r
	}, strings.ReplaceAll(p.Introduction, "\r\n", "\n"))
	p.Introduction = strings.TrimSpace(p.Introduction)
	if utf8.RuneCountInString(p.Introduction) > MaxIntroduction {
		errs["introduction"] = "account.error.intro_long"
	}
	return p, errs
}

// validPhone accepts digits with the usual separators and an optional
// leading plus: 6 to 15 digits, as E.164 allows.
func validPhone(s string) bool {
	digits := 0
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '+' && i == 0, r == ' ', r == '-', r == '(', r == ')', r == '.':
		default:
			return false
		}
	}
	return digits >= 6 && digits <= 15
}

// UpdateProfile checks and saves a profile.
func (s *Service) UpdateProfile(ctx context.Context, userID string, p store.Profile) (store.Profile, Errors, error) {
	p, errs := CheckProfile(p, s.Now())
	if len(errs) > 0 {
		return p, errs, nil
	}
	return p, nil, s.Store.UpdateProfile(ctx, userID, p, s.Now())
}

// ProcessAvatar checks an uploaded picture (size, a format the registered
// decoders read, dimensions) and re-encodes it, so nothing of the upload but
// its pixels is kept: JPEG stays JPEG, every other format becomes PNG. It
// returns the image, its media type, or the message to show.
func ProcessAvatar(data []byte) ([]byte, string, string) {
	if len(data) == 0 {
		return nil, "", "account.error.avatar_type"
	}
	if len(data) > MaxAvatarBytes {
		return nil, "", "account.error.avatar_size"
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, "", "account.error.avatar_type"
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxAvatarSide || cfg.Height > MaxAvatarSide {
		return nil, "", "account.error.avatar_dims"
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, "", "account.error.avatar_type"
	}
	img = shrink(img, AvatarSide)
	var out bytes.Buffer
	if format == "jpeg" {
		if err := jpeg.Encode(&out, img, &jpeg.Options{Quality: 85}); err != nil {
			return nil, "", "account.error.avatar_type"
		}
		return out.Bytes(), "image/jpeg", ""
	}
	if err := png.Encode(&out, img); err != nil {
		return nil, "", "account.error.avatar_type"
	}
	return out.Bytes(), "image/png", ""
}

// AvatarSide is the longest side a kept picture has: an avatar is shown
// small, and a large upload re-encoded at full size could weigh megabytes.
const AvatarSide = 512

// shrink scales an image down so its longer side is at most side pixels.
func shrink(img image.Image, side int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= side && h <= side {
		return img
	}
	if w >= h {
		w, h = side, max(1, h*side/w)
	} else {
		w, h = max(1, w*side/h), side
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	return dst
}

// SetAvatar checks, re-encodes and stores a picture; it returns the message
// to show when the picture is refused.
func (s *Service) SetAvatar(ctx context.Context, userID string, data []byte) (string, error) {
	img, mediaType, msg := ProcessAvatar(data)
	if msg != "" {
		return msg, nil
	}
	return "", s.Store.SetAvatar(ctx, userID, img, mediaType, s.Now())
}
