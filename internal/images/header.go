package images

import (
	"bytes"
	"encoding/binary"
	"image/gif"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/webp"

	"github.com/fray-vtt/fray/internal/fray"
)

// header is what a picture's header says of it: its size, what kind of
// picture it is (for messages), and what decoding it allocates.
type header struct {
	Width, Height int
	// Kind says what the header found, for messages: "16-bit RGBA PNG",
	// "progressive JPEG", "lossless WebP".
	Kind string
	// Hint says how to make the picture cheaper, for a refusal's message.
	Hint string
	// Decode is what the format's decoder allocates for this picture, in
	// bytes: its pixels in the colour model and depth the decoder gives
	// them, and its working buffers (a progressive JPEG's coefficients, an
	// interlaced PNG's passes, a lossless WebP's transforms and Huffman
	// tables), padded as the decoder pads them.
	Decode int64
	format Format
}

// readHeader reads the header of a picture of format f, decoding no
// pixel. An error means the header cannot be read.
func readHeader(f Format, data []byte) (header, error) {
	switch f {
	case PNG:
		return pngHead(data)
	case JPEG:
		return jpegHead(data)
	case WebP:
		return webpHead(data)
	}
	return gifHead(data)
}

func errHeader(f Format) error {
	return fray.Errorf(fray.EINVALID, "the %s header cannot be read: the file is damaged or cut short", name(f))
}

// pngHead: Go's PNG decoder gives gray pictures 1 byte a pixel (2 at 16
// bits), paletted ones 1, and everything else 4 bytes a pixel at 8 bits
// or 8 at 16 bits (NRGBA, RGBA, NRGBA64, RGBA64: a tRNS chunk turns gray
// and truecolour into NRGBA); an interlaced picture is decoded pass by
// pass into pictures as large again, then merged.
func pngHead(data []byte) (header, error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil || len(data) < 33 || string(data[12:16]) != "IHDR" {
		return header{}, errHeader(PNG)
	}
	depth, colour, interlaced := data[24], data[25], data[28] == 1
	trns := false
	for off := 33; off+8 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[off:]))
		kind := string(data[off+4 : off+8])
		if kind == "IDAT" || n < 0 || n > len(data) {
			break
		}
		trns = trns || kind == "tRNS"
		off += 12 + n
	}
	wide := depth == 16
	h := header{Width: cfg.Width, Height: cfg.Height}
	var bpp int64
	switch colour {
	case 0:
		h.Kind, bpp = "gray PNG", 1
		if trns {
			bpp = 4
		}
	case 2:
		h.Kind, bpp = "RGB PNG", 4
	case 3:
		h.Kind, bpp = "paletted PNG", 1
	case 4:
		h.Kind, bpp = "gray and alpha PNG", 4
	case 6:
		h.Kind, bpp = "RGBA PNG", 4
	default:
		return header{}, errHeader(PNG)
	}
	if wide {
		bpp *= 2
		h.Kind = "16-bit " + h.Kind
		h.Hint = "save it with 8 bits a channel, or smaller"
	}
	h.Decode = int64(cfg.Width) * int64(cfg.Height) * bpp
	if interlaced {
		h.Decode *= 2
		h.Kind = "interlaced " + h.Kind
		if h.Hint == "" {
			h.Hint = "save it without interlacing, or smaller"
		}
	}
	h.Decode += 2*(8*int64(cfg.Width)+1) + decoderFixed // the current and previous rows, the inflater
	return h, nil
}

// decoderFixed is what a decoder allocates whatever the picture's size:
// an inflater's window and tables, a JPEG decoder's Huffman look-up
// tables, an LZW decoder's.
const decoderFixed = 64 << 10

