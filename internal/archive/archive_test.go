package archive

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/images"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/store"
)

// picture is a stored picture as the upload path makes it.
func picture(t *testing.T) store.Asset {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 40, 30))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	p, err := images.Process(context.Background(), buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	return store.Asset{ID: p.ID(), Name: "map.png", ContentType: p.Display.ContentType, Width: p.Display.Width, Height: p.Display.Height,
		Data: p.Display.Data, ThumbType: p.Thumb.ContentType, Thumb: p.Thumb.Data, CreatedAt: time.Unix(1e9, 0).UTC()}
}

func written(t *testing.T, a store.CampaignArchive) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, a, store.LatestSchema()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func read(data []byte) (store.CampaignArchive, error) {
	a, _, err := Read(context.Background(), bytes.NewReader(data), int64(len(data)), rules.Registry())
	return a, err
}

// with rebuilds an archive's zip with extra entries after its own.
func with(t *testing.T, data []byte, extra map[string][]byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	for name, d := range extra {
		w, _ := zw.Create(name)
		w.Write(d)
	}
	zw.Close()
	return buf.Bytes()
}

// A written archive reads back; every kind of bad archive is refused with
// a message naming what is wrong.
func TestReadRefusesBadArchives(t *testing.T) {
	pic := picture(t)
	good := store.CampaignArchive{Name: "Ashes", Assets: []store.Asset{pic},
		Webhooks: []store.ArchivedWebhook{{URL: "https://example.com/h", Format: "json", Secret: "never written"}}}
	data := written(t, good)
	if bytes.Contains(data, []byte("never written")) {
		t.Fatal("a webhook's secret was written")
	}
	a, err := read(data)
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "Ashes" || len(a.Assets) != 1 || !bytes.Equal(a.Assets[0].Data, pic.Data) || a.Assets[0].Width != pic.Width || a.Webhooks[0].Secret != "" {
		t.Fatalf("read back %+v", a)
	}

	markup := []byte("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>")
	notItsName := pic
	notItsName.ID = strings.Repeat("ab", 32)
	svgThumb := pic
	svgThumb.Thumb = markup
	for _, tc := range []struct {
		name string
		data []byte
		says string
	}{
		{"empty", nil, "not a ZIP archive"},
		{"cut short", data[:len(data)-30], "not a ZIP archive"},
		{"a climbing path", with(t, data, map[string][]byte{"../evil": []byte("x")}), `"../evil"`},
		{"an absolute path", with(t, data, map[string][]byte{"/etc/passwd": []byte("x")}), `"/etc/passwd"`},
		{"an unlisted picture", with(t, data, map[string][]byte{"pictures/" + strings.Repeat("cd", 32) + ".png": pic.Data}), "not listed"},
		{"a picture that is not its name", written(t, store.CampaignArchive{Name: "x", Assets: []store.Asset{notItsName}}), "is not the picture its name"},
		{"a thumbnail that is markup", written(t, store.CampaignArchive{Name: "x", Assets: []store.Asset{svgThumb}}), "SVG"},
		{"an unknown ruleset", written(t, store.CampaignArchive{Name: "x", Encounters: []store.ArchivedEncounter{{ID: "01234567-89ab-4def-8123-456789abcdef", Ruleset: "chess"}}}), `"chess" is not on this server`},
	} {
		_, err := read(tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "nothing was imported") {
			t.Errorf("%s: %v, want it refused saying %q", tc.name, err, tc.says)
		}
	}

	// Too many entries, and an entry declared larger than its bound, are
	// refused from the zip's directory, before anything is decompressed.
	many := map[string][]byte{}
	for i := range MaxEntries {
		many[fmt.Sprintf("pictures/%064x.png", i)] = nil
	}
	if _, err := read(with(t, data, many)); err == nil || !strings.Contains(err.Error(), "files or more") || fray.ErrorCode(err) != fray.ETOOLARGE {
		t.Errorf("too many entries: %v", err)
	}
	var big bytes.Buffer
	zw := zip.NewWriter(&big)
	w, _ := zw.Create("campaign.json")
	w.Write(bytes.Repeat([]byte(" "), MaxJSONBytes+1)) // deflates to almost nothing
	zw.Close()
	if _, err := read(big.Bytes()); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("an entry over its bound: %v", err)
	}
}

// FuzzRead: no archive makes Read panic, and whatever it accepts is what
// an archive written from it reads back as.
func FuzzRead(f *testing.F) {
	f.Add([]byte{})
	var buf bytes.Buffer
	_ = Write(&buf, store.CampaignArchive{Name: "Seed", Webhooks: []store.ArchivedWebhook{{URL: "https://example.com", Format: "json"}}}, 1)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := read(data)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := Write(&out, a, 1); err != nil {
			t.Fatal(err)
		}
		again, err := read(out.Bytes())
		if err != nil || again.Name != a.Name || len(again.Encounters) != len(a.Encounters) || len(again.Assets) != len(a.Assets) {
			t.Fatalf("an accepted archive does not read back: %v", err)
		}
	})
}
