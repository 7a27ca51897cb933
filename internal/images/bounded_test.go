package images

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	_ "image/jpeg" // image.Decode reads the encodings
	_ "image/png"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/images/imagestest"
	"github.com/fray-vtt/fray/internal/intake"
	"github.com/fray-vtt/fray/internal/patience"
)

// allocated is what f allocates on the heap, in bytes.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func gifOf(t testing.TB, w, h int) []byte {
	img := image.NewPaletted(image.Rect(0, 0, w, h), palette.Plan9)
	for i := range img.Pix {
		img.Pix[i] = uint8(i % 200)
	}
	var b bytes.Buffer
	if err := gif.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func grayJPEG(t testing.TB, w, h int) []byte {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i)
	}
	return jpegOf(t, img)
}

// costCases are pictures of every colour model, depth and coding the
// decoders read, at an odd size (so MCU and macroblock padding shows).
func costCases(t testing.TB) map[string][]byte {
	const w, h = 333, 177
	cases := map[string][]byte{
		"gray PNG":                   imagestest.PNG(w, h, 8, 0, false),
		"gray PNG with tRNS":         imagestest.PNG(w, h, 8, 0, true),
		"1-bit gray PNG":             imagestest.PNG(w, h, 1, 0, false),
		"16-bit gray PNG":            imagestest.PNG(w, h, 16, 0, false),
		"16-bit gray PNG with tRNS":  imagestest.PNG(w, h, 16, 0, true),
		"RGB PNG":                    imagestest.PNG(w, h, 8, 2, false),
		"RGB PNG with tRNS":          imagestest.PNG(w, h, 8, 2, true),
		"16-bit RGB PNG":             imagestest.PNG(w, h, 16, 2, false),
		"paletted PNG":               imagestest.PNG(w, h, 8, 3, false),
		"4-bit paletted PNG":         imagestest.PNG(w, h, 4, 3, true),
		"gray and alpha PNG":         imagestest.PNG(w, h, 8, 4, false),
		"16-bit gray and alpha PNG":  imagestest.PNG(w, h, 16, 4, false),
		"RGBA PNG":                   imagestest.PNG(w, h, 8, 6, false),
		"16-bit RGBA PNG":            imagestest.PNG(w, h, 16, 6, false),
		"RGBA PNG with content":      pngOf(t, picture(w, h, 128)),
		"JPEG 4:2:0":                 jpegOf(t, picture(w, h, 255)),
		"gray JPEG":                  grayJPEG(t, w, h),
		"progressive JPEG 4:4:4":     imagestest.ProgressiveJPEG(w, h, false),
		"progressive JPEG 4:2:0":     imagestest.ProgressiveJPEG(w, h, true),
		"GIF":                        gifOf(t, w, h),
		"lossless WebP":              imagestest.LosslessWebP(w, h, 10, 20, 30, 200),
		"lossless WebP, large, tiny": imagestest.LosslessWebP(2000, 1500, 10, 20, 30, 255),
	}
	return cases
}

