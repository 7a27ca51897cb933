package rules_test

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/simulate"
	"github.com/fray-vtt/fray/internal/statblock"
)

// blockCase is a stat block as a book prints it (or as a PDF copy
// mangles it) and what reading it must give.
type blockCase struct {
	name string
	text string
	// wantName is the name read; want every form value, exactly.
	wantName string
	want     map[string]string
	// unknown are the lines reported as not understood; assumed the
	// fields filled with an assumed value.
	unknown []int
	assumed []string
}

// checkBlocks reads each case with ruleset id's book format, compares
// the result, saves it through the ruleset's form as the editor would,
// and plays the monster in the shipped example as combatant foe: the
// ruleset accepts it and the fight ends without an error.
func checkBlocks(t *testing.T, id, example, foe string, cases []blockCase) {
	t.Helper()
	rs, err := rules.Registry().Get(id)
	if err != nil {
		t.Fatal(err)
	}
	format := rs.(statblock.Parser).StatBlockFormat()
	schema := rs.(sheet.Schemaer).Schema()
	setup := exampleSetup(t, example)
	if len(cases) < 10 {
		t.Errorf("%s: %d stat blocks; the book's format deserves ten at least", id, len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := statblock.Parse(c.text, format)
			if err != nil {
				t.Fatal(err)
			}
			if r.Name != c.wantName {
				t.Errorf("name %q, want %q", r.Name, c.wantName)
			}
			got := map[string]string{}
			for k := range r.Values {
				got[k] = r.Values.Get(k)
			}
			if !maps.Equal(got, c.want) {
				for _, k := range slices.Sorted(maps.Keys(got)) {
					if w, ok := c.want[k]; !ok || w != got[k] {
						t.Errorf("%s = %q, want %q (present %v)", k, got[k], w, ok)
					}
				}
				for k, w := range c.want {
					if _, ok := got[k]; !ok {
						t.Errorf("%s missing, want %q", k, w)
					}
				}
			}
			var unknown []int
			for _, n := range r.Unknown {
				unknown = append(unknown, n.Line)
			}
			if !slices.Equal(unknown, c.unknown) {
				t.Errorf("unknown lines %v, want %v: %+v", unknown, c.unknown, r.Unknown)
			}
			var assumed []string
			for _, n := range r.Assumed {
				assumed = append(assumed, n.Field)
			}
			slices.Sort(assumed)
			want := slices.Sorted(slices.Values(c.assumed))
			if !slices.Equal(assumed, want) {
				t.Errorf("assumed %v, want %v", assumed, want)
			}
			stats, err := schema.ParseForm(r.Values)
			if err != nil {
				t.Fatalf("the form refuses the values read: %v", err)
			}
			if d, ok := rs.(sheet.Deriver); ok {
				if _, err := d.Derive(stats); err != nil {
					t.Fatalf("the ruleset refuses the block: %v", err)
				}
			}
			fight := setup
			fight.Combatants = slices.Clone(setup.Combatants)
			found := false
			for i := range fight.Combatants {
				if fight.Combatants[i].ID == foe {
					fight.Combatants[i].Stats, fight.Combatants[i].Name, found = stats, r.Name, true
				}
			}
			if !found {
				t.Fatalf("no combatant %s in %s", foe, example)
			}
			res, err := simulate.Run(context.Background(), rs, fight, simulate.Options{Runs: 3, Seed: 7})
			if err != nil {
				t.Fatalf("the parsed monster does not play: %v", err)
			}
			if res.Runs != 3 {
				t.Errorf("%d fights played, want 3", res.Runs)
			}
		})
	}
}

func exampleSetup(t *testing.T, name string) engine.Setup {
	t.Helper()
	exs, err := examples.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range exs {
		if ex.Name == name {
			s, err := engine.DecodeSetup(ex.Data)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}
	t.Fatalf("no example %s", name)
	return engine.Setup{}
}

// TestEveryBookFormatIsReadable: a ruleset that declares a book format
// has tests of it (this file's tables), and its entries read something
// or say why not.
func TestEveryBookFormatIsReadable(t *testing.T) {
	tested := []string{"sw-zones", "d20-under", "d20-tactical"}
	for _, rs := range rules.Registry().All() {
		p, ok := rs.(statblock.Parser)
		if !ok {
			continue
		}
		if !slices.Contains(tested, rs.ID()) {
			t.Errorf("%s declares a stat block format with no table of blocks here", rs.ID())
		}
		for _, e := range p.StatBlockFormat().Entries {
			if e.Read == nil && e.Skip == "" {
				t.Errorf("%s: entry %v neither reads nor says why not", rs.ID(), e.Labels)
			}
		}
	}
}
