package images

import (
	"context"
	"image"
	"image/draw"
	"math"
)

// scale returns img at dw×dh as NRGBA: a copy when that is its own size,
// else each output pixel the average of the source area it covers
// (weighted by how much of each source pixel it covers, in premultiplied
// alpha). It reads the source a row at a time, so beyond the output it
// allocates a source row and two output rows — where a general resampler
// (x/image/draw's kernels) holds a float64 quadruple for every output
// column of every source row: 256 MiB to bring 4096×4096 to 2048 wide.
// It stops when ctx ends.
func scale(ctx context.Context, img image.Image, dw, dh int) (*image.NRGBA, error) {
	b := img.Bounds()
	sw, sh := b.Dx(), b.Dy()
	out := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	if sw == dw && sh == dh {
		draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
		return out, ctx.Err()
	}
	xs, ys := spans(sw, dw), spans(sh, dh)
	row := image.NewRGBA(image.Rect(0, 0, sw, 1))
	reduced := make([]float32, 4*dw) // the source row last read, reduced to dw columns
	acc := make([]float32, 4*dw)
	last := -1
	for dy, sp := range ys {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		clear(acc)
		for k, wy := range sp.weights {
			if sy := sp.first + k; sy != last {
				draw.Draw(row, row.Rect, img, image.Pt(b.Min.X, b.Min.Y+sy), draw.Src)
				reduce(reduced, row.Pix, xs)
				last = sy
			}
			for i, v := range reduced {
				acc[i] += wy * v
			}
		}
		o := out.Pix[dy*out.Stride : dy*out.Stride+4*dw]
		for x := 0; x < 4*dw; x += 4 {
			a := acc[x+3]
			if a < 0.5 {
				continue // transparent: NRGBA's zero
			}
			o[x+0] = unit(acc[x+0] * 255 / a)
			o[x+1] = unit(acc[x+1] * 255 / a)
			o[x+2] = unit(acc[x+2] * 255 / a)
			o[x+3] = unit(a)
		}
	}
	return out, nil
}

// reduce averages a premultiplied RGBA row into len(dst)/4 columns.
func reduce(dst []float32, pix []uint8, xs []span) {
	for dx, sp := range xs {
		var r, g, b, a float32
		p := pix[4*sp.first:]
		for k, w := range sp.weights {
			r += w * float32(p[4*k])
			g += w * float32(p[4*k+1])
			b += w * float32(p[4*k+2])
			a += w * float32(p[4*k+3])
		}
		dst[4*dx], dst[4*dx+1], dst[4*dx+2], dst[4*dx+3] = r, g, b, a
	}
}

func unit(v float32) uint8 {
	if v >= 255 {
		return 255
	}
	if v <= 0 {
		return 0
	}
	return uint8(v + 0.5)
}

// span is the source pixels one output pixel covers: from first on, each
// with the share of the output pixel it makes (the shares sum to 1).
type span struct {
	first   int
	weights []float32
}

// spans maps src pixels onto dst ≤ src pixels: output pixel i covers the
// source interval [i·src/dst, (i+1)·src/dst).
func spans(src, dst int) []span {
	out := make([]span, dst)
	ratio := float64(src) / float64(dst)
	for i := range out {
		lo, hi := float64(i)*ratio, float64(i+1)*ratio
		first := int(math.Floor(lo))
		last := min(src-1, int(math.Ceil(hi))-1)
		ws := make([]float32, 0, last-first+1)
		for s := first; s <= last; s++ {
			cover := math.Min(hi, float64(s+1)) - math.Max(lo, float64(s))
			ws = append(ws, float32(cover/ratio))
		}
		out[i] = span{first: first, weights: ws}
	}
	return out
}
