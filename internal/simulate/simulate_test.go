package simulate_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/examples"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/simulate"
)

// example is a shipped example encounter ready to simulate.
type example struct {
	name  string
	rs    engine.Ruleset
	setup engine.Setup
}

func everyExample(t testing.TB) []example {
	t.Helper()
	reg := rules.Registry()
	exs, err := examples.All()
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	for _, ex := range exs {
		setup, err := engine.DecodeSetup(ex.Data)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := reg.Get(setup.Ruleset)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, example{ex.Name, rs, setup})
	}
	return out
}

// TestEveryExampleIsPlayedToTheEnd simulates every shipped example with
// its ruleset's tactics: every fight ends (no policy goes round in
// circles), and the counts add up.
func TestEveryExampleIsPlayedToTheEnd(t *testing.T) {
	for _, ex := range everyExample(t) {
		t.Run(ex.name, func(t *testing.T) {
			r, err := simulate.Run(context.Background(), ex.rs, ex.setup, simulate.Options{Runs: 10, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := ex.rs.(engine.Tactician); !ok || r.Policy != "the ruleset's tactics" {
				t.Errorf("%s is played by %s", ex.rs.ID(), r.Policy)
			}
			if r.Runs != 10 || r.Asked != 10 || r.Stopped != "" {
				t.Errorf("played %d of %d (%q)", r.Runs, r.Asked, r.Stopped)
			}
			wins := 0
			for _, s := range r.Sides {
				wins += s.Wins
			}
			if wins+r.Undecided != r.Runs {
				t.Errorf("%d wins and %d undecided in %d fights", wins, r.Undecided, r.Runs)
			}
			if r.Undecided > 2 {
				t.Errorf("%d of 10 fights undecided after %d rounds", r.Undecided, r.MaxRounds)
			}
			if len(r.Combatants) != len(ex.setup.Combatants) || r.Rounds < 1 {
				t.Errorf("result: %+v", r)
			}
		})
	}
}

// TestSameSeedSameOdds: a seed gives the same result every time, another
// seed another one, and the first fights of a longer simulation are those
// of a shorter one.
func TestSameSeedSameOdds(t *testing.T) {
	for _, ex := range everyExample(t) {
		if !strings.HasSuffix(ex.name, "-dusty-gulch") && !strings.HasSuffix(ex.name, "-crypt") &&
			!strings.HasSuffix(ex.name, "-alley-brawl") && !strings.HasSuffix(ex.name, "-harrow-ridge") && !strings.HasSuffix(ex.name, "-old-bridge") {
			continue
		}
		t.Run(ex.name, func(t *testing.T) {
			s, err := simulate.New(ex.rs, ex.setup, 0)
			if err != nil {
				t.Fatal(err)
			}
			var first []simulate.Fight
			for i := range 6 {
				f, err := s.Fight(simulate.RunSeed(42, i))
				if err != nil {
					t.Fatal(err)
				}
				first = append(first, f)
			}
			again, err := simulate.New(ex.rs, ex.setup, 0)
			if err != nil {
				t.Fatal(err)
			}
			differs := false
			for i, want := range first {
				got, err := again.Fight(simulate.RunSeed(42, i))
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("fight %d: %+v, then %+v", i, want, got)
				}
				other, err := again.Fight(simulate.RunSeed(43, i))
				if err != nil {
					t.Fatal(err)
				}
				differs = differs || !reflect.DeepEqual(other, want)
			}
			if !differs {
				t.Error("seed 43 plays the very fights of seed 42")
			}
			a, err := simulate.Run(context.Background(), ex.rs, ex.setup, simulate.Options{Runs: 6, Seed: 42})
			if err != nil {
				t.Fatal(err)
			}
			b, err := simulate.Run(context.Background(), ex.rs, ex.setup, simulate.Options{Runs: 6, Seed: 42})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("two runs with seed 42:\n%+v\n%+v", a, b)
			}
		})
	}
}

