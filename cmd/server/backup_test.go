package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fray-vtt/fray/internal/backup"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/testdb"
)

// noisePicture is a PNG that does not compress: a backup of it is large.
func noisePicture(t *testing.T, w, h int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.Uint32())
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 255
	}
	return pngBytes(t, img)
}

// history is an encounter's events and chain heads as the GM's API gives
// them.
type encounterHistory struct {
	Events []json.RawMessage
	Heads  []struct {
		Seq  int64  `json:"seq"`
		Link string `json:"link"`
	}
}

func (s *testServer) history(u *apiUser, id string) encounterHistory {
	s.t.Helper()
	var h encounterHistory
	for {
		var page struct{ Events []json.RawMessage }
		if code := s.withUser(u).do("GET", fmt.Sprintf("/api/encounters/%s/events?since=%d&limit=1000", id, len(h.Events)), nil, &page); code != http.StatusOK {
			s.t.Fatalf("events of %s: %d", id, code)
		}
		h.Events = append(h.Events, page.Events...)
		if len(page.Events) < 1000 {
			break
		}
	}
	for {
		var page struct {
			Heads []struct {
				Seq  int64  `json:"seq"`
				Link string `json:"link"`
			}
		}
		if code := s.withUser(u).do("GET", fmt.Sprintf("/api/encounters/%s/chain?after=%d", id, len(h.Heads)), nil, &page); code != http.StatusOK {
			s.t.Fatalf("chain of %s: %d", id, code)
		}
		h.Heads = append(h.Heads, page.Heads...)
		if len(page.Heads) < 5000 {
			break
		}
	}
	return h
}

// A backup written while commands flow restores into a fresh data
// directory (a private cluster of its own), and the server on it answers
// the same campaigns, the same pictures, and for every encounter the
// events and chain heads of the source up to the moment of the backup —
// a prefix of the source's, at least as long as what was acknowledged
// before it began.
func TestBackupUnderLoadRestoresEverything(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a second PostgreSQL cluster")
	}
	dbURL := testdb.URL(t)
	srv := startServer(t, dbURL)
	gm := srv.signup("gamemaster")
	g := srv.withUser(gm)
	ids := []string{g.importExample(), g.importExample()}
	for _, id := range ids {
		if code := g.do("POST", "/api/encounters/"+id+"/commands", map[string]any{"id": "start", "command": map[string]any{"kind": "start"}}, nil); code != 200 {
			t.Fatalf("start: %d", code)
		}
	}
	var camps []struct{ ID, Name string }
	g.do("GET", "/api/campaigns", nil, &camps)
	code, pic := srv.uploadPicture(gm, camps[0].ID, "noise.png", noisePicture(t, 300, 300, 7))
	if code != http.StatusCreated && code != http.StatusOK {
		t.Fatalf("upload: %d", code)
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	drivers := make([]*driver, len(ids))
	for i, id := range ids {
		drivers[i] = &driver{t: t, url: "ws" + strings.TrimPrefix(srv.URL, "http") + "/encounters/" + id + "/ws?view=1", token: gm.Token,
			name: fmt.Sprintf("e%d", i), stop: stop, acked: map[string]int64{}, refused: map[string]int{}, retried: map[string]int{}, firstAck: make(chan time.Time, 1)}
		wg.Add(1)
		go drivers[i].run(&wg)
	}
	for _, d := range drivers {
		select {
		case <-d.firstAck:
		case <-time.After(patience.Hang()):
			d.mu.Lock()
			t.Fatalf("%s got no ack:\n%s", d.name, strings.Join(d.log, "\n"))
		}
	}
	acked := func() []int64 {
		out := make([]int64, len(drivers))
		for i, d := range drivers {
			d.mu.Lock()
			for _, seq := range d.acked {
				out[i] = max(out[i], seq)
			}
			d.mu.Unlock()
		}
		return out
	}
	before := acked()
	file := filepath.Join(t.TempDir(), "fray.backup")
	out, err := runCmd(t, map[string]string{"DATABASE_URL": dbURL, "FRAY_LOG_LEVEL": "error"}, "backup", file)
	if err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	after := acked()
	close(stop)
	wg.Wait()
	t.Logf("acknowledged seqs before the backup %v, after it %v", before, after)

	dataDir := t.TempDir()
	if out, err := runCmd(t, map[string]string{"FRAY_DATA_DIR": dataDir, "FRAY_LOG_LEVEL": "error"}, "restore", file); err != nil || !strings.Contains(out, "restored") {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	if out, err := runCmd(t, map[string]string{"FRAY_DATA_DIR": dataDir, "FRAY_LOG_LEVEL": "error"}, "restore", file); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a second restore into the same data directory: %v\n%s", err, out)
	}
	restored := startServerEnv(t, "", map[string]string{"FRAY_DATA_DIR": dataDir})

	var got []struct{ ID, Name string }
	if code := restored.withUser(gm).do("GET", "/api/campaigns", nil, &got); code != http.StatusOK || fmt.Sprint(got) != fmt.Sprint(camps) {
		t.Errorf("campaigns: %d %v, want %v", code, got, camps)
	}
	for i, id := range ids {
		src, dst := srv.history(gm, id), restored.history(gm, id)
		if int64(len(dst.Events)) < before[i] || len(dst.Events) > len(src.Events) || len(dst.Heads) != len(dst.Events) {
			t.Errorf("%s: restored %d events and %d heads; %d acknowledged before the backup, %d at the source", id, len(dst.Events), len(dst.Heads), before[i], len(src.Events))
			continue
		}
		for j := range dst.Events {
			if !bytes.Equal(dst.Events[j], src.Events[j]) {
				t.Errorf("%s: event %d differs:\n%s\n%s", id, j+1, dst.Events[j], src.Events[j])
				break
			}
			if dst.Heads[j] != src.Heads[j] {
				t.Errorf("%s: chain head %d differs: %v, source %v", id, j+1, dst.Heads[j], src.Heads[j])
				break
			}
		}
	}
	for _, u := range []string{pic.URL, pic.Thumb} {
		a, b := fetch(t, srv.URL+u), fetch(t, restored.URL+u)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("picture %s: %d bytes at the source, %d restored", u, len(a), len(b))
		}
	}
}

