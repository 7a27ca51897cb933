package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// Every file drawn from the icon is committed as drawn: change the icon
// here and run `go generate ./web` (or `go run ./cmd/icons`).
func TestCommittedFilesAreDrawn(t *testing.T) {
	for _, f := range files() {
		want, err := f.data()
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", "web", "static", f.name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("web/static/%s is not what cmd/icons draws (%v): run go generate ./web", f.name, err)
		}
	}
}

// The PNGs are the sizes their names say, and a maskable icon has no
// transparent pixel (the platform cuts its shape out of a full square).
func TestIconSizes(t *testing.T) {
	for _, tc := range []struct {
		size     int
		maskable bool
	}{{192, false}, {512, false}, {192, true}, {512, true}, {180, true}} {
		data, err := pngOf(draw1(tc.size, tc.maskable))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() != tc.size || b.Dy() != tc.size {
			t.Errorf("%d: drawn %v", tc.size, b)
		}
		_, _, _, corner := img.At(0, 0).RGBA()
		if tc.maskable != (corner == 0xffff) {
			t.Errorf("%d maskable=%v: the corner's alpha is %d", tc.size, tc.maskable, corner)
		}
	}
}

// The pages' theme-color is the icon's blue.
func TestPagesUseTheIconsColour(t *testing.T) {
	layout, err := os.ReadFile(filepath.Join("..", "..", "web", "layout.templ"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(layout, []byte(`<meta name="theme-color" content="`+ThemeColor+`"/>`)) {
		t.Errorf("web/layout.templ's theme-color is not %s", ThemeColor)
	}
}