// TestDecodeCostCoversTheDecoder: for every colour model, depth and coding,
// what the header says decoding allocates is at least what the format's
// decoder allocates — and not far above it, except for lossless WebP,
// whose Huffman tables are counted at their worst.
func TestDecodeCostCoversTheDecoder(t *testing.T) {
	for name, data := range costCases(t) {
		f, err := Sniff(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		h, err := readHeader(f, data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var img image.Image
		got := allocated(func() { img, err = decode(f, bytes.NewReader(data)) })
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%-28s %-22s %8d bytes allocated, %8d counted (%.2f×; %.2f bytes a pixel) %T", name, h.Kind, got, h.Decode,
			float64(h.Decode)/float64(got), float64(h.Decode)/float64(h.Width*h.Height), img)
		if uint64(h.Decode) < got {
			t.Errorf("%s: the header counts %d bytes, the decoder allocated %d", name, h.Decode, got)
		}
		if f != WebP && uint64(h.Decode) > 2*got+64<<10 {
			t.Errorf("%s: the header counts %d bytes, the decoder allocated only %d", name, h.Decode, got)
		}
	}
}

// withInterlace sets a PNG's interlace method in its header (its pixels
// are then not a valid interlaced picture, but the header is).
func withInterlace(data []byte) []byte {
	out := slices.Clone(data)
	out[28] = 1
	binary.BigEndian.PutUint32(out[29:], crc32.ChecksumIEEE(out[12:29]))
	return out
}

// lossyWebPHeader is a lossy WebP whose frame header says w×h.
func lossyWebPHeader(w, h int) []byte {
	frame := []byte{0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, byte(w), byte(w >> 8), byte(h), byte(h >> 8)}
	var b bytes.Buffer
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, uint32(4+8+len(frame)))
	b.WriteString("WEBPVP8 ")
	_ = binary.Write(&b, binary.LittleEndian, uint32(len(frame)))
	b.Write(frame)
	return b.Bytes()
}

// TestBombsAreRefusedBeforeDecoding: pictures within the pixel limits
// whose decoding would cost more than MaxDecodeBytes — at 16 bits a
// channel, progressive, interlaced — are refused from their headers, with
// a message that says what the picture is, what it would cost and what to
// do, allocating next to nothing; the same pixels at 8 bits pass.
func TestBombsAreRefusedBeforeDecoding(t *testing.T) {
	for _, c := range []struct {
		name, want string
		data       []byte
	}{
		{"16-bit RGBA 4096×4096", "the picture is a 4096×4096 16-bit RGBA PNG: decoding it would take 128 MiB, and at most 96 MiB is allowed: save it with 8 bits a channel", imagestest.PNG(4096, 4096, 16, 6, false)},
		{"16-bit RGB 4096×4096", "16-bit RGB PNG: decoding it would take 128 MiB", imagestest.PNG(4096, 4096, 16, 2, false)},
		{"progressive 4:4:4 4096×4096", "4096×4096 progressive JPEG: decoding it would take 240 MiB, and at most 96 MiB is allowed: save it as a baseline (not progressive) JPEG", imagestest.ProgressiveJPEG(4096, 4096, false)},
		{"progressive 4:2:0 4096×4096", "progressive JPEG: decoding it would take 120 MiB", imagestest.ProgressiveJPEG(4096, 4096, true)},
		{"interlaced RGBA 4096×4096", "interlaced RGBA PNG: decoding it would take 128 MiB", withInterlace(imagestest.PNG(4096, 4096, 8, 6, false))},
		{"lossless WebP 4096×4096", "lossless WebP: decoding it would take", imagestest.LosslessWebP(4096, 4096, 1, 2, 3, 4)},
	} {
		var err error
		grew := allocated(func() { _, err = Process(context.Background(), c.data) })
		if fray.ErrorCode(err) != fray.ETOOLARGE || !strings.Contains(fray.ErrorMessage(err), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if grew > 4<<20 {
			t.Errorf("%s: refusing it allocated %d KiB", c.name, grew>>10)
		}
	}
	for name, data := range map[string][]byte{
		"RGBA 4096×4096":           imagestest.PNG(4096, 4096, 8, 6, false),
		"progressive 4:4:4 2048²":  imagestest.ProgressiveJPEG(2048, 2048, false),
		"lossy WebP 4096×4096":     lossyWebPHeader(4096, 4096),
		"lossless WebP 1000×1000 ": imagestest.LosslessWebP(1000, 1000, 1, 2, 3, 4),
	} {
		h, err := check(data)
		if err != nil || h.Decode > MaxDecodeBytes {
			t.Errorf("%s: %v (%d bytes)", name, err, h.Decode)
		}
	}
}

// TestAPictureOverItsDeadlineIsRefused: work past the deadline is refused,
// whatever it was.
func TestAPictureOverItsDeadlineIsRefused(t *testing.T) {
	defer func(d time.Duration) { deadline = d }(deadline)
	deadline = time.Nanosecond
	_, err := Process(context.Background(), pngOf(t, picture(300, 200, 255)))
	if fray.ErrorCode(err) != fray.ETOOLARGE || !strings.Contains(fray.ErrorMessage(err), "the picture took too long to read") {
		t.Errorf("%v", err)
	}
}

// heapWatch samples the heap every few milliseconds and keeps the largest.
type heapWatch struct {
	base, peak atomic.Uint64
	stop       chan struct{}
	done       sync.WaitGroup
}

func watchHeap() *heapWatch {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	h := &heapWatch{stop: make(chan struct{})}
	h.base.Store(m.HeapAlloc)
	h.peak.Store(m.HeapAlloc)
	h.done.Add(1)
	go func() {
		defer h.done.Done()
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				return
			case <-t.C:
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				if m.HeapAlloc > h.peak.Load() {
					h.peak.Store(m.HeapAlloc)
				}
			}
		}
	}()
	return h
}

