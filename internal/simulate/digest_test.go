package simulate_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/simulate"
)

var updateDigests = flag.Bool("update-digests", false, "rewrite testdata/fights.digest from this build")

// digestFights is how many fights of each example the digest covers.
const digestFights = 8

// TestSameSeedSameFights: every example's first fights, seeded as a
// simulation seeded with 2026 seeds them, give the very event streams
// (every event's JSON, as stored) and results recorded in
// testdata/fights.digest. The digest was written by the build before the
// simulation's speed-ups: a change that makes fights cheaper must not
// change one die or one event. After a deliberate change of the rules or
// the tactics, rewrite it with
//
//	go test ./internal/simulate -run SameSeedSameFights -update-digests
func TestSameSeedSameFights(t *testing.T) {
	path := filepath.Join("testdata", "fights.digest")
	want := map[string]string{}
	if !*updateDigests {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		lines := bufio.NewScanner(f)
		for lines.Scan() {
			if name, sum, ok := strings.Cut(lines.Text(), " "); ok {
				want[name] = sum
			}
		}
	}
	var out strings.Builder
	for _, ex := range everyExample(t) {
		s, err := simulate.New(ex.rs, ex.setup, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range digestFights {
			f, events, err := s.Play(simulate.RunSeed(2026, i))
			if err != nil {
				t.Fatalf("%s fight %d: %v", ex.name, i, err)
			}
			h := sha256.New()
			for _, ev := range events {
				raw, err := json.Marshal(ev)
				if err != nil {
					t.Fatal(err)
				}
				h.Write(raw)
				h.Write([]byte{'\n'})
			}
			fmt.Fprintf(h, "%+v", f)
			name, sum := fmt.Sprintf("%s/%d", ex.name, i), hex.EncodeToString(h.Sum(nil))
			fmt.Fprintf(&out, "%s %s\n", name, sum)
			if !*updateDigests && want[name] != sum {
				t.Errorf("%s: %d events, %+v: digest %s, recorded %s", name, len(events), f, sum, want[name])
			}
		}
	}
	if *updateDigests {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if n := strings.Count(out.String(), "\n"); n != len(want) {
		t.Errorf("%d fights played, %d recorded", n, len(want))
	}
}
