package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/testdb"
)

// uploaded is the API's answer to an upload.
type uploaded struct {
	ID, URL, Thumb string
	Width, Height  int
	Code, Message  string
}

// uploadPicture posts data as the multipart field "file" named name to
// campaign's assets as u.
func (s *testServer) uploadPicture(u *apiUser, campaign, name string, data []byte) (int, uploaded) {
	s.t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		fw, _ := mw.CreateFormFile("file", name)
		_, _ = fw.Write(data)
		_ = mw.Close()
		_ = pw.Close()
	}()
	req, _ := http.NewRequest("POST", s.URL+"/api/campaigns/"+campaign+"/assets", pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+u.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out uploaded
	raw, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

func testPicture(w, h int, tint uint8, alpha uint8) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.NRGBA{uint8(x * 255 / w), tint, uint8(y * 255 / h), alpha})
		}
	}
	return img
}

func pngBytes(t testing.TB, img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegBytes(t testing.TB, img image.Image) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// jpegWithGPS is a JPEG with an EXIF block holding GPS coordinates.
func jpegWithGPS(t testing.TB, img image.Image) []byte {
	jpg := jpegBytes(t, img)
	exif := []byte("Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08GPSLatitude 48.8584N GPSLongitude 2.2945E")
	seg := []byte{0xff, 0xe1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(exif)+2))
	out := append(append(append([]byte{}, jpg[:2]...), seg...), exif...)
	return append(out, jpg[2:]...)
}

// pngBomb is a small PNG whose header claims w×h pixels.
func pngBomb(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		_ = binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(kind)
		b.Write(data)
		_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(kind), data...)))
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6
	chunk("IHDR", ihdr)
	chunk("IDAT", []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})
	chunk("IEND", nil)
	return b.Bytes()
}