func (h *heapWatch) growth() uint64 {
	close(h.stop)
	h.done.Wait()
	return h.peak.Load() - min(h.base.Load(), h.peak.Load())
}

// TestBombsKeepTheHeapBounded sends the pictures that exhausted the server
// before — the 4096×4096 16-bit zero PNG (130 KB at zlib's best level,
// 128 MiB decoded) and the 4096×4096 progressive JPEG of one bit a block
// (98 KB, 240 MiB decoded) — eight at once, three rounds, with the
// largest pictures that pass (a 4096×4096 8-bit PNG, a 2048×2048
// progressive JPEG), eight at once too, through Process: every one is
// answered (refused, busy, or converted) and the heap grows by less than
// 256 MiB. -v prints the heap's growth and each kind's answers and times.
func TestBombsKeepTheHeapBounded(t *testing.T) {
	kinds := []struct {
		name string
		data []byte
	}{
		{"16-bit PNG 4096²", imagestest.PNG(4096, 4096, 16, 6, false)},
		{"progressive JPEG 4096²", imagestest.ProgressiveJPEG(4096, 4096, false)},
		{"8-bit PNG 4096²", imagestest.PNG(4096, 4096, 8, 6, false)},
		{"progressive JPEG 2048²", imagestest.ProgressiveJPEG(2048, 2048, false)},
	}
	for _, k := range kinds {
		t.Logf("%s: %d bytes", k.name, len(k.data))
	}
	type answer struct {
		kind string
		code string
		took time.Duration
	}
	var (
		mu      sync.Mutex
		answers []answer
	)
	watch := watchHeap()
	for round := range 3 {
		for _, k := range kinds {
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					start := time.Now()
					p, err := Process(context.Background(), k.data)
					took := time.Since(start)
					code := fray.ErrorCode(err)
					if err == nil && (p.Display.Width == 0 || len(p.Display.Data) == 0) {
						code = "empty"
					}
					mu.Lock()
					answers = append(answers, answer{k.name, code, took})
					mu.Unlock()
				}()
			}
			done := make(chan struct{})
			go func() { wg.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(patience.Hang()):
				t.Fatalf("round %d, %s: not every picture was answered", round+1, k.name)
			}
		}
	}
	grew := watch.growth()
	t.Logf("heap growth: %.1f MiB at most (bound 256 MiB); gate: %d cores, %s", float64(grew)/(1<<20), intake.Default.Config().Slots, intake.Size(intake.Default.Config().Memory))
	for _, k := range kinds {
		var took []time.Duration
		codes := map[string]int{}
		for _, a := range answers {
			if a.kind == k.name {
				took = append(took, a.took)
				codes[a.code]++
			}
		}
		slices.Sort(took)
		t.Logf("%-24s answers %v; time min %v, median %v, max %v", k.name, codes, took[0].Round(time.Millisecond),
			took[len(took)/2].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond))
		for code := range codes {
			want := []string{fray.ETOOLARGE}
			if strings.HasPrefix(k.name, "8-bit") || strings.HasSuffix(k.name, "2048²") {
				want = []string{"", fray.EBUSY}
			}
			if !slices.Contains(want, code) {
				t.Errorf("%s answered %q (%d times), want one of %q", k.name, code, codes[code], want)
			}
		}
	}
	if len(answers) != 3*8*len(kinds) {
		t.Errorf("%d answers", len(answers))
	}
	if grew >= 256<<20 {
		t.Errorf("the heap grew by %d MiB", grew>>20)
	}
}

