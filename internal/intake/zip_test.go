package intake

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/fray"
)

type entry struct {
	name string
	data []byte
}

func zipOf(t testing.TB, entries ...entry) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, e := range entries {
		w, err := zw.Create(e.name)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write(e.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// lying is an archive whose one entry declares 10 bytes and inflates to
// a mebibyte.
func lying(t testing.TB) []byte {
	t.Helper()
	content := bytes.Repeat([]byte("a"), 1<<20)
	var deflated bytes.Buffer
	fw, _ := flate.NewWriter(&deflated, flate.BestCompression)
	_, _ = fw.Write(content)
	_ = fw.Close()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "bomb.txt", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(content),
		CompressedSize64: uint64(deflated.Len()), UncompressedSize64: 10})
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write(deflated.Bytes())
	_ = zw.Close()
	return b.Bytes()
}

var testZipLimits = ZipLimits{What: "campaign archive", MaxFiles: 4, MaxFileBytes: 1 << 10, MaxTotalBytes: 2 << 10}

func TestUnzip(t *testing.T) {
	a, err := Unzip(zipOf(t, entry{"map.json", []byte(`{"a":1}`)}, entry{"pictures/", nil}, entry{"pictures/ford.png", []byte("png")}), testZipLimits)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Files) != 2 || a.Files[0].Name != "map.json" || a.Files[1].Name != "pictures/ford.png" || a.Size != 10 {
		t.Fatalf("files %+v, size %d", a.Files, a.Size)
	}
	if data, err := a.Files[0].Read(context.Background()); err != nil || string(data) != `{"a":1}` {
		t.Errorf("read: %q %v", data, err)
	}

	kb := bytes.Repeat([]byte("x"), 1<<10)
	for _, c := range []struct {
		name, code, want string
		data             []byte
	}{
		{"five files", fray.ETOOLARGE, "at most 4", zipOf(t, entry{"a", nil}, entry{"b", nil}, entry{"c", nil}, entry{"d", nil}, entry{"e", nil})},
		{"one file too large", fray.ETOOLARGE, "may be at most 1 KiB", zipOf(t, entry{"big", append(kb, 'x')})},
		{"too large together", fray.ETOOLARGE, "more than 2 KiB", zipOf(t, entry{"a", kb}, entry{"b", kb}, entry{"c", []byte("x")})},
		{"climbs out", fray.EINVALID, "not a plain relative path", zipOf(t, entry{"../../etc/passwd", nil})},
		{"absolute", fray.EINVALID, "not a plain relative path", zipOf(t, entry{"/etc/passwd", nil})},
		{"backslash", fray.EINVALID, "not a plain relative path", zipOf(t, entry{`..\evil`, nil})},
		{"control character", fray.EINVALID, "not a plain relative path", zipOf(t, entry{"a\x01b", nil})},
		{"twice", fray.EINVALID, "twice", zipOf(t, entry{"a", nil}, entry{"a", nil})},
		{"not a zip", fray.EINVALID, "not a ZIP", []byte("PK but not really")},
	} {
		_, err := Unzip(c.data, testZipLimits)
		if fray.ErrorCode(err) != c.code || !strings.Contains(fray.ErrorMessage(err), c.want) {
			t.Errorf("%s: %v, want %s with %q", c.name, err, c.code, c.want)
		}
	}

	// An entry that inflates past its declared size is refused once it
	// has read one byte more than declared.
	a, err = Unzip(lying(t), ZipLimits{MaxFiles: 1, MaxFileBytes: 100, MaxTotalBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	if data, err := a.Files[0].Read(context.Background()); err == nil || fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("a lying entry: %d bytes, %v", len(data), err)
	}
	// Reading stops when the job's deadline passes.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, _ = Unzip(zipOf(t, entry{"a", []byte("abc")}), testZipLimits)
	if _, err := a.Files[0].Read(ctx); err == nil {
		t.Error("read after the deadline")
	}
}

// FuzzUnzip: whatever the bytes, Unzip answers a fray error or an archive
// within its limits, whose files read back at most their declared sizes.
func FuzzUnzip(f *testing.F) {
	f.Add(zipOf(f, entry{"a.json", []byte("{}")}, entry{"b/c.png", []byte("x")}))
	f.Add(lying(f))
	f.Add([]byte("PK\x05\x06"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Unzip(data, testZipLimits)
		if err != nil {
			if c := fray.ErrorCode(err); c != fray.EINVALID && c != fray.ETOOLARGE {
				t.Fatalf("code %q: %v", c, err)
			}
			return
		}
		if len(a.Files) > testZipLimits.MaxFiles || a.Size > testZipLimits.MaxTotalBytes {
			t.Fatalf("%d files, %d bytes past the limits", len(a.Files), a.Size)
		}
		for _, f := range a.Files {
			data, err := f.Read(context.Background())
			if err == nil && int64(len(data)) > f.Size {
				t.Fatalf("%s: read %d bytes, declared %d", f.Name, len(data), f.Size)
			}
		}
	})
}

// A ZIP64 archive's entries are counted by their directory signatures a
// chunk at a time: a signature across two chunks is counted once.
func TestDeclaredFilesCountsAcrossChunks(t *testing.T) {
	sig := "PK\x01\x02"
	for _, data := range []string{
		"", sig, "xx" + sig + "yyy" + sig, sig + sig + sig, "abcdefg" + sig + "h",
		"0123456" + sig + "89" + sig + sig + "PK\x01" + "PK\x05\x06" + strings.Repeat("\xff", 18),
	} {
		want := strings.Count(data, sig)
		if strings.Contains(data, "PK\x05\x06") {
			want = strings.Count(data, sig) // the record says 0xFFFF: ZIP64, count signatures
		}
		for chunk := 4; chunk <= 12; chunk++ {
			got, err := declaredFilesIn(strings.NewReader(data), int64(len(data)), chunk)
			if err != nil || got != want {
				t.Errorf("%q in chunks of %d: %d files (%v), want %d", data, chunk, got, err, want)
			}
		}
	}
}
