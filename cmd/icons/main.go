// Command icons draws Fray's icon — a white F on a blue rounded square —
// from its one description below, and writes every file made of it into
// web/static: favicon.svg, the PNGs phones and browsers ask for (192 and
// 512 pixels, their maskable forms with the F inside the safe zone, and
// the 180-pixel apple-touch-icon) and the web app manifest that lists them
// with the icon's colour. web/assets.go runs it through go generate; its
// test fails when a committed file differs from what it draws.
//
//	go run ./cmd/icons [-dir web/static]
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/image/vector"
)

// The icon on a 32×32 grid: the square's corner radius, and the F as a
// polygon.
const (
	grid   = 32
	radius = 7
)

var (
	blue   = color.NRGBA{0x1f, 0x5f, 0xae, 0xff}
	white  = color.NRGBA{0xff, 0xff, 0xff, 0xff}
	letter = [][2]float32{{10, 7}, {23, 7}, {23, 11}, {14.5, 11}, {14.5, 15}, {21, 15}, {21, 19}, {14.5, 19}, {14.5, 25}, {10, 25}}
)

// ThemeColor is the icon's blue, the manifest's theme colour.
var ThemeColor = fmt.Sprintf("#%02x%02x%02x", blue.R, blue.G, blue.B)

// file is one file drawn from the icon.
type file struct {
	name string
	data func() ([]byte, error)
}

func files() []file {
	return []file{
		{"favicon.svg", func() ([]byte, error) { return svg(), nil }},
		{"icons/icon-192.png", func() ([]byte, error) { return pngOf(draw1(192, false)) }},
		{"icons/icon-512.png", func() ([]byte, error) { return pngOf(draw1(512, false)) }},
		{"icons/maskable-192.png", func() ([]byte, error) { return pngOf(draw1(192, true)) }},
		{"icons/maskable-512.png", func() ([]byte, error) { return pngOf(draw1(512, true)) }},
		{"icons/apple-touch-icon.png", func() ([]byte, error) { return pngOf(draw1(180, true)) }},
		{"manifest.webmanifest", manifest},
	}
}

// manifest is the web app manifest that makes Fray installable: its name,
// its icons above, its colour, and a window of its own.
func manifest() ([]byte, error) {
	type icon struct {
		Src     string `json:"src"`
		Sizes   string `json:"sizes"`
		Type    string `json:"type"`
		Purpose string `json:"purpose"`
	}
	m := struct {
		ID              string `json:"id"`
		Name            string `json:"name"`
		ShortName       string `json:"short_name"`
		Description     string `json:"description"`
		StartURL        string `json:"start_url"`
		Scope           string `json:"scope"`
		Display         string `json:"display"`
		ThemeColor      string `json:"theme_color"`
		BackgroundColor string `json:"background_color"`
		Icons           []icon `json:"icons"`
	}{"/", "Fray", "Fray", "Theater-of-the-mind combat for your tabletop group, played live in the browser.",
		"/", "/", "standalone", ThemeColor, "#ffffff", []icon{
			{"/static/icons/icon-192.png", "192x192", "image/png", "any"},
			{"/static/icons/icon-512.png", "512x512", "image/png", "any"},
			{"/static/icons/maskable-192.png", "192x192", "image/png", "maskable"},
			{"/static/icons/maskable-512.png", "512x512", "image/png", "maskable"},
		}}
	data, err := json.MarshalIndent(m, "", "  ")
	return append(data, '\n'), err
}

// svg is the icon as the browser tab's vector favicon.
func svg() []byte {
	var d strings.Builder
	for i, p := range letter {
		if i == 0 {
			fmt.Fprintf(&d, "M%g %g", p[0], p[1])
		} else {
			fmt.Fprintf(&d, "L%g %g", p[0], p[1])
		}
	}
	d.WriteString("z")
	return fmt.Appendf(nil, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d"><rect width="%d" height="%d" rx="%d" fill="%s"/><path d="%s" fill="#fff"/></svg>`+"\n",
		grid, grid, grid, grid, radius, ThemeColor, d.String())
}

// draw1 draws the icon size pixels square. A maskable icon fills the whole
// square with blue (the platform cuts its own shape) and shrinks the F
// into the safe zone, the middle 80 %; so does the apple-touch-icon, which
// iOS rounds itself.
func draw1(size int, maskable bool) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	s := float32(size) / grid
	if maskable {
		draw.Draw(img, img.Bounds(), image.NewUniform(blue), image.Point{}, draw.Src)
	} else {
		fill(img, roundedSquare(size, radius*s), blue)
	}
	scale, offset := s, float32(0)
	if maskable {
		scale, offset = s*0.8, float32(size)*0.1
	}
	poly := make([][2]float32, len(letter))
	for i, p := range letter {
		poly[i] = [2]float32{p[0]*scale + offset, p[1]*scale + offset}
	}
	fill(img, poly, white)
	return img
}

// roundedSquare is a square of side size with corners of radius r, as a
// polygon (each corner in 16 steps).
func roundedSquare(size int, r float32) [][2]float32 {
	n := float32(size)
	var pts [][2]float32
	corners := [4][3]float32{{n - r, r, -90}, {n - r, n - r, 0}, {r, n - r, 90}, {r, r, 180}}
	for _, c := range corners {
		for i := 0; i <= 16; i++ {
			a := (c[2] + float32(i)*90/16) * 3.14159265 / 180
			pts = append(pts, [2]float32{c[0] + r*cos(a), c[1] + r*sin(a)})
		}
	}
	return pts
}

// fill paints polygon p onto img in colour c, antialiased.
func fill(img *image.NRGBA, p [][2]float32, c color.NRGBA) {
	b := img.Bounds()
	z := vector.NewRasterizer(b.Dx(), b.Dy())
	z.MoveTo(p[0][0], p[0][1])
	for _, q := range p[1:] {
		z.LineTo(q[0], q[1])
	}
	z.ClosePath()
	z.Draw(img, b, image.NewUniform(c), image.Point{})
}

func pngOf(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	err := enc.Encode(&buf, img)
	return buf.Bytes(), err
}

// sin and cos in float32, by Taylor series after reducing to [-π, π]:
// enough for drawing, and the same bytes on every machine.
func sin(x float32) float32 {
	const pi = 3.14159265
	for x > pi {
		x -= 2 * pi
	}
	for x < -pi {
		x += 2 * pi
	}
	x2 := x * x
	return x * (1 - x2/6*(1-x2/20*(1-x2/42*(1-x2/72*(1-x2/110)))))
}

func cos(x float32) float32 { return sin(x + 3.14159265/2) }

func main() {
	dir := flag.String("dir", filepath.Join("web", "static"), "where to write the files")
	flag.Parse()
	for _, f := range files() {
		data, err := f.data()
		if err == nil {
			path := filepath.Join(*dir, f.name)
			if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
				err = os.WriteFile(path, data, 0o644)
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "icons:", err)
			os.Exit(1)
		}
	}
}