// TestPictures: the GM uploads pictures (the same twice is one); a JPEG's
// GPS block does not survive; a second server on the same database serves
// what the first stored; a player gets the scene, the portraits of the
// combatants they see and the handouts shown to them, and 404 for a hidden
// combatant's portrait and an unrevealed handout, as a stranger does for
// all; hostile uploads are refused with clear messages while the heap
// stays bounded.
func TestPictures(t *testing.T) {
	dbURL := testdb.URL(t)
	s1 := startServer(t, dbURL)
	tb := s1.newTable()
	s2 := startServer(t, dbURL)
	stranger := s1.signup("stranger")

	up := func(name string, data []byte) uploaded {
		t.Helper()
		code, u := s1.uploadPicture(tb.gm, tb.campaign, name, data)
		if code != http.StatusCreated || !strings.HasPrefix(u.URL, engine.AssetPrefix) {
			t.Fatalf("upload %s: %d %+v", name, code, u)
		}
		return u
	}
	scene := up("ford.png", pngBytes(t, testPicture(600, 400, 80, 255)))
	portrait := up("ana.jpg", jpegWithGPS(t, testPicture(300, 300, 160, 255)))
	lurker := up("lurker.png", pngBytes(t, testPicture(64, 64, 20, 200)))
	letter := up("letter.png", pngBytes(t, testPicture(200, 300, 220, 255)))
	if again := up("copy.png", pngBytes(t, testPicture(600, 400, 80, 255))); again.ID != scene.ID {
		t.Errorf("the same picture twice: %s and %s", scene.ID, again.ID)
	}
	if scene.Width != 600 || scene.Height != 400 {
		t.Errorf("scene %d×%d", scene.Width, scene.Height)
	}
	var list []uploaded
	if s1.withUser(tb.gm).do("GET", "/api/campaigns/"+tb.campaign+"/assets", nil, &list); len(list) != 4 {
		t.Errorf("the campaign lists %d pictures, want 4", len(list))
	}

	// The second server serves the portrait; its GPS block is gone.
	p := s2.get(tb.gm, portrait.URL)
	if p.code != 200 || p.header.Get("Content-Type") != "image/jpeg" {
		t.Fatalf("second server: %d %s", p.code, p.header)
	}
	if bytes.Contains(p.body, []byte("GPS")) || bytes.Contains(p.body, []byte("Exif")) {
		t.Error("the stored portrait kept its EXIF GPS block")
	}
	if _, err := jpeg.Decode(bytes.NewReader(p.body)); err != nil {
		t.Errorf("the stored portrait: %v", err)
	}
	if th := s2.get(tb.gm, portrait.Thumb); th.code != 200 || len(th.body) >= len(p.body) {
		t.Errorf("thumbnail: %d, %d bytes (display %d)", th.code, len(th.body), len(p.body))
	}
	if etag := p.header.Get("ETag"); etag == "" || !strings.Contains(p.header.Get("Cache-Control"), "immutable") {
		t.Errorf("caching headers: %v", p.header)
	}

	// An encounter with the scene, the PC's portrait, a hidden NPC with a
	// portrait and a handout.
	setup := encounterWithPictures(t, tb.pc, scene.URL, portrait.URL, lurker.URL, letter.URL)
	var created struct{ ID string }
	if code := s1.withUser(tb.gm).do("POST", "/api/campaigns/"+tb.campaign+"/encounters", setup, &created); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	status := func(srv *testServer, u *apiUser, url string) int { return srv.get(u, url).code }
	for _, c := range []struct {
		url  string
		want int
	}{{scene.URL, 200}, {portrait.URL, 200}, {portrait.Thumb, 200}, {lurker.URL, 404}, {letter.URL, 404}} {
		if got := status(s2, tb.player, c.url); got != c.want {
			t.Errorf("player GET %s: %d, want %d", c.url, got, c.want)
		}
		if got := status(s1, stranger, c.url); got != 404 {
			t.Errorf("stranger GET %s: %d", c.url, got)
		}
	}
	pv := s1.get(tb.player, "/api/encounters/"+created.ID).body
	if !bytes.Contains(pv, []byte(scene.URL)) || !bytes.Contains(pv, []byte(portrait.URL)) ||
		bytes.Contains(pv, []byte(lurker.URL)) || bytes.Contains(pv, []byte(letter.URL)) || bytes.Contains(pv, []byte("Gm-only")) {
		t.Errorf("the player's view: %s", pv)
	}

	// Shown the letter and the lurker, the player may fetch both.
	if code, e := s1.command(tb.gm, created.ID, "h1", map[string]any{"kind": engine.KindRevealHandout, "handout": "letter", "to": tb.pc}); code != 200 {
		t.Fatalf("reveal-handout: %d %+v", code, e)
	}
	if code, e := s1.command(tb.gm, created.ID, "r1", map[string]any{"kind": engine.KindReveal, "combatant": "lurker"}); code != 200 {
		t.Fatalf("reveal: %d %+v", code, e)
	}
	for _, u := range []string{letter.URL, lurker.URL} {
		if got := status(s2, tb.player, u); got != 200 {
			t.Errorf("after the reveal, player GET %s: %d", u, got)
		}
	}

	// Hostile uploads.
	jpg := jpegBytes(t, testPicture(64, 64, 0, 255))
	huge := make([]byte, 50<<20)
	copy(huge, pngBytes(t, testPicture(8, 8, 0, 255)))
	watch := watchHeap()
	for _, c := range []struct {
		name   string
		data   []byte
		status int
		want   string
	}{
		{"bomb.png", pngBomb(100_000, 100_000), 413, "100000×100000 pixels"},
		{"huge.png", huge, 413, "larger than 10 MiB"},
		{"polyglot.png", append(pngBytes(t, testPicture(8, 8, 0, 255)), []byte("<html><script>alert(1)</script>")...), 400, "polyglot"},
		{"evil.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>`), 400, "SVG"},
		{"cut.jpg", jpg[:len(jpg)/2], 400, "cut short"},
		{"notes.png", []byte("these are my notes, not a picture"), 400, "not a PNG, JPEG, WebP or GIF"},
	} {
		code, u := s1.uploadPicture(tb.gm, tb.campaign, c.name, c.data)
		if code != c.status || !strings.Contains(u.Message, c.want) {
			t.Errorf("%s: %d %q, want %d with %q", c.name, code, u.Message, c.status, c.want)
		}
	}
	if grew := watch.growth(); grew > heapBound {
		t.Errorf("hostile uploads grew the heap by %d MiB", grew>>20)
	} else {
		t.Logf("hostile uploads grew the heap by %.1f MiB at most", float64(grew)/(1<<20))
	}
	// A player may not upload (the GM keeps the campaign's pictures).
	if code, _ := s1.uploadPicture(tb.player, tb.campaign, "mine.png", pngBytes(t, testPicture(8, 8, 1, 255))); code != 403 {
		t.Errorf("a player's upload: %d", code)
	}
}

// encounterWithPictures is the sw-zones example with a scene, pc's
// portrait, a hidden lurker with a portrait, a handout and notes.
func encounterWithPictures(t *testing.T, pc, scene, portrait, lurker, letter string) []byte {
	t.Helper()
	doc := decodeNumbers(t, exampleData(t, "sw-zones-"))
	doc["scene"] = scene
	doc["handouts"] = []any{map[string]any{"id": "letter", "title": "Gm-only letter", "image": letter}}
	doc["notes"] = []any{map[string]any{"subject": "encounter", "text": "Gm-only note"}}
	combatants := doc["combatants"].([]any)
	var npc map[string]any
	for _, c := range combatants {
		m := c.(map[string]any)
		if m["id"] == pc {
			m["portrait"] = portrait
		} else if m["pc"] != true && npc == nil {
			npc = m
		}
	}
	raw, _ := json.Marshal(npc)
	clone := decodeNumbers(t, raw)
	clone["id"], clone["name"], clone["hidden"], clone["portrait"] = "lurker", "Lurker", true, lurker
	doc["combatants"] = append(combatants, clone)
	out, _ := json.Marshal(doc)
	return out
}

// exampleData is the first shipped example whose name starts with prefix.
func exampleData(t *testing.T, prefix string) []byte {
	t.Helper()
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range exs {
		if strings.HasPrefix(ex.Name, prefix) {
			return ex.Data
		}
	}
	t.Fatalf("no example %s*", prefix)
	return nil
}
