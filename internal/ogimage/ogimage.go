// Package ogimage draws the social cards of the 16 types: the image a
// shared type page shows on Facebook, X, LinkedIn and the like. A card holds
// the type's four letters and the brand, in the Go fonts (Latin only, so a
// card reads the same in every locale), and is drawn once at start.
package ogimage

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Size is the card's size: the 1.91:1 shape the networks expect.
const (
	Width  = 1200
	Height = 630
)

// Colours of the home theme (themes/home/theme.css).
var (
	background = color.RGBA{0x1E, 0x1B, 0x4B, 0xFF}
	primary    = color.RGBA{0x4F, 0x46, 0xE5, 0xFF}
	accent     = color.RGBA{0x8B, 0x5C, 0xF6, 0xFF}
	white      = color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
	soft       = color.RGBA{0xC7, 0xD2, 0xFE, 0xFF}
)

// Cards are the PNG cards of a set of types, by code.
type Cards map[string][]byte

// Draw makes the card of every code, with a subtitle line under the code.
func Draw(codes []string, subtitle string) (Cards, error) {
	big, err := face(gobold.TTF, 260)
	if err != nil {
		return nil, err
	}
	small, err := face(goregular.TTF, 44)
	if err != nil {
		return nil, err
	}
	brand, err := face(gobold.TTF, 52)
	if err != nil {
		return nil, err
	}
	out := Cards{}
	for _, code := range codes {
		img := image.NewRGBA(image.Rect(0, 0, Width, Height))
		draw.Draw(img, img.Bounds(), &image.Uniform{background}, image.Point{}, draw.Src)
		draw.Draw(img, image.Rect(0, 0, 24, Height), &image.Uniform{primary}, image.Point{}, draw.Src)
		draw.Draw(img, image.Rect(24, 0, 36, Height), &image.Uniform{accent}, image.Point{}, draw.Src)
		text(img, brand, "Selfmap", 96, 130, soft)
		text(img, big, code, 90, 420, white)
		text(img, small, subtitle, 96, 520, soft)
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			return nil, fmt.Errorf("ogimage: %s: %w", code, err)
		}
		out[code] = buf.Bytes()
	}
	return out, nil
}

func face(ttf []byte, size float64) (font.Face, error) {
	f, err := opentype.Parse(ttf)
	if err != nil {
		return nil, fmt.Errorf("ogimage: font: %w", err)
	}
	return opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
}

func text(img draw.Image, f font.Face, s string, x, y int, c color.Color) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: f, Dot: fixed.P(x, y)}
	d.DrawString(s)
}