func fetch(t *testing.T, u string) []byte {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil
	}
	return b
}

// A backup process killed with SIGKILL half-way leaves the server
// serving and committing, no pg_dump behind reading the database, and
// what it wrote so far is refused by restore with a message, before
// anything is made.
func TestBackupKilledMidwayIsRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a backup process")
	}
	dbURL := testdb.URL(t)
	srv := startServer(t, dbURL)
	gm := srv.signup("gamemaster")
	g := srv.withUser(gm)
	id := g.importExample()
	var camps []struct{ ID string }
	g.do("GET", "/api/campaigns", nil, &camps)
	for i := range 3 {
		if code, _ := srv.uploadPicture(gm, camps[0].ID, "noise.png", noisePicture(t, 400, 400, uint64(i))); code != http.StatusCreated && code != http.StatusOK {
			t.Fatalf("upload: %d", code)
		}
	}

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childServerEnv+"=1", childArgsEnv+`=["backup","-"]`, "DATABASE_URL="+dbURL, "FRAY_LOG_LEVEL=error")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Read the start of the backup; the child blocks on the full pipe
	// until it is killed.
	partial := make([]byte, 64<<10)
	if _, err := io.ReadFull(stdout, partial); err != nil {
		t.Fatalf("the backup's first bytes: %v", err)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if !bytes.HasPrefix(partial, []byte("FRAY BACKUP 1\n")) {
		t.Fatalf("the backup starts %.40q", partial)
	}
	file := filepath.Join(t.TempDir(), "partial.backup")
	if err := os.WriteFile(file, partial, 0o600); err != nil {
		t.Fatal(err)
	}

	// No pg_dump is left reading the database.
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	patience.Until(t, "pg_dump to go away", func() bool {
		var n int
		err := conn.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pg_dump'`).Scan(&n)
		return err == nil && n == 0
	})
	// The server goes on.
	if code := g.do("POST", "/api/encounters/"+id+"/commands", map[string]any{"id": "start", "command": map[string]any{"kind": "start"}}, nil); code != http.StatusOK {
		t.Errorf("a command after the killed backup: %d", code)
	}
	if code := srv.do("GET", "/healthz", nil, nil); code != http.StatusOK {
		t.Errorf("healthz: %d", code)
	}

	dataDir := filepath.Join(t.TempDir(), "restored")
	out, err := runCmd(t, map[string]string{"FRAY_DATA_DIR": dataDir}, "restore", file)
	if err == nil || !strings.Contains(err.Error(), "incomplete") || !strings.Contains(err.Error(), "refusing") {
		t.Errorf("restore of the partial backup: %v\n%s", err, out)
	}
	if entries, _ := os.ReadDir(dataDir); len(entries) != 0 {
		t.Errorf("the refused restore made %d files in the data directory", len(entries))
	}
}

// Scheduled backups: one every -backup-every into -backup-dir, of which
// the newest -backup-keep stay, each complete; bad settings are refused.
func TestScheduledBackupsKeepTheNewest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "backups")
	dbURL := testdb.URL(t)
	startServerEnv(t, dbURL, map[string]string{"FRAY_BACKUP_DIR": dir, "FRAY_BACKUP_EVERY": "1s", "FRAY_BACKUP_KEEP": "2"})
	var first string
	patience.Until(t, "a first backup", func() bool {
		if names := listBackups(dir); len(names) > 0 {
			first = names[0]
		}
		return first != ""
	})
	patience.Until(t, "the first backup to be dropped for newer ones", func() bool {
		names := listBackups(dir)
		return len(names) == 2 && !slices.Contains(names, first)
	})
	for _, n := range listBackups(dir) {
		b, err := backup.Open(filepath.Join(dir, n))
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		b.Close()
	}
	for _, bad := range []map[string]string{
		{"FRAY_BACKUP_DIR": dir, "FRAY_BACKUP_EVERY": "0s"},
		{"FRAY_BACKUP_DIR": dir, "FRAY_BACKUP_EVERY": "daily"},
		{"FRAY_BACKUP_DIR": dir, "FRAY_BACKUP_KEEP": "0"},
	} {
		if _, _, err := parseConfig("serve", nil, func(k string) string { return bad[k] }, io.Discard); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}