// jpegHead: Go's JPEG decoder keeps each component's samples padded to
// whole MCUs (a byte each); a progressive picture also keeps every
// component's coefficients until the end (64 int32 for each 8×8 block: 4
// bytes a sample); a CMYK picture, and an RGB one (no JFIF marker, and
// Adobe's transform 0 or components named R, G, B), is converted into 4
// bytes a pixel besides.
func jpegHead(data []byte) (header, error) {
	if _, err := jpeg.DecodeConfig(bytes.NewReader(data)); err != nil {
		return header{}, errHeader(JPEG)
	}
	var m jpegMarkers
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xff {
			return header{}, errHeader(JPEG)
		}
		switch c := data[i+1]; {
		case c == 0xff:
			i++
			continue
		case c == 0xd8 || c == 0x01 || c >= 0xd0 && c <= 0xd7:
			i += 2
			continue
		case c == 0xd9 || c == 0xda:
			return header{}, errHeader(JPEG)
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if n < 2 || i+2+n > len(data) {
			return header{}, errHeader(JPEG)
		}
		seg := data[i+4 : i+2+n]
		switch marker := data[i+1]; marker {
		case 0xe0:
			m.jfif = m.jfif || bytes.HasPrefix(seg, []byte("JFIF\x00"))
		case 0xee:
			if len(seg) >= 12 && bytes.HasPrefix(seg, []byte("Adobe")) {
				m.adobe, m.transform = true, seg[11]
			}
		case 0xc0, 0xc1, 0xc2:
			return sofHead(seg, marker == 0xc2, m)
		}
		i += 2 + n
	}
	return header{}, errHeader(JPEG)
}

// jpegMarkers is what the markers before the frame header say.
type jpegMarkers struct {
	jfif      bool
	adobe     bool // an Adobe APP14 segment, with its transform
	transform byte
}

func sofHead(seg []byte, progressive bool, m jpegMarkers) (header, error) {
	if len(seg) < 6 {
		return header{}, errHeader(JPEG)
	}
	height, width, nc := int(binary.BigEndian.Uint16(seg[1:])), int(binary.BigEndian.Uint16(seg[3:])), int(seg[5])
	if nc < 1 || nc > 4 || len(seg) < 6+3*nc {
		return header{}, errHeader(JPEG)
	}
	hv := make([][2]int64, nc)
	hmax, vmax := int64(1), int64(1)
	for i := range hv {
		b := seg[6+3*i+1]
		hv[i] = [2]int64{max(1, int64(b>>4)), max(1, int64(b&15))}
		if nc == 1 {
			hv[i] = [2]int64{1, 1} // Go reads a single component's samples whatever its factors say
		}
		hmax, vmax = max(hmax, hv[i][0]), max(vmax, hv[i][1])
	}
	mxx := (int64(width) + 8*hmax - 1) / (8 * hmax)
	myy := (int64(height) + 8*vmax - 1) / (8 * vmax)
	var samples int64
	for _, f := range hv {
		samples += 8 * f[0] * mxx * 8 * f[1] * myy
	}
	h := header{Width: width, Height: height, Kind: "JPEG", Decode: samples + decoderFixed}
	if progressive {
		h.Kind, h.Hint = "progressive JPEG", "save it as a baseline (not progressive) JPEG, or smaller"
		h.Decode += 4 * samples
	}
	rgb := nc == 3 && !m.jfif && (m.adobe && m.transform == 0 || string([]byte{seg[6], seg[9], seg[12]}) == "RGB")
	if nc == 4 || rgb {
		h.Decode += 4 * int64(width) * int64(height)
	}
	if nc == 4 {
		h.Kind = "CMYK " + h.Kind
	}
	return h, nil
}

// Lossless WebP's Huffman tables: at most 2600 groups (x/image refuses
// more), and no more than the picture's 4×4 tiles or than the file has
// 20 bits for (five trees of a symbol each, the cheapest group); each
// group five trees of a 512-byte look-up table and 8 bytes a node, two
// nodes a symbol, the largest group's alphabets holding 3136 symbols. A
// symbol costs the file half a bit at least (a code that repeats the
// previous length six times), so nodes cost at most 256 bytes a byte of
// the file. The bound is for a hostile file: a lossless WebP is accepted
// up to a few hundred KB at a megapixel.
const (
	webpMaxGroups      = 2600
	webpGroupFixed     = 5 * (512 + 24)
	webpGroupNodes     = 2 * 3136 * 8
	webpNodesPerByte   = 256
	webpLosslessPerPix = 9 // the ARGB pixels, a colour-indexing transform's output, the transforms' sub-images
)

