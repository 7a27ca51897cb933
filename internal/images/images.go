// Package images checks and re-encodes uploaded pictures: scene images,
// portraits and handouts. Nothing from an upload is trusted: the format is
// read from the file's first bytes (never its name or the client's
// Content-Type), the size in pixels from the header before anything is
// decoded (a decompression bomb is refused before it allocates), markup
// (SVG, HTML, script) and files with data after the image's end
// (polyglots) are refused, and what is kept is a fresh encoding of the
// decoded pixels — so no metadata (EXIF GPS, comments, colour profiles)
// and no byte of the upload survives.
//
// Go has no WebP encoder: every picture is re-encoded as PNG when it has
// transparency and as JPEG otherwise.
package images

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strconv"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"

	"github.com/fray-vtt/fray/internal/fray"
)

// Limits of an upload.
const (
	// MaxBytes bounds an uploaded file.
	MaxBytes = 10 << 20
	// MaxSide bounds either side of a picture, in pixels.
	MaxSide = 8192
	// MaxPixels bounds width × height (a decoded picture takes 4 bytes a
	// pixel: 64 MiB at most).
	MaxPixels = 4096 * 4096
	// DisplaySide and ThumbSide are the longest sides of the two sizes
	// kept; a smaller picture is kept at its own size.
	DisplaySide = 2048
	ThumbSide   = 256
)

// Format is a picture format read from a file's first bytes.
type Format string

const (
	PNG  Format = "png"
	JPEG Format = "jpeg"
	WebP Format = "webp"
	GIF  Format = "gif"
)

// Sniff reads a file's format from its first bytes. SVG, HTML and anything
// else are refused with a message that says what was found.
func Sniff(data []byte) (Format, error) {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return PNG, nil
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return JPEG, nil
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return WebP, nil
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return GIF, nil
	}
	head := bytes.ToLower(bytes.TrimLeft(data[:min(len(data), 512)], " \t\r\n\ufeff"))
	if bytes.Contains(head, []byte("<svg")) || bytes.HasPrefix(head, []byte("<?xml")) {
		return "", fray.Errorf(fray.EINVALID, "SVG pictures are not accepted (they can carry script): upload a PNG, JPEG, WebP or GIF")
	}
	if bytes.HasPrefix(head, []byte("<")) {
		return "", fray.Errorf(fray.EINVALID, "the file is markup (HTML or XML), not a picture: upload a PNG, JPEG, WebP or GIF")
	}
	return "", fray.Errorf(fray.EINVALID, "the file is not a PNG, JPEG, WebP or GIF picture (whatever its name says)")
}

// Picture is an upload checked and re-encoded in the two sizes kept.
type Picture struct {
	Display Encoded // at most DisplaySide on its longest side
	Thumb   Encoded // at most ThumbSide
}

// Encoded is one re-encoded size of a picture.
type Encoded struct {
	Data          []byte
	ContentType   string // image/png or image/jpeg
	Width, Height int
}

// ID is the picture's content address: the SHA-256 of its display
// encoding, in hex.
func (p Picture) ID() string {
	sum := sha256.Sum256(p.Display.Data)
	return hex.EncodeToString(sum[:])
}

// Process checks an uploaded file and re-encodes it (see the package
// comment). Every refusal is EINVALID or ETOOLARGE with a message for the
// person who uploaded it.
func Process(data []byte) (Picture, error) {
	if len(data) > MaxBytes {
		return Picture{}, fray.Errorf(fray.ETOOLARGE, "the file is %s; a picture may be at most %s", mib(len(data)), mib(MaxBytes))
	}
	if len(data) == 0 {
		return Picture{}, fray.Errorf(fray.EINVALID, "the file is empty")
	}
	format, err := Sniff(data)
	if err != nil {
		return Picture{}, err
	}
	if err := checkEnd(format, data); err != nil {
		return Picture{}, err
	}
	if markup(data) {
		return Picture{}, fray.Errorf(fray.EINVALID, "the %s file also holds markup or script (a polyglot): save it again as a plain picture", name(format))
	}
	cfg, err := decodeConfig(format, data)
	if err != nil {
		return Picture{}, fray.Errorf(fray.EINVALID, "the %s header cannot be read: the file is damaged or cut short", name(format))
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Picture{}, fray.Errorf(fray.EINVALID, "the %s picture has no pixels", name(format))
	}
	if cfg.Width > MaxSide || cfg.Height > MaxSide || int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return Picture{}, fray.Errorf(fray.ETOOLARGE, "the picture is %d×%d pixels; at most %d on a side and %d megapixels are accepted",
			cfg.Width, cfg.Height, MaxSide, MaxPixels/1_000_000)
	}
	img, err := decode(format, data)
	if err != nil {
		return Picture{}, fray.Errorf(fray.EINVALID, "the %s picture cannot be decoded: the file is damaged or cut short", name(format))
	}
	opaque := isOpaque(img)
	var p Picture
	if p.Display, err = encode(scale(img, DisplaySide), opaque); err != nil {
		return Picture{}, err
	}
	if p.Thumb, err = encode(scale(img, ThumbSide), opaque); err != nil {
		return Picture{}, err
	}
	return p, nil
}

