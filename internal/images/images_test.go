package images

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"runtime"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
)

func picture(w, h int, alpha uint8) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.NRGBA{uint8(x), uint8(y), 90, alpha})
		}
	}
	return img
}

func pngOf(t testing.TB, img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegOf(t testing.TB, img image.Image) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngHeader is a PNG whose header claims w×h pixels, with one tiny IDAT
// and a proper end: a decompression bomb's shape.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(kind)
		b.Write(data)
		binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(kind), data...)))
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk("IHDR", ihdr)
	chunk("IDAT", []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})
	chunk("IEND", nil)
	return b.Bytes()
}

// withGPS inserts an EXIF APP1 segment with a GPS block right after a
// JPEG's SOI marker.
func withGPS(jpg []byte) []byte {
	exif := []byte("Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08GPSLatitude 48.8584 N GPSLongitude 2.2945 E")
	seg := []byte{0xff, 0xe1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(exif)+2))
	out := append([]byte{}, jpg[:2]...)
	out = append(out, seg...)
	out = append(out, exif...)
	return append(out, jpg[2:]...)
}

func TestProcessKeepsPicturesAndStripsMetadata(t *testing.T) {
	gps := withGPS(jpegOf(t, picture(3000, 1000, 255)))
	if !bytes.Contains(gps, []byte("GPSLatitude")) {
		t.Fatal("test file has no GPS block")
	}
	p, err := Process(context.Background(), gps)
	if err != nil {
		t.Fatal(err)
	}
	if p.Display.ContentType != "image/jpeg" || p.Display.Width != DisplaySide || p.Display.Height != 682 {
		t.Errorf("display = %s %d×%d", p.Display.ContentType, p.Display.Width, p.Display.Height)
	}
	if p.Thumb.Width != ThumbSide || p.Thumb.Height != 85 {
		t.Errorf("thumb = %d×%d", p.Thumb.Width, p.Thumb.Height)
	}
	for _, e := range []Encoded{p.Display, p.Thumb} {
		if bytes.Contains(e.Data, []byte("Exif")) || bytes.Contains(e.Data, []byte("GPS")) {
			t.Error("the re-encoded picture kept the EXIF block")
		}
		if _, err := jpeg.Decode(bytes.NewReader(e.Data)); err != nil {
			t.Error(err)
		}
	}
	if len(p.ID()) != 64 {
		t.Errorf("id %q", p.ID())
	}

	// Transparency stays: PNG out.
	q, err := Process(context.Background(), pngOf(t, picture(40, 30, 128)))
	if err != nil {
		t.Fatal(err)
	}
	if q.Display.ContentType != "image/png" || q.Display.Width != 40 || q.Display.Height != 30 {
		t.Errorf("transparent = %s %d×%d", q.Display.ContentType, q.Display.Width, q.Display.Height)
	}
	// Same content, same id.
	q2, _ := Process(context.Background(), pngOf(t, picture(40, 30, 128)))
	if q2.ID() != q.ID() {
		t.Error("the same picture got two ids")
	}
}

// TestHostileUploadsAreRefused sends what an attacker would and checks the
// message, and that refusing costs next to no memory.
func TestHostileUploadsAreRefused(t *testing.T) {
	jpg := jpegOf(t, picture(64, 64, 255))
	big := make([]byte, 50<<20)
	copy(big, pngOf(t, picture(8, 8, 255)))
	cases := []struct {
		name, code, want string
		data             []byte
	}{
		{"bomb header 100000×100000", fray.ETOOLARGE, "100000×100000 pixels", pngHeader(100_000, 100_000)},
		{"50 MiB file", fray.ETOOLARGE, "at most 10 MiB", big},
		{"polyglot PNG+HTML", fray.EINVALID, "polyglot", append(pngOf(t, picture(8, 8, 255)), []byte("<html><script>alert(1)</script>")...)},
		{"polyglot with script inside", fray.EINVALID, "polyglot", append(append([]byte{}, jpg[:len(jpg)-2]...), []byte("<script>alert(1)</script>\xff\xd9")...)},
		{"SVG with script", fray.EINVALID, "SVG", []byte(`<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)},
		{"truncated JPEG", fray.EINVALID, "cut short", jpg[:len(jpg)/2]},
		{"text named .png", fray.EINVALID, "not a PNG, JPEG, WebP or GIF", []byte("just some text, honestly a picture")},
		{"HTML", fray.EINVALID, "markup", []byte("<!doctype html><p>hi")},
		{"empty", fray.EINVALID, "empty", nil},
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, c := range cases {
		_, err := Process(context.Background(), c.data)
		if fray.ErrorCode(err) != c.code || !strings.Contains(fray.ErrorMessage(err), c.want) {
			t.Errorf("%s: got %v, want %s containing %q", c.name, err, c.code, c.want)
		}
	}
	runtime.ReadMemStats(&after)
	// Nothing was decoded: refusing all of them allocates a few copies of
	// the largest header at most, never the 40 GB the bomb announces.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("refusing hostile uploads allocated %d MiB", grew>>20)
	}
}