func webpLossless(w, h int64, fileBytes int) int64 {
	tiles := ((w + 3) / 4) * ((h + 3) / 4)
	groups := min(webpMaxGroups, max(1, tiles), max(1, 8*int64(fileBytes)/20))
	huffman := min(groups*(webpGroupFixed+webpGroupNodes), groups*webpGroupFixed+webpNodesPerByte*int64(fileBytes))
	return webpLosslessPerPix*w*h + huffman
}

// webpHead: x/image decodes lossy WebP into YCbCr 4:2:0 padded to 16×16
// macroblocks (1.5 bytes a pixel) with its partitions copied, lossless
// WebP into 4 bytes a pixel with its transforms and Huffman tables
// (webpLossless), and an alpha channel into a byte a pixel — after
// decoding it as lossless WebP when it is compressed.
func webpHead(data []byte) (header, error) {
	cfg, err := webp.DecodeConfig(bytes.NewReader(data))
	if err != nil || len(data) < 20 {
		return header{}, errHeader(WebP)
	}
	w, hgt := int64(cfg.Width), int64(cfg.Height)
	lossy := func() int64 {
		mbw, mbh := (w+15)/16, (hgt+15)/16
		return 16*mbw*16*mbh*3/2 + mbw*mbh*16 + int64(len(data))
	}
	h := header{Width: cfg.Width, Height: cfg.Height}
	switch string(data[12:16]) {
	case "VP8 ":
		h.Kind, h.Decode = "WebP", lossy()
		return h, nil
	case "VP8L":
		h.Kind, h.Decode, h.Hint = "lossless WebP", webpLossless(w, hgt, len(data)), "save it as PNG, or smaller"
		return h, nil
	}
	// VP8X: the picture's chunks follow.
	var alpha int64
	for off := 30; off+8 <= len(data); {
		kind := string(data[off : off+4])
		n := int(binary.LittleEndian.Uint32(data[off+4:]))
		if n < 0 || n > len(data) {
			break
		}
		switch kind {
		case "ALPH":
			alpha = w * hgt
			if off+8 < len(data) && data[off+8]&3 == 1 {
				alpha += webpLossless(w, hgt, len(data))
			}
		case "VP8 ":
			h.Kind, h.Decode = "WebP", lossy()+alpha
			if alpha > 0 {
				h.Kind = "WebP with transparency"
			}
			return h, nil
		case "VP8L":
			h.Kind, h.Decode, h.Hint = "lossless WebP", webpLossless(w, hgt, len(data)), "save it as PNG, or smaller"
			return h, nil
		}
		off += 8 + n + n&1
	}
	return header{}, fray.Errorf(fray.EINVALID, "the WebP file holds no picture this server reads (an animation?): upload a still picture")
}

// gifHead: Go's GIF decoder gives the first frame, at most the logical
// screen, a byte a pixel, and as much again to undo interlacing.
func gifHead(data []byte) (header, error) {
	cfg, err := gif.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return header{}, errHeader(GIF)
	}
	return header{Width: cfg.Width, Height: cfg.Height, Kind: "GIF", Decode: 2*int64(cfg.Width)*int64(cfg.Height) + decoderFixed}, nil
}

// pipeline is what Process allocates after decoding: the display size
// (4 bytes a pixel) and its encoding (at most as large again, and as much
// once more while its buffer grows), the thumbnail likewise, the scaler's
// rows, and the PNG encoder's compressor.
func pipeline(w, h int) int64 {
	dw, dh := fit(w, h, DisplaySide)
	tw, th := fit(w, h, ThumbSide)
	display, thumb := 4*int64(dw)*int64(dh), 4*int64(tw)*int64(th)
	return 3*display + 3*thumb + 4*int64(w) + 32*int64(dw) + 2<<20
}

// fit is w×h fitted within side × side (itself when it fits).
func fit(w, h, side int) (int, int) {
	if w <= side && h <= side {
		return w, h
	}
	if w >= h {
		return side, max(1, h*side/w)
	}
	return max(1, w*side/h), side
}