func decodeConfig(f Format, data []byte) (image.Config, error) {
	r := bytes.NewReader(data)
	switch f {
	case PNG:
		return png.DecodeConfig(r)
	case JPEG:
		return jpeg.DecodeConfig(r)
	case WebP:
		return webp.DecodeConfig(r)
	default:
		return gif.DecodeConfig(r)
	}
}

// decode decodes the picture with its own format's decoder only (never
// the registry's guess), a GIF's first frame.
func decode(f Format, data []byte) (image.Image, error) {
	r := bytes.NewReader(data)
	switch f {
	case PNG:
		return png.Decode(r)
	case JPEG:
		return jpeg.Decode(r)
	case WebP:
		return webp.Decode(r)
	default:
		return gif.Decode(r)
	}
}

// checkEnd refuses a file that does not end where its picture ends: one
// cut short, or one with something appended (a ZIP, a script) that another
// program would read.
func checkEnd(f Format, data []byte) error {
	ok := true
	switch f {
	case PNG:
		ok = bytes.HasSuffix(data, []byte("\x00\x00\x00\x00IEND\xae\x42\x60\x82"))
	case JPEG:
		ok = bytes.HasSuffix(data, []byte("\xff\xd9"))
	case WebP:
		size := int(binary.LittleEndian.Uint32(data[4:8]))
		ok = size+8 == len(data) || size%2 == 1 && size+9 == len(data)
	case GIF:
		ok = data[len(data)-1] == 0x3b
	}
	if !ok {
		return fray.Errorf(fray.EINVALID, "the %s file does not end where its picture ends: it is cut short, or has other data appended (a polyglot); save it again as a plain picture", name(f))
	}
	return nil
}

// markup reports whether data holds the start of HTML, SVG or script, as a
// polyglot would for a browser or an interpreter that sniffs it.
func markup(data []byte) bool {
	lower := bytes.ToLower(data)
	for _, m := range []string{"<script", "<svg", "<html", "<?php", "<iframe", "javascript:"} {
		if bytes.Contains(lower, []byte(m)) {
			return true
		}
	}
	return false
}

func isOpaque(img image.Image) bool {
	if o, ok := img.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}

// scale returns img fitted within side × side (img itself when it fits).
func scale(img image.Image, side int) image.Image {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= side && h <= side {
		out := image.NewNRGBA(image.Rect(0, 0, w, h))
		draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
		return out
	}
	if w >= h {
		w, h = side, max(1, h*side/w)
	} else {
		w, h = max(1, w*side/h), side
	}
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(out, out.Bounds(), img, b, draw.Src, nil)
	return out
}

func encode(img image.Image, opaque bool) (Encoded, error) {
	var buf bytes.Buffer
	e := Encoded{Width: img.Bounds().Dx(), Height: img.Bounds().Dy()}
	if opaque {
		if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85}); err != nil {
			return Encoded{}, err
		}
		e.ContentType = "image/jpeg"
	} else {
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		if err := enc.Encode(&buf, img); err != nil {
			return Encoded{}, err
		}
		e.ContentType = "image/png"
	}
	e.Data = buf.Bytes()
	return e, nil
}

func name(f Format) string {
	switch f {
	case JPEG:
		return "JPEG"
	case WebP:
		return "WebP"
	case GIF:
		return "GIF"
	}
	return "PNG"
}

func mib(n int) string {
	if n >= 1<<20 {
		return strconv.Itoa(n>>20) + " MiB"
	}
	return strconv.Itoa(n>>10) + " KiB"
}