// lopsided builds, in each ruleset, five veterans against one goblin on a
// small open battlefield.
var lopsided = map[string]struct {
	battlefield, veteran, goblin string
	start                        func(i int, goblin bool) string
}{
	// kit-skirmish's fighters have no sheet and no place: five against
	// one is the whole of the difference.
	"kit-skirmish": {battlefield: `null`, veteran: `null`, goblin: `null`, start: func(int, bool) string { return "" }},
	"sw-zones": {
		battlefield: `{"zones": [{"id": "yard", "name": "Yard", "adjacent": ["lane"]}, {"id": "lane", "name": "Lane", "adjacent": ["yard"]}]}`,
		veteran: `{"wildCard": true, "attributes": {"agility": "d8", "smarts": "d6", "spirit": "d8", "strength": "d8", "vigor": "d8"},
			"skills": {"fighting": "d10", "notice": "d6"}, "armor": 2, "weapons": [{"id": "sword", "name": "Sword", "damage": "Str+d8"}]}`,
		goblin: `{"attributes": {"agility": "d6", "smarts": "d4", "spirit": "d4", "strength": "d4", "vigor": "d4"},
			"skills": {"fighting": "d4"}, "weapons": [{"id": "knife", "name": "Knife", "damage": "Str+d4"}]}`,
		start: func(i int, goblin bool) string {
			if goblin {
				return `{"zone": "lane"}`
			}
			return `{"zone": "yard"}`
		},
	},
	"d6-bands": {
		battlefield: `{"width": 4, "height": 4}`,
		veteran: `{"skills": {"melee": 15, "athletics": 12, "perception": 12, "willpower": 13}, "toughness": 12, "armor": 2, "defense": 3,
			"initiative": 12, "weapons": [{"name": "Sword", "skill": "melee", "damage": "3D+1"}]}`,
		goblin: `{"skills": {"melee": 8}, "toughness": 6, "defense": 1, "initiative": 8, "weapons": [{"name": "Knife", "skill": "melee", "damage": "1D+1"}]}`,
		start: func(i int, goblin bool) string {
			if goblin {
				return `{"x": 2, "y": 2}`
			}
			return fmt.Sprintf(`{"x": %d, "y": 0}`, i%4)
		},
	},
	"d20-under": {
		battlefield: `{"model": "grid", "width": 8, "height": 6}`,
		veteran: `{"attributes": {"accurate": 14, "cunning": 10, "discreet": 7, "persuasive": 7, "quick": 13, "resolute": 10, "strong": 13, "vigilant": 6},
			"armour": {"type": "medium"}, "weapons": [{"id": "sword", "name": "Sword", "type": "one-handed"}]}`,
		goblin: `{"attributes": {"accurate": 7, "cunning": 8, "discreet": 12, "persuasive": 5, "quick": 9, "resolute": 5, "strong": 5, "vigilant": 8},
			"weapons": [{"id": "knife", "name": "Knife", "type": "short"}]}`,
		start: func(i int, goblin bool) string {
			if goblin {
				return `{"x": 6, "y": 3}`
			}
			return fmt.Sprintf(`{"x": 1, "y": %d}`, i)
		},
	},
	"d20-duel": {
		battlefield: `{"pairs": []}`,
		veteran: `{"attributes": {"strength": 14, "agility": 13, "endurance": 14, "perception": 12}, "closeCombat": 3, "damageMod": 2,
			"armor": {"name": "Mail", "coverage": 12, "protection": 2},
			"weapons": [{"id": "sword", "name": "Sword", "strike": 12, "guard": 6, "grapple": 8, "defense": 5, "damage": 4}]}`,
		goblin: `{"attributes": {"strength": 8, "agility": 11, "endurance": 8}, "weapons": [{"id": "knife", "name": "Knife", "strike": 8, "guard": 3, "grapple": 6, "defense": 3, "damage": 2}]}`,
		start:  func(int, bool) string { return "" },
	},
	"d20-tactical": {
		battlefield: `{"width": 10, "height": 6}`,
		veteran: `{"abilities": {"str": 16, "dex": 14, "con": 14}, "bab": 4, "hp": 30, "classDefense": 3, "lifePoints": 2,
			"weapons": [{"id": "sword", "name": "Sword", "damage": "1d8"}]}`,
		goblin: `{"abilities": {"str": 8, "dex": 12}, "bab": 0, "hp": 5, "weapons": [{"id": "knife", "name": "Knife", "damage": "1d4"}]}`,
		start: func(i int, goblin bool) string {
			if goblin {
				return `{"x": 7, "y": 3}`
			}
			return fmt.Sprintf(`{"x": 1, "y": %d}`, i)
		},
	},
}

func lopsidedSetup(t *testing.T, rs engine.Ruleset) engine.Setup {
	t.Helper()
	l, ok := lopsided[rs.ID()]
	if !ok {
		t.Fatalf("no lopsided fight for %s", rs.ID())
	}
	type combatant struct {
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Side  string          `json:"side"`
		Stats json.RawMessage `json:"stats"`
		Start json.RawMessage `json:"start,omitempty"`
	}
	doc := map[string]any{
		"name": "Five veterans and a goblin", "ruleset": rs.ID(),
		"sides":       []engine.Side{{ID: "veterans", Name: "Veterans"}, {ID: "goblin", Name: "Goblin"}},
		"battlefield": json.RawMessage(l.battlefield),
	}
	var cs []combatant
	for i := range 5 {
		c := combatant{ID: fmt.Sprintf("veteran-%d", i+1), Name: fmt.Sprintf("Veteran %d", i+1), Side: "veterans", Stats: json.RawMessage(l.veteran)}
		if s := l.start(i, false); s != "" {
			c.Start = json.RawMessage(s)
		}
		cs = append(cs, c)
	}
	g := combatant{ID: "goblin", Name: "Goblin", Side: "goblin", Stats: json.RawMessage(l.goblin)}
	if s := l.start(0, true); s != "" {
		g.Start = json.RawMessage(s)
	}
	doc["combatants"] = append(cs, g)
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	setup, err := engine.DecodeSetup(raw)
	if err != nil {
		t.Fatal(err)
	}
	return setup
}

