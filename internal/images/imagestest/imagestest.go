// Package imagestest makes the pictures the tests of the picture path send:
// small files that decode into large pictures (the shapes of a
// decompression bomb), in the formats and colour models Go's encoders do
// not write — 16-bit PNG, progressive JPEG, lossless WebP.
package imagestest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
)

// PNG returns a w×h PNG of the given bit depth and colour type (0 gray,
// 2 RGB, 3 paletted, 4 gray and alpha, 6 RGBA) whose every sample is zero,
// compressed at zlib's best level: a 16-bit RGBA 4096×4096 one is about
// 130 KB and decodes into 128 MiB. With trns it carries a tRNS chunk.
func PNG(w, h int, depth, colour byte, trns bool) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = depth, colour
	chunk(&b, "IHDR", ihdr)
	if colour == 3 {
		chunk(&b, "PLTE", make([]byte, 3*(1<<min(depth, 8))))
	}
	if trns {
		switch colour {
		case 0:
			chunk(&b, "tRNS", make([]byte, 2))
		case 2:
			chunk(&b, "tRNS", make([]byte, 6))
		case 3:
			chunk(&b, "tRNS", []byte{0})
		}
	}
	channels := map[byte]int{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
	row := make([]byte, 1+(w*channels*int(depth)+7)/8)
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	for range h {
		_, _ = zw.Write(row)
	}
	_ = zw.Close()
	chunk(&b, "IDAT", z.Bytes())
	chunk(&b, "IEND", nil)
	return b.Bytes()
}

func chunk(b *bytes.Buffer, kind string, data []byte) {
	_ = binary.Write(b, binary.BigEndian, uint32(len(data)))
	b.WriteString(kind)
	b.Write(data)
	_ = binary.Write(b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(kind), data...)))
}

// ProgressiveJPEG returns a w×h mid-grey progressive JPEG (JFIF, three
// components; 4:2:0 when subsampled, else 4:4:4) of a single scan of DC
// coefficients, each block coded in one bit: a 4:4:4 4096×4096 one is
// about 98 KB, and Go's decoder keeps 4 bytes of coefficients for each of
// its 50 million samples besides the samples.
func ProgressiveJPEG(w, h int, subsampled bool) []byte {
	var b bytes.Buffer
	b.Write([]byte{0xff, 0xd8})
	segment := func(marker byte, data []byte) {
		b.Write([]byte{0xff, marker})
		_ = binary.Write(&b, binary.BigEndian, uint16(len(data)+2))
		b.Write(data)
	}
	segment(0xe0, []byte("JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"))
	segment(0xdb, append([]byte{0}, bytes.Repeat([]byte{1}, 64)...))
	lumaHV := byte(0x11)
	if subsampled {
		lumaHV = 0x22
	}
	sof := []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 3, 1, lumaHV, 0, 2, 0x11, 0, 3, 0x11, 0}
	segment(0xc2, sof)
	// One DC code: length 1, category 0 (a difference of zero).
	dht := append([]byte{0x00, 1}, make([]byte, 15)...)
	segment(0xc4, append(dht, 0))
	segment(0xda, []byte{3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 0, 0})
	side, blocks := 8, 3
	if subsampled {
		side, blocks = 16, 6
	}
	mcus := ((w + side - 1) / side) * ((h + side - 1) / side)
	bits := mcus * blocks
	b.Write(make([]byte, bits/8))
	if bits%8 != 0 {
		b.WriteByte(byte(0xff >> (bits % 8))) // the last bits, padded with ones
	}
	b.Write([]byte{0xff, 0xd9})
	return b.Bytes()
}

// LosslessWebP returns a w×h lossless WebP of one colour (w and h at most
// 16384): five Huffman codes of one symbol each, so that its pixels take
// no bits at all and the file is a few dozen bytes whatever its size.
func LosslessWebP(w, h int, r, g, b, a byte) []byte {
	var bw bitWriter
	bw.write(0x2f, 8)
	bw.write(uint32(w-1), 14)
	bw.write(uint32(h-1), 14)
	bw.write(1, 1) // alpha is used
	bw.write(0, 3) // version
	bw.write(0, 1) // no transform
	bw.write(0, 1) // no colour cache
	bw.write(0, 1) // no meta prefix codes
	for _, sym := range []byte{g, r, b, a, 0} {
		bw.write(1, 1) // a simple code
		bw.write(0, 1) // of one symbol
		bw.write(1, 1) // of 8 bits
		bw.write(uint32(sym), 8)
	}
	payload := bw.bytes()
	var out bytes.Buffer
	out.WriteString("RIFF")
	size := 4 + 8 + len(payload) + len(payload)%2
	_ = binary.Write(&out, binary.LittleEndian, uint32(size))
	out.WriteString("WEBPVP8L")
	_ = binary.Write(&out, binary.LittleEndian, uint32(len(payload)))
	out.Write(payload)
	if len(payload)%2 == 1 {
		out.WriteByte(0)
	}
	return out.Bytes()
}

type bitWriter struct {
	buf  []byte
	acc  uint64
	nacc uint
}

// write appends the n low bits of v, least significant first.
func (w *bitWriter) write(v uint32, n uint) {
	w.acc |= uint64(v&(1<<n-1)) << w.nacc
	w.nacc += n
	for w.nacc >= 8 {
		w.buf = append(w.buf, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

func (w *bitWriter) bytes() []byte {
	if w.nacc > 0 {
		return append(w.buf, byte(w.acc))
	}
	return w.buf
}
