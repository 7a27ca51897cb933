package rules_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
)

var updateProjections = flag.Bool("update-projections", false, "rewrite testdata/projections.sha256 from the projections of this build")

// TestProjectionsUnchanged holds every viewer's projection to what it was
// when testdata/projections.sha256 was written: for every example, along a
// bot-played fight of 80 commands, the JSON of what the GM, a GM with a
// player owning a character, a player with no character, each combatant's
// player and a player of every player character receive, hashed per
// example. Work that only makes projecting cheaper must leave every byte
// as it was; a change meant to alter what viewers receive rewrites the
// file (go test ./internal/rules -run ProjectionsUnchanged
// -update-projections) and says so in its commit.
func TestProjectionsUnchanged(t *testing.T) {
	path := filepath.Join("testdata", "projections.sha256")
	got := map[string]string{}
	var names []string
	for _, ex := range everyExample(t) {
		h := sha256.New()
		st := ex.State
		pick := rand.New(rand.NewPCG(1, 2))
		for step := 0; step < 80; step++ {
			viewers := []engine.Viewer{engine.GMViewer(), engine.PlayerViewer()}
			var pcs []string
			for _, c := range st.Core().Combatants {
				viewers = append(viewers, engine.PlayerViewer(c.ID))
				if c.PC {
					pcs = append(pcs, c.ID)
				}
			}
			if len(pcs) > 0 {
				viewers = append(viewers, engine.PlayerViewer(pcs...), engine.Viewer{GM: true, Players: map[string]string{pcs[0]: "sam"}})
			}
			for _, v := range viewers {
				raw, err := json.Marshal(engine.Project(ex.Ruleset, st, v))
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(h, "%d %s %d\n", step, v.Key(), len(raw))
				h.Write(raw)
			}
			cmd, ok := botCommand(ex.Ruleset, st, pick)
			if !ok {
				break
			}
			if _, next, err := engine.Decide(ex.Ruleset, st, engine.GMViewer(), "c", cmd, dice.NewRoller(dice.NewSeeded(pick.Uint64()))); err == nil {
				st = next
			}
		}
		got[ex.Name] = hex.EncodeToString(h.Sum(nil))
		names = append(names, ex.Name)
	}
	if *updateProjections {
		var b strings.Builder
		for _, name := range names {
			fmt.Fprintf(&b, "%s  %s\n", got[name], name)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if hash, name, ok := strings.Cut(sc.Text(), "  "); ok {
			want[name] = hash
		}
	}
	for _, name := range names {
		switch {
		case want[name] == "":
			t.Errorf("%s: no hash in %s (-update-projections)", name, path)
		case want[name] != got[name]:
			t.Errorf("%s: its viewers' projections changed (if meant: -update-projections)", name)
		}
	}
}