// TestFiveVeteransBeatAGoblin: in every ruleset, five veterans against
// one goblin win more than 95 % of 200 fights — and the goblin falls in
// every fight they win.
func TestFiveVeteransBeatAGoblin(t *testing.T) {
	for _, rs := range rules.Registry().All() {
		t.Run(rs.ID(), func(t *testing.T) {
			r, err := simulate.Run(context.Background(), rs, lopsidedSetup(t, rs), simulate.Options{Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			if r.Runs != simulate.DefaultRuns {
				t.Fatalf("%d fights", r.Runs)
			}
			vets := r.Sides[0]
			if vets.ID != "veterans" || vets.Rate <= 0.95 {
				t.Errorf("the veterans win %d of %d (%.0f %%)", vets.Wins, r.Runs, 100*vets.Rate)
			}
			goblin := r.Combatants[len(r.Combatants)-1]
			if goblin.ID != "goblin" || goblin.Fell < vets.Wins {
				t.Errorf("the goblin fell in %d fights, the veterans won %d", goblin.Fell, vets.Wins)
			}
			t.Logf("veterans %d of %d, [%.3f, %.3f], %.1f rounds", vets.Wins, r.Runs, vets.Low, vets.High, vets.Rounds)
		})
	}
}

// TestGenericPolicy: a ruleset with no tactics of its own (the engine's
// toy ruleset) is played by the generic policy to the end of every fight,
// attacking rather than ending its turns.
func TestGenericPolicy(t *testing.T) {
	rs := enginetest.Toy{}
	if _, ok := any(rs).(engine.Tactician); ok {
		t.Fatal("the toy ruleset has tactics")
	}
	r, err := simulate.Run(context.Background(), rs, enginetest.Setup(), simulate.Options{Runs: 50, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Policy != "the generic policy" || r.Undecided != 0 || r.Runs != 50 {
		t.Fatalf("%+v", r)
	}
	s, err := simulate.New(rs, enginetest.Setup(), 0)
	if err != nil {
		t.Fatal(err)
	}
	f, err := s.Fight(1)
	if err != nil {
		t.Fatal(err)
	}
	// Two hit points each, a hit on 4+: ending turns instead of hitting
	// would take far more rounds.
	if f.Winner == "" || f.Rounds > 10 || len(f.Fell) == 0 {
		t.Errorf("%+v", f)
	}
}

// TestCancelled: cancelling stops a simulation between fights with what
// was played; bad options change nothing.
func TestCancelled(t *testing.T) {
	ex := everyExample(t)[0]
	ctx, cancel := context.WithCancel(context.Background())
	done := 0
	r, err := simulate.Run(ctx, ex.rs, ex.setup, simulate.Options{Runs: 50, Progress: func(n, runs int) {
		if done = n; n == 3 {
			cancel()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Runs != 3 || r.Asked != 50 || r.Stopped != "cancelled" || done != 3 {
		t.Errorf("%d of %d, %q", r.Runs, r.Asked, r.Stopped)
	}
	ctx, stop := context.WithCancelCause(context.Background())
	stop(simulate.ErrOverBudget)
	if r, err := simulate.Run(ctx, ex.rs, ex.setup, simulate.Options{Runs: 5}); err != nil || r.Runs != 0 || r.Stopped != "out of time" {
		t.Errorf("%+v, %v", r, err)
	}
	for _, runs := range []int{-1, simulate.MaxRuns + 1} {
		if _, err := simulate.Run(context.Background(), ex.rs, ex.setup, simulate.Options{Runs: runs}); fray.ErrorCode(err) != fray.EINVALID {
			t.Errorf("%d runs: %v", runs, err)
		}
	}
	bad := ex.setup
	bad.Sides = bad.Sides[:1]
	if _, err := simulate.Run(context.Background(), ex.rs, bad, simulate.Options{}); fray.ErrorCode(err) != fray.EINVALID {
		t.Errorf("one side: %v", err)
	}
}

// TestWilson checks the interval against values worked out by hand and
// its bounds.
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n      int
		low, high float64
	}{
		{0, 0, 0, 1},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{5, 10, 0.2366, 0.7634},
		{100, 200, 0.4314, 0.5686},
		{196, 200, 0.9497, 0.9922},
	} {
		low, high := simulate.Wilson(c.k, c.n)
		if math.Abs(low-c.low) > 5e-4 || math.Abs(high-c.high) > 5e-4 {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", c.k, c.n, low, high, c.low, c.high)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []int
		want float64
	}{{nil, 0}, {[]int{4}, 4}, {[]int{9, 1, 5}, 5}, {[]int{8, 2, 4, 6}, 5}} {
		if got := simulate.Median(c.xs); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

// panicky is the toy ruleset with tactics that panic.
type panicky struct{ enginetest.Toy }

func (panicky) Tactic(engine.State, *engine.Offer) (engine.Command, bool) { panic("no plan") }

// TestPanicFailsTheFight: a panic in a ruleset's tactics is an error of
// the simulation, not a crash of the server running it.
func TestPanicFailsTheFight(t *testing.T) {
	_, err := simulate.Run(context.Background(), panicky{}, enginetest.Setup(), simulate.Options{Runs: 3})
	if err == nil || !strings.Contains(err.Error(), "no plan") {
		t.Fatalf("%v", err)
	}
}