func TestScaleAveragesAreas(t *testing.T) {
	// A 4×2 picture: an opaque black and white checkerboard on the left,
	// half-transparent red beside opaque blue on the right.
	src := image.NewNRGBA(image.Rect(0, 0, 4, 2))
	src.Set(0, 0, color.NRGBA{0, 0, 0, 255})
	src.Set(1, 0, color.NRGBA{255, 255, 255, 255})
	src.Set(0, 1, color.NRGBA{255, 255, 255, 255})
	src.Set(1, 1, color.NRGBA{0, 0, 0, 255})
	for y := range 2 {
		src.Set(2, y, color.NRGBA{255, 0, 0, 128})
		src.Set(3, y, color.NRGBA{0, 0, 255, 255})
	}
	out, err := scale(context.Background(), src, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.NRGBAAt(0, 0); got != (color.NRGBA{128, 128, 128, 255}) {
		t.Errorf("checkerboard: %v", got)
	}
	// Premultiplied: the red weighs half as much as the blue.
	if got := out.NRGBAAt(1, 0); got.A != 192 || got.R < 84 || got.R > 86 || got.B < 169 || got.B > 171 {
		t.Errorf("red and blue: %v", got)
	}
	// A third of a pixel: 3 → 2 shares the middle column.
	row := image.NewGray(image.Rect(0, 0, 3, 1))
	row.Pix = []uint8{0, 90, 180}
	out, _ = scale(context.Background(), row, 2, 1)
	if a, b := out.NRGBAAt(0, 0).R, out.NRGBAAt(1, 0).R; a != 30 || b != 150 {
		t.Errorf("3 → 2: %d %d, want 30 150", a, b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := scale(ctx, picture(400, 400, 255), 100, 100); err == nil {
		t.Error("scaled after the deadline")
	}
}

func TestUnembed(t *testing.T) {
	png := pngOf(t, picture(20, 10, 255))
	std := base64.StdEncoding.EncodeToString(png)
	wrapped := ""
	for s := std; s != ""; s = s[min(len(s), 76):] {
		wrapped += s[:min(len(s), 76)] + "\r\n"
	}
	for name, in := range map[string]string{
		"standard":          std,
		"unpadded":          base64.RawStdEncoding.EncodeToString(png),
		"URL alphabet":      base64.URLEncoding.EncodeToString(png),
		"line breaks":       wrapped,
		"data: URL":         "data:image/png;base64," + std,
		"data: URL, as PNG": "data:image/webp;base64," + std, // the type is not trusted: the bytes are sniffed
	} {
		data, err := Unembed(in)
		if err != nil || !bytes.Equal(data, png) {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name, c := range map[string]struct{ in, code string }{
		"not base64":      {"this is not base64!", fray.EINVALID},
		"a text data URL": {"data:text/html;base64,PHNjcmlwdD4=", fray.EINVALID},
		"not base64 URL":  {"data:image/png,rawbytes", fray.EINVALID},
		"too large":       {strings.Repeat("A", (MaxBytes/3+1)*4+4), fray.ETOOLARGE},
	} {
		var err error
		grew := allocated(func() { _, err = Unembed(c.in) })
		if fray.ErrorCode(err) != c.code {
			t.Errorf("%s: %v, want %s", name, err, c.code)
		}
		if c.code == fray.ETOOLARGE && grew > 1<<20 {
			t.Errorf("%s: refusing it allocated %d KiB", name, grew>>10)
		}
	}
}

// FuzzProcess: the picture path past the header checks — seeded with a
// small picture of every format and coding, which the fuzzer changes —
// never panics, answers EINVALID, ETOOLARGE or EBUSY when it refuses, and
// what it accepts is a PNG or JPEG within the display and thumbnail sizes.
func FuzzProcess(f *testing.F) {
	for _, data := range [][]byte{
		pngOf(f, picture(12, 9, 128)), jpegOf(f, picture(17, 8, 255)), imagestest.ProgressiveJPEG(24, 16, true),
		imagestest.PNG(9, 7, 16, 6, true), imagestest.PNG(9, 7, 2, 3, true), gifOf(f, 13, 5), grayJPEG(f, 9, 9),
		imagestest.LosslessWebP(9, 9, 1, 2, 3, 4), withInterlace(imagestest.PNG(8, 8, 8, 2, false)),
	} {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Process(context.Background(), data)
		if err != nil {
			if c := fray.ErrorCode(err); c != fray.EINVALID && c != fray.ETOOLARGE && c != fray.EBUSY {
				t.Fatalf("code %q: %v", c, err)
			}
			return
		}
		for _, e := range []Encoded{p.Display, p.Thumb} {
			if e.ContentType != "image/png" && e.ContentType != "image/jpeg" || e.Width < 1 || e.Height < 1 || e.Width > DisplaySide || e.Height > DisplaySide {
				t.Fatalf("encoded %s %d×%d", e.ContentType, e.Width, e.Height)
			}
			if _, _, err := image.Decode(bytes.NewReader(e.Data)); err != nil {
				t.Fatalf("the encoding does not decode: %v", err)
			}
		}
		if p.Thumb.Width > ThumbSide || p.Thumb.Height > ThumbSide {
			t.Fatalf("thumb %d×%d", p.Thumb.Width, p.Thumb.Height)
		}
	})
}

// FuzzConvert fuzzes the decoders behind the header checks: any input
// whose header reads and is within the limits is decoded, scaled and
// encoded as Process would (whatever its end or its bytes hold), and what
// that allocates stays within the cost Process reserves for it at the
// gate.
func FuzzConvert(f *testing.F) {
	for _, data := range [][]byte{
		pngOf(f, picture(12, 9, 128)), jpegOf(f, picture(17, 8, 255)), imagestest.ProgressiveJPEG(24, 16, true),
		imagestest.PNG(9, 7, 16, 6, true), imagestest.PNG(9, 7, 2, 3, true), gifOf(f, 13, 5), grayJPEG(f, 9, 9),
		imagestest.LosslessWebP(9, 9, 1, 2, 3, 4), withInterlace(imagestest.PNG(8, 8, 8, 2, false)), lossyWebPHeader(64, 48),
	} {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		format, err := Sniff(data)
		if err != nil {
			return
		}
		h, err := readHeader(format, data)
		if err != nil || h.Width <= 0 || h.Height <= 0 || h.Width > MaxSide || h.Height > MaxSide ||
			int64(h.Width)*int64(h.Height) > MaxPixels || h.Decode > MaxDecodeBytes {
			return
		}
		h.format = format
		cost := h.Decode + pipeline(h.Width, h.Height)
		var p Picture
		got := allocatedNoGC(func() { p, err = convert(context.Background(), h, data) })
		if got > uint64(cost)+1<<20 {
			t.Fatalf("a %d×%d %s: converting it allocated %d bytes, its cost is %d", h.Width, h.Height, h.Kind, got, cost)
		}
		if err == nil && (p.Display.Width < 1 || p.Display.Width > DisplaySide || p.Thumb.Width > ThumbSide) {
			t.Fatalf("encoded %d×%d, thumb %d×%d", p.Display.Width, p.Display.Height, p.Thumb.Width, p.Thumb.Height)
		}
	})
}

// allocatedNoGC is allocated without the collection first (a fuzzer's
// worker runs one input at a time).
func allocatedNoGC(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
