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
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"strconv"

	"golang.org/x/image/webp"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/intake"
)

// Limits of an upload.
const (
	// MaxBytes bounds an uploaded file.
	MaxBytes = 10 << 20
	// MaxSide bounds either side of a picture, in pixels.
	MaxSide = 8192
	// MaxPixels bounds width × height.
	MaxPixels = 4096 * 4096
	// MaxDecodeBytes bounds what decoding one picture may allocate, as its
	// header says (see Process): a 4096×4096 picture at 8 bits a channel
	// fits (64 MiB), the same at 16 bits does not (128 MiB).
	MaxDecodeBytes = 96 << 20
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

// Process checks a picture and re-encodes it (see the package comment):
// the one path every picture takes, wherever it enters — an upload, a
// portrait, a picture found inside an imported file (Embedded). Before
// any pixel is decoded it refuses a file over MaxBytes, anything that is
// not a plain picture, a picture over MaxSide or MaxPixels, and one whose
// header says decoding would allocate more than MaxDecodeBytes (computed
// with the real bytes a pixel of its colour model and depth: 8 for a
// 16-bit RGBA PNG, a progressive JPEG's coefficients besides its samples,
// a lossless WebP's Huffman tables). It then decodes, scales and encodes
// under the process's gate (intake.Run): a core and the picture's cost
// in memory, waiting at most intake.DefaultWait (EBUSY after), and
// refused if it takes longer than intake.DefaultDeadline. Every refusal is
// EINVALID, ETOOLARGE or EBUSY with a message for the person who sent the
// picture.
func Process(ctx context.Context, data []byte) (Picture, error) {
	h, err := check(data)
	if err != nil {
		return Picture{}, err
	}
	var p Picture
	err = intake.Run(ctx, intake.Job{What: "picture", Cost: h.Decode + pipeline(h.Width, h.Height), Deadline: deadline},
		func(ctx context.Context) error {
			var err error
			p, err = convert(ctx, h, data)
			return err
		})
	return p, err
}

// deadline is a picture's time to decode, scale and encode once it runs
// (a variable for the tests).
var deadline = intake.DefaultDeadline

// check refuses data unless it is a plain picture within the limits, and
// returns its header.
func check(data []byte) (header, error) {
	if len(data) > MaxBytes {
		return header{}, fray.Errorf(fray.ETOOLARGE, "the file is %s; a picture may be at most %s", mib(len(data)), mib(MaxBytes))
	}
	if len(data) == 0 {
		return header{}, fray.Errorf(fray.EINVALID, "the file is empty")
	}
	format, err := Sniff(data)
	if err != nil {
		return header{}, err
	}
	if err := checkEnd(format, data); err != nil {
		return header{}, err
	}
	if markup(data) {
		return header{}, fray.Errorf(fray.EINVALID, "the %s file also holds markup or script (a polyglot): save it again as a plain picture", name(format))
	}
	h, err := readHeader(format, data)
	if err != nil {
		return header{}, err
	}
	h.format = format
	if h.Width <= 0 || h.Height <= 0 {
		return header{}, fray.Errorf(fray.EINVALID, "the %s picture has no pixels", name(format))
	}
	if h.Width > MaxSide || h.Height > MaxSide || int64(h.Width)*int64(h.Height) > MaxPixels {
		return header{}, fray.Errorf(fray.ETOOLARGE, "the picture is %d×%d pixels; at most %d on a side and %d megapixels are accepted",
			h.Width, h.Height, MaxSide, MaxPixels/1_000_000)
	}
	if h.Decode > MaxDecodeBytes {
		hint := h.Hint
		if hint == "" {
			hint = "save it smaller"
		}
		return header{}, fray.Errorf(fray.ETOOLARGE, "the picture is a %d×%d %s: decoding it would take %s, and at most %s is allowed: %s",
			h.Width, h.Height, h.Kind, mib64(h.Decode), mib64(MaxDecodeBytes), hint)
	}
	return h, nil
}

// convert decodes a checked picture and encodes its two sizes, stopping
// when ctx ends.
func convert(ctx context.Context, h header, data []byte) (Picture, error) {
	img, err := decode(h.format, intake.NewReader(ctx, data))
	if err != nil {
		if ctx.Err() != nil {
			return Picture{}, ctx.Err()
		}
		return Picture{}, fray.Errorf(fray.EINVALID, "the %s picture cannot be decoded: the file is damaged or cut short", name(h.format))
	}
	if b := img.Bounds(); b.Dx() > h.Width || b.Dy() > h.Height {
		return Picture{}, fray.Errorf(fray.EINVALID, "the %s picture is larger than its header says: the file is damaged", name(h.format))
	}
	opaque := isOpaque(img)
	dw, dh := fit(h.Width, h.Height, DisplaySide)
	display, err := scale(ctx, img, dw, dh)
	if err != nil {
		return Picture{}, err
	}
	img = nil // the decoded picture may go before the encodings are made
	tw, th := fit(h.Width, h.Height, ThumbSide)
	thumb, err := scale(ctx, display, tw, th)
	if err != nil {
		return Picture{}, err
	}
	var p Picture
	if p.Display, err = encode(ctx, display, opaque); err != nil {
		return Picture{}, err
	}
	if p.Thumb, err = encode(ctx, thumb, opaque); err != nil {
		return Picture{}, err
	}
	return p, nil
}

// decode decodes the picture with its own format's decoder only (never
// the registry's guess), a GIF's first frame.
func decode(f Format, r io.Reader) (image.Image, error) {
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

func encode(ctx context.Context, img image.Image, opaque bool) (Encoded, error) {
	var buf bytes.Buffer
	w := intake.NewWriter(ctx, &buf)
	e := Encoded{Width: img.Bounds().Dx(), Height: img.Bounds().Dy()}
	if opaque {
		if err := jpeg.Encode(w, img, &jpeg.Options{Quality: 85}); err != nil {
			return Encoded{}, err
		}
		e.ContentType = "image/jpeg"
	} else {
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		if err := enc.Encode(w, img); err != nil {
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

func mib64(n int64) string { return intake.Size(n) }

func mib(n int) string {
	if n >= 1<<20 {
		return strconv.Itoa(n>>20) + " MiB"
	}
	return strconv.Itoa(n>>10) + " KiB"
}
