package account

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	_ "image/gif" // decodes GIF avatars, re-encoded as PNG

	"github.com/jmoiron/sqlx"
	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // decodes WebP avatars, re-encoded as PNG

	"selfmap/internal/validate"
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
func CheckProfile(p Profile, today time.Time) (Profile, validate.FieldErrors) {
	errs := validate.FieldErrors{}
	p.Nickname = strings.Join(strings.Fields(p.Nickname), " ")
	switch {
	case utf8.RuneCountInString(p.Nickname) > MaxNickname:
		errs.Add("nickname", "form.too_long")
	case !validate.NameText(p.Nickname):
		// The rules of a name: a nickname is shown and exported as one.
		errs.Add("nickname", "form.name.invalid")
	}
	p.Phone = strings.TrimSpace(p.Phone)
	if p.Phone != "" && !validPhone(p.Phone) {
		errs.Add("phone", "account.error.phone")
	}
	p.Birthday = strings.TrimSpace(p.Birthday)
	if p.Birthday != "" {
		d, err := time.Parse(time.DateOnly, p.Birthday)
		if err != nil || d.Year() < 1900 || d.After(today) {
			errs.Add("birthday", "account.error.birthday")
		}
	}
	if p.Sex != "" && !slices.Contains(Sexes, p.Sex) {
		errs.Add("sex", "form.choose")
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
		errs.Add("introduction", "account.error.intro_long")
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

// UpdateProfile checks and saves a profile, and returns the account as it
// now reads. A refused profile is not saved: the answer is then the
// profile as cleaned, for the form to show again, with what is wrong.
func (s *Service) UpdateProfile(ctx context.Context, userID string, p Profile) (Profile, validate.FieldErrors, error) {
	p, errs := CheckProfile(p, s.Now())
	if errs.Any() {
		return p, errs, nil
	}
	if err := s.Store.UpdateProfile(ctx, s.Store.DB, userID, p, s.Now()); err != nil {
		return p, nil, fmt.Errorf("account: update profile: %w", err)
	}
	return p, nil, nil
}

// User reads an account; apperr.ErrNotFound when there is none.
func (s *Service) User(ctx context.Context, userID string) (User, error) {
	u, err := s.Store.GetUser(ctx, s.Store.DB, userID)
	if err != nil {
		return User{}, fmt.Errorf("account: user: %w", err)
	}
	return u, nil
}

// Avatar is the account's own picture and its media type;
// apperr.ErrNotFound when it has none.
func (s *Service) Avatar(ctx context.Context, userID string) ([]byte, string, error) {
	img, mediaType, err := s.Store.Avatar(ctx, s.Store.DB, userID)
	if err != nil {
		return nil, "", fmt.Errorf("account: avatar: %w", err)
	}
	return img, mediaType, nil
}

// ProcessAvatar checks an uploaded picture (size, a format we take,
// dimensions from its header, before anything is decoded) and re-encodes
// it, so nothing of the upload but its pixels is kept: JPEG stays JPEG,
// every other format becomes PNG. It returns the image, its media type, or
// the message to show. The service calls it through SetAvatar, which
// limits how many pictures are decoded at once.
func ProcessAvatar(data []byte) ([]byte, string, string) {
	_, format, msg := checkAvatar(data)
	if msg != "" {
		return nil, "", msg
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

// checkAvatar reads a picture's header: its size in pixels, its format, or
// the message to show. At most 4096 pixels a side is at most 16
// megapixels, 64 MiB decoded at 8 bits a channel and 128 MiB at 16; the
// decoders we use allocate no more than the header says (one PNG header,
// one JPEG frame, GIF and WebP frames checked against the canvas).
func checkAvatar(data []byte) (image.Config, string, string) {
	if len(data) == 0 {
		return image.Config{}, "", "account.error.avatar_type"
	}
	if len(data) > MaxAvatarBytes {
		return image.Config{}, "", "account.error.avatar_size"
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || !slices.Contains(avatarFormats, format) {
		return image.Config{}, "", "account.error.avatar_type"
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > MaxAvatarSide || cfg.Height > MaxAvatarSide {
		return image.Config{}, "", "account.error.avatar_dims"
	}
	return cfg, format, ""
}

// avatarFormats are the decoders a picture may use: image.Decode would take
// any format some other package of the binary registers.
var avatarFormats = []string{"png", "jpeg", "gif", "webp"}

// AvatarSide is the longest side a kept picture has: an avatar is shown
// small, and a large upload re-encoded at full size could weigh megabytes.
const AvatarSide = 512

// shrink scales an image down so its longer side is at most side pixels.
// It halves the picture first (each new pixel the mean of a 2 x 2 block)
// until it is at most twice the size: CatmullRom keeps four float64s for
// each pixel of the new width by the old height, 64 MiB from 4096 pixels
// to 512, and 16 MiB from 1024.
func shrink(img image.Image, side int) image.Image {
	for b := img.Bounds(); max(b.Dx(), b.Dy()) > 2*side; b = img.Bounds() {
		half := image.NewRGBA(image.Rect(0, 0, max(1, b.Dx()/2), max(1, b.Dy()/2)))
		draw.ApproxBiLinear.Scale(half, half.Bounds(), img, b, draw.Src, nil)
		img = half
	}
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

// The two decoding turns of the process, as the memory they guard is the
// process's: twenty 4096 x 4096 uploads decoded together would hold 1.3 GiB
// of pixels or more, two hold 128 MiB. A picture of 16 bits a channel
// weighs as much as two and takes both turns; avatarPair is held while one
// caller gathers two, so that two such callers never hold one each and
// wait for ever.
var (
	avatarTurns = make(chan struct{}, 2)
	avatarPair  = make(chan struct{}, 1)
)

// decodeTurns is how many turns decoding a picture takes.
func decodeTurns(cfg image.Config) int {
	if cfg.ColorModel == color.RGBA64Model || cfg.ColorModel == color.NRGBA64Model {
		return 2
	}
	return 1
}

// takeTurns waits for n decoding turns, or for ctx to end.
func takeTurns(ctx context.Context, n int) error {
	if n > 1 {
		select {
		case avatarPair <- struct{}{}:
		case <-ctx.Done():
			return ctx.Err()
		}
		defer func() { <-avatarPair }()
	}
	for i := range n {
		select {
		case avatarTurns <- struct{}{}:
		case <-ctx.Done():
			giveTurns(i)
			return ctx.Err()
		}
	}
	return nil
}

// giveTurns hands n decoding turns back.
func giveTurns(n int) {
	for range n {
		<-avatarTurns
	}
}

// SetAvatar checks, re-encodes and stores a picture. A picture whose header
// passes waits for its decoding turns (or for ctx to end); it returns the
// message to show when the picture is refused.
func (s *Service) SetAvatar(ctx context.Context, userID string, data []byte) (string, error) {
	img, mediaType, msg, err := processInTurn(ctx, data)
	if err != nil || msg != "" {
		return msg, err
	}
	return "", s.Store.SetAvatar(ctx, s.Store.DB, userID, img, mediaType, s.Now())
}

// processInTurn is ProcessAvatar once the picture's header passed and its
// decoding turns came (or ctx ended).
func processInTurn(ctx context.Context, data []byte) ([]byte, string, string, error) {
	cfg, _, msg := checkAvatar(data)
	if msg != "" {
		return nil, "", msg, nil
	}
	n := decodeTurns(cfg)
	if err := takeTurns(ctx, n); err != nil {
		return nil, "", "", fmt.Errorf("account: wait to decode an avatar: %w", err)
	}
	img, mediaType, msg := func() ([]byte, string, string) {
		defer giveTurns(n) // even if a decoder panics
		return ProcessAvatar(data)
	}()
	return img, mediaType, msg, nil
}

// SaveProfile saves the profile form in one submit: its fields and, when
// one was chosen (avatar not nil), its picture. Either both are saved or,
// when anything is refused, nothing: the answer is then the profile as
// cleaned, for the form to show again, with what is wrong field by field
// ("avatar" for the picture).
func (s *Service) SaveProfile(ctx context.Context, userID string, p Profile, avatar []byte) (Profile, validate.FieldErrors, error) {
	p, errs := CheckProfile(p, s.Now())
	if avatar != nil {
		_, _, msg := checkAvatar(avatar)
		errs.Add("avatar", msg)
	}
	if errs.Any() {
		return p, errs, nil
	}
	var img []byte
	var mediaType string
	if avatar != nil {
		var msg string
		var err error
		if img, mediaType, msg, err = processInTurn(ctx, avatar); err != nil || msg != "" {
			return p, validate.ErrorOn("avatar", msg), err
		}
	}
	err := s.Store.InTx(ctx, func(tx *sqlx.Tx) error {
		if img != nil {
			if err := s.Store.SetAvatar(ctx, tx, userID, img, mediaType, s.Now()); err != nil {
				return err
			}
		}
		return s.Store.UpdateProfile(ctx, tx, userID, p, s.Now())
	})
	if err != nil {
		return p, nil, fmt.Errorf("account: save profile: %w", err)
	}
	return p, nil, nil
}
