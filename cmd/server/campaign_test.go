package main

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fray-vtt/fray/internal/testdb"
)

// rewriteZip copies the archive src to a new file, passing every entry
// through edit (nil drops it), and recomputes the manifest's checksums
// when resum is set (a deliberate forgery rather than a damaged file).
func rewriteZip(t *testing.T, src string, resum bool, edit func(name string, data []byte) []byte) string {
	t.Helper()
	zr, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	var manifest map[string]any
	sums := map[string]string{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		data, _ := io.ReadAll(rc)
		rc.Close()
		if f.Name == "fray-campaign.json" {
			_ = json.Unmarshal(data, &manifest)
			continue
		}
		if data = edit(f.Name, data); data == nil {
			continue
		}
		w, _ := zw.Create(f.Name)
		w.Write(data)
		sum := sha256.Sum256(data)
		sums[f.Name] = hex.EncodeToString(sum[:])
	}
	if resum {
		manifest["entries"] = sums
	}
	raw, _ := json.Marshal(manifest)
	w, _ := zw.Create("fray-campaign.json")
	w.Write(raw)
	zw.Close()
	out := filepath.Join(t.TempDir(), "edited.zip")
	if err := os.WriteFile(out, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return out
}

// A campaign moves between two server processes on two PostgreSQL
// clusters: exported from one while it runs, imported into the other for
// a GM there, it has the same encounters — every event and chain head —
// pictures, characters and bestiary; each encounter's JSON export from the
// new server verifies with `server verify`, through the head the old one
// showed last; play goes on there with the same dice. An archive that is
// cut short, changed, forged (checksums recomputed over a changed event),
// holding a path out of its place, or imported a second time is refused
// with a message and stores nothing.
func TestCampaignMovesBetweenServers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two server processes and a second cluster")
	}
	dbA := testdb.URL(t)
	a := &serverProcess{t: t, addr: freeAddr(t), dbURL: dbA, env: []string{"FRAY_NOTIFY_ALLOW_PRIVATE=true"}}
	a.start()
	defer a.stop()
	dirB := t.TempDir()
	b := &serverProcess{t: t, addr: freeAddr(t), env: []string{"FRAY_DATA_DIR=" + dirB}}
	b.start()
	defer b.stop()
	apiA := &testServer{t: t, URL: "http://" + a.addr, once: &sync.Once{}}
	apiB := &testServer{t: t, URL: "http://" + b.addr, once: &sync.Once{}}

	gm := apiA.signup("gamemaster")
	g := apiA.withUser(gm)
	ids := []string{g.importExample()}
	var camps []struct{ ID, Name string }
	g.do("GET", "/api/campaigns", nil, &camps)
	campaign := camps[0].ID
	var second struct{ ID string }
	if code := g.do("POST", "/api/campaigns/"+campaign+"/encounters", exampleData(t, "d20-duel-"), &second); code != http.StatusCreated {
		t.Fatalf("import a second encounter: %d", code)
	}
	ids = append(ids, second.ID)
	if code := g.do("POST", "/api/encounters/"+ids[0]+"/commands", map[string]any{"id": "start", "command": map[string]any{"kind": "start"}}, nil); code != 200 {
		t.Fatalf("start: %d", code)
	}
	for i := range 6 {
		v, _ := g.view(ids[0], "")
		if code := g.do("POST", "/api/encounters/"+ids[0]+"/commands", map[string]any{"id": fmt.Sprint("end-", i), "command": map[string]any{"kind": "end-turn", "actor": v.Current}}, nil); code != 200 {
			t.Fatalf("end turn: %d", code)
		}
	}
	code, pic := apiA.uploadPicture(gm, campaign, "map.png", noisePicture(t, 120, 80, 3))
	if code != http.StatusCreated && code != http.StatusOK {
		t.Fatalf("upload: %d", code)
	}
	if code := g.do("POST", "/api/campaigns/"+campaign+"/webhooks", map[string]string{"url": "http://127.0.0.1:9/fray", "format": "json"}, nil); code != http.StatusCreated {
		t.Fatalf("webhook: %d", code)
	}
	var charsA json.RawMessage
	g.do("GET", "/api/campaigns/"+campaign+"/characters", nil, &charsA)

	file := filepath.Join(t.TempDir(), "campaign.zip")
	if out, err := runCmd(t, map[string]string{"DATABASE_URL": dbA, "FRAY_LOG_LEVEL": "error"}, "campaign", "export", campaign, file); err != nil {
		t.Fatalf("export: %v\n%s", err, out)
	}
	newGM := apiB.signup("new-gm")
	envB := map[string]string{"FRAY_DATA_DIR": dirB, "FRAY_LOG_LEVEL": "error"}
	campaignsOnB := func() []struct{ ID, Name string } {
		var cs []struct{ ID, Name string }
		apiB.withUser(newGM).do("GET", "/api/campaigns", nil, &cs)
		return cs
	}
	importInto := func(archive string) (string, error) {
		return runCmd(t, envB, "campaign", "import", archive, "-gm", "new-gm")
	}

	// Refused archives first: nothing is stored.
	raw, _ := os.ReadFile(file)
	cut := filepath.Join(t.TempDir(), "cut.zip")
	os.WriteFile(cut, raw[:len(raw)*2/3], 0o600)
	bodyOf := func(name string, data []byte, from, to string) []byte {
		if strings.HasPrefix(name, "encounters/"+ids[0]) {
			// In the log, past the setup and the initial state.
			at := bytes.Index(data, []byte(`"events":[`))
			return append(bytes.Clone(data[:at]), bytes.Replace(data[at:], []byte(from), []byte(to), 1)...)
		}
		return data
	}
	for _, tc := range []struct{ name, archive, says string }{
		{"cut short", cut, "not a ZIP archive"},
		{"a changed byte", rewriteZip(t, file, false, func(n string, d []byte) []byte { return bodyOf(n, d, `"round":1`, `"round":2`) }), "was changed"},
		{"a forged event's copy of its round", rewriteZip(t, file, true, func(n string, d []byte) []byte { return bodyOf(n, d, `"round":1`, `"round":2`) }), "differ from its body"},
		{"a forged event", rewriteZip(t, file, true, func(n string, d []byte) []byte { return bodyOf(n, d, `"text":"`, `"text":"Not `) }), "does not match its digest"},
		{"an entry dropped", rewriteZip(t, file, false, func(n string, d []byte) []byte {
			if strings.HasPrefix(n, "pictures/") {
				return nil
			}
			return d
		}), "missing"},
	} {
		out, err := importInto(tc.archive)
		if err == nil || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), "nothing was imported") {
			t.Errorf("%s: %v\n%s", tc.name, err, out)
		}
		if cs := campaignsOnB(); len(cs) != 0 {
			t.Fatalf("%s stored %v", tc.name, cs)
		}
	}
	traversal := filepath.Join(t.TempDir(), "traversal.zip")
	{
		zr, _ := zip.OpenReader(file)
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for _, f := range zr.File {
			zw.Copy(f)
		}
		w, _ := zw.Create("../../etc/fray")
		w.Write([]byte("x"))
		zw.Close()
		zr.Close()
		os.WriteFile(traversal, buf.Bytes(), 0o600)
	}
	if out, err := importInto(traversal); err == nil || !strings.Contains(err.Error(), `"../../etc/fray"`) {
		t.Errorf("a path that climbs out: %v\n%s", err, out)
	}

	out, err := importInto(file)
	if err != nil || !strings.Contains(out, "new signing secret") {
		t.Fatalf("import: %v\n%s", err, out)
	}
	cs := campaignsOnB()
	if len(cs) != 1 || cs[0].Name != camps[0].Name {
		t.Fatalf("campaigns on B: %v", cs)
	}
	// A second import would put the same encounters twice: refused, and
	// the campaign row it began with is rolled back.
	if out, err := importInto(file); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("a second import: %v\n%s", err, out)
	}
	if cs := campaignsOnB(); len(cs) != 1 {
		t.Errorf("after the refused second import: %v", cs)
	}

	h := apiB.withUser(newGM)
	for _, id := range ids {
		src, dst := apiA.history(gm, id), apiB.history(newGM, id)
		if len(src.Events) != len(dst.Events) || fmt.Sprint(src.Heads) != fmt.Sprint(dst.Heads) {
			t.Errorf("%s: %d events and heads %v on A, %d and %v on B", id, len(src.Events), src.Heads, len(dst.Events), dst.Heads)
		}
		for j := range src.Events {
			if !bytes.Equal(src.Events[j], dst.Events[j]) {
				t.Errorf("%s: event %d differs", id, j+1)
				break
			}
		}
		resp, err := http.NewRequest("GET", apiB.URL+"/api/encounters/"+id+"/export.json", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Header.Set("Authorization", "Bearer "+newGM.Token)
		r, err := http.DefaultClient.Do(resp)
		if err != nil {
			t.Fatal(err)
		}
		export, _ := io.ReadAll(r.Body)
		r.Body.Close()
		exportFile := filepath.Join(t.TempDir(), "export.json")
		os.WriteFile(exportFile, export, 0o600)
		args := []string{"verify", exportFile}
		if n := len(src.Heads); n > 0 {
			args = append(args, src.Heads[n-1].Link)
		}
		if out, err := runCmd(t, nil, args...); err != nil || !strings.Contains(out, "OK") {
			t.Errorf("verify %s exported by B: %v\n%s", id, err, out)
		}
	}
	for _, u := range []string{pic.URL, pic.Thumb} {
		if a, b := fetch(t, apiA.URL+u), fetch(t, apiB.URL+u); len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("picture %s: %d bytes on A, %d on B", u, len(a), len(b))
		}
	}
	var charsB json.RawMessage
	h.do("GET", "/api/campaigns/"+cs[0].ID+"/characters", nil, &charsB)
	if len(charsA) < 10 || !bytes.Equal(charsA, charsB) {
		t.Errorf("characters: A %s\nB %s", charsA, charsB)
	}
	// Play goes on at B.
	v, _ := h.view(ids[0], "")
	if code := h.do("POST", "/api/encounters/"+ids[0]+"/commands", map[string]any{"id": "on-b", "command": map[string]any{"kind": "end-turn", "actor": v.Current}}, nil); code != http.StatusOK {
		t.Errorf("a command on B: %d", code)
	}
}
