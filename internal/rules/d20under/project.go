package d20under

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// trapKnown reports whether v knows where t lies: the GM always, a player
// when a side of theirs set or found it.
func (s *State) trapKnown(t Trap, v engine.Viewer) bool {
	if v.GM {
		return true
	}
	for _, id := range v.Controls {
		if c := s.Combatant(id); c != nil && t.known(c.Side) {
			return true
		}
	}
	return false
}

// healthShown reports whether v sees id's Toughness: the GM, its player,
// and everyone for a player character.
func (s *State) healthShown(id string, full bool) bool { return full || s.pc(id) }

// sheet is what the GM and a fighter's own player read of it besides the
// token: attributes, corruption and experience, armour, weapons with their
// ammunition, abilities, traits, powers and items, what its turn has left
// and the plan it declared. What comes from the Sheet alone never changes
// once the fighter is made: it is built the first time it is shown and
// kept (card, an engine.Memo) for every later view of the fighter and of
// every later copy of the state. Views share the card's sections: nothing
// may change a token's Sheet in place.
func (s *State) sheet(f *Fighter) []board.Section {
	c := f.card()
	body := []board.Stat{
		{Label: "Corruption", Value: fmt.Sprintf("%d+%d / %d", f.Permanent, f.Temporary, f.CorruptionThreshold())},
		{Label: "Experience", Value: strconv.Itoa(f.XP), Note: strconv.Itoa(f.XPSpent) + " spent this fight"},
		{Label: "Armour", Value: c.armour},
	}
	if f.ShieldUp {
		body = append(body, board.Stat{Label: "Shield", Value: f.Shield})
	}
	if s.Current() == f.ID {
		turn := strconv.Itoa(f.Moves) + " movement"
		if f.Combat {
			turn = "a combat action, " + turn
		}
		body = append(body, board.Stat{Label: "Left this turn", Value: turn})
	}
	if f.Plan != "" {
		body = append(body, board.Stat{Label: "Plan", Value: f.Plan})
	}
	ws := make([]board.Stat, 0, len(c.weapons))
	for _, wp := range c.weapons {
		st := wp.stat
		switch {
		case wp.ammo:
			st.Note += ", ammunition " + strconv.Itoa(f.Ammo[wp.id]) + "/3"
			if n := f.Special[wp.id]; n > 0 {
				st.Note += ", " + strconv.Itoa(n) + " special"
			}
		case wp.units:
			st.Note += ", " + strconv.Itoa(f.Units[wp.id]) + " left"
		}
		ws = append(ws, st)
	}
	out := make([]board.Section, 0, 4+len(c.listed))
	out = append(out, board.Section{Title: "Attributes", Stats: c.attributes}, board.Section{Title: "Condition", Stats: body}, board.Section{Title: "Weapons", Stats: ws})
	out = append(out, c.listed...)
	out = appendListed(out, "Items", f.Items, strconv.Itoa)
	return out
}

// card is what sheet shows of the Sheet alone.
type card struct {
	attributes []board.Stat
	armour     string
	weapons    []cardWeapon
	listed     []board.Section // abilities, traits, powers
}

// cardWeapon is a weapon's line before its ammunition or units left.
type cardWeapon struct {
	id          string
	stat        board.Stat
	ammo, units bool
}

// card returns f's card, building it the first time. Readers of one state
// may project it at once: the memo keeps the first card built, and two
// that build it together build the same.
func (f *Fighter) card() *card {
	if c := f.shown.Load(); c != nil {
		return c
	}
	return f.shown.Keep(newCard(&f.Sheet))
}

func newCard(sh *Sheet) *card {
	c := &card{armour: armourWords(sh.Armour)}
	c.attributes = make([]board.Stat, 0, len(sh.Attributes))
	for _, a := range slices.Sorted(maps.Keys(sh.Attributes)) {
		c.attributes = append(c.attributes, board.Stat{Label: label(a), Value: fmt.Sprint(sh.Attributes[a])})
	}
	for _, wp := range sh.Weapons {
		k := wp.kind()
		c.weapons = append(c.weapons, cardWeapon{id: wp.ID, stat: board.Stat{Label: wp.Name, Value: wp.DamageText(), Note: label(wp.Type)},
			ammo: k.Ammo, units: !k.Ammo && k.Units})
	}
	c.listed = appendListed(nil, "Abilities", sh.Abilities, label)
	c.listed = appendListed(c.listed, "Traits", sh.Traits, strconv.Itoa)
	if len(sh.Powers) > 0 {
		var stats []board.Stat
		for _, p := range sh.Powers {
			stats = append(stats, board.Stat{Label: label(p), Value: "known"})
		}
		c.listed = append(c.listed, board.Section{Title: "Powers", Stats: stats})
	}
	c.listed = slices.Clip(c.listed)
	return c
}

// appendListed appends a section listing m by its sorted keys, each valued
// by value; nothing when m is empty.
func appendListed[V any](out []board.Section, title string, m map[string]V, value func(V) string) []board.Section {
	if len(m) == 0 {
		return out
	}
	stats := make([]board.Stat, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		stats = append(stats, board.Stat{Label: label(k), Value: value(m[k])})
	}
	return append(out, board.Section{Title: title, Stats: stats})
}

func armourWords(a Armour) string {
	if a.Die == 0 {
		return "none"
	}
	name := a.Name
	if name == "" {
		name = label(a.Type)
	}
	s := fmt.Sprintf("%s 1d%d, Impeding %d", name, a.Die, a.Impeding)
	if len(a.Segments) > 0 {
		s += " (" + strings.Join(a.Segments, ", ") + ")"
	}
	return s
}

// conditions are a fighter's conditions as the board shows them.
func (s *State) conditions(f *Fighter) []board.Condition {
	var out []board.Condition
	add := func(id, lbl, icon, text string) {
		out = append(out, board.Condition{ID: id, Label: lbl, Icon: icons[icon], Text: text})
	}
	if f.Dying {
		add("dying", fmt.Sprintf("Dying (%d/3 failed)", f.DeathFails), "dying", "A death test each turn: ≤ 10 passes, the third failure kills.")
	}
	if f.Unconscious > 0 {
		add("unconscious", fmt.Sprintf("Unconscious (%d)", f.Unconscious), "unconscious", "Loses its turns.")
	}
	if f.Prone {
		add("prone", "Prone", "prone", "Enemies engaged with it have an Advantage.")
	}
	if f.Critical {
		add("critical", "Critical Damage", "wounded", "A second chance to fail every test until healed.")
	}
	if f.Blinded {
		add("blinded", "Blinded", "blinded", "A second chance to fail its tests, unless its foe is blinded too.")
	}
	if f.Roused {
		add("roused", "Roused (Koj)", "roused", "May use Adept or Master Rapid Fire after a Quick test.")
	}
	if f.Hasty {
		add("hasty", "Took the initiative", "running", "A second chance to fail every test this round.")
	}
	if f.FullDefence {
		add("full-defence", "Full Defence", "defending", "A second chance on defence; no attacks.")
	}
	if f.FullOffense {
		add("full-offense", "Full Offense", "offense", "A second chance on melee attacks, a second chance to fail defences.")
	}
	if f.HeldBy != "" {
		add("held", "Held by "+s.PublicNameOf(f.HeldBy), "held", "Cannot move.")
	}
	if f.Holding != "" {
		add("holding", "Holding "+s.PublicNameOf(f.Holding), "hold", "Does nothing else.")
	}
	if f.Caught != "" {
		add("caught", "Caught in a trap", "immobile", "Cannot move until it breaks free (Strong).")
	}
	if f.Lame {
		add("lame", "Wounded leg", "limb", "Half movement for the scene.")
	}
	if f.ArmRight || f.ArmLeft {
		add("arm", "Wounded arm", "limb", "A second chance to fail the arm's rolls.")
	}
	if f.Winded > 0 {
		add("winded", "Winded", "stunned", "Loses its next turn.")
	}
	if f.PoisonTurns > 0 {
		add("poisoned", fmt.Sprintf("Poisoned (%d)", f.PoisonTurns), "poisoned", fmt.Sprintf("1d%d damage at the start of its turns.", f.PoisonDie))
	}
	if f.CursedBy != "" {
		add("cursed", "Cursed", "cursed", "A second chance to fail every test.")
	}
	if f.Terrified {
		add("terrified", "Terrified", "shaken", "No combat action next turn.")
	}
	if f.Fearless {
		add("fearless", "Fearless", "fearless", "Horror has no hold on it this scene.")
	}
	if !f.Drawn && !f.weapon().kind().Natural && f.Wielded != unarmedWeapon.ID {
		add("undrawn", "Weapon not drawn", "disarmed", "Drawing takes a movement action (Short weapons: free).")
	}
	if f.QuickStrike {
		add("quick-strike", "Quick Strike", "quick", "Acts first this round.")
	}
	if len(f.Cowed) > 0 {
		var heroes []string
		for h := range f.Cowed {
			heroes = append(heroes, s.PublicNameOf(h))
		}
		slices.Sort(heroes)
		add("cowed", "Will not attack "+strings.Join(heroes, ", "), "cowed", "Steely Gaze.")
	}
	return out
}

// project is d20-under's one projection, what v sees: the grid with its
// walls, rough ground, the traps v knows of and everyone's square, or the
// distance categories between the sides with the melees. Everyone sees
// what shows at the table (conditions, the weapon in hand, a player
// character's Toughness); the GM and a fighter's own player also its
// sheet.
func project(st *State, v engine.Viewer) *board.Board {
	b := &board.Board{Model: st.Model, Tokens: engine.Tokens(st, v)}
	for i := range b.Tokens {
		t := &b.Tokens[i]
		f := st.Fighters[t.ID]
		full := v.CanCommand(t.ID)
		if st.healthShown(t.ID, full) {
			t.Health = &board.Meter{Label: "Toughness", Value: f.Toughness, Max: f.MaxToughness, Low: true,
				Text: fmt.Sprintf("Toughness %d of %d", f.Toughness, f.MaxToughness)}
		}
		t.Conditions = st.conditions(f)
		t.Stats = append(t.Stats, board.Stat{Label: "Weapon", Value: f.weapon().Name})
		if full {
			t.Stats = append(t.Stats, board.Stat{Label: "Defense", Value: fmt.Sprint(f.defense())},
				board.Stat{Label: "Pain Threshold", Value: painWords(f.PainThreshold)})
			t.Sheet = st.sheet(f)
		}
	}
	if st.Model == board.Grid {
		g := &board.GridMap{Width: st.Grid.Width, Height: st.Grid.Height, Scale: "2 m"}
		for _, c := range st.Grid.Cells {
			cell := board.Cell{X: c.X, Y: c.Y, Label: c.Label}
			switch c.Terrain {
			case TerrainWall:
				cell.Blocks, cell.Shade, cell.Features = true, 3, []string{"Wall"}
			case TerrainDifficult:
				cell.Shade, cell.Features = 1, []string{"Difficult ground: 2 squares"}
			}
			g.Cells = append(g.Cells, cell)
		}
		for _, t := range st.Traps {
			if !st.trapKnown(t, v) {
				continue
			}
			i := slices.IndexFunc(g.Cells, func(c board.Cell) bool { return c.X == t.X && c.Y == t.Y })
			if i < 0 {
				g.Cells = append(g.Cells, board.Cell{X: t.X, Y: t.Y})
				i = len(g.Cells) - 1
			}
			g.Cells[i].Features = append(g.Cells[i].Features, "Trap: "+t.name())
			if g.Cells[i].Label == "" {
				g.Cells[i].Label = "Trap"
			}
		}
		for _, t := range b.Tokens {
			f := st.Fighters[t.ID]
			g.Places = append(g.Places, board.Placed{Token: t.ID, X: f.X, Y: f.Y})
		}
		b.Grid = g
		return b
	}
	l := &board.LadderMap{}
	for _, r := range rungs {
		l.Rungs = append(l.Rungs, board.Rung{Name: r.Name, Help: r.Help})
	}
	for _, gp := range st.Ladder.Gaps {
		note := fmt.Sprintf("%s to engage", movesWords(gp.Moves))
		var ahead []string
		for _, t := range b.Tokens {
			f := st.Fighters[t.ID]
			other := ""
			switch t.Side {
			case gp.A:
				other = gp.B
			case gp.B:
				other = gp.A
			}
			if n := f.Ahead[other]; other != "" && n != 0 && !t.Out {
				if n > 0 {
					ahead = append(ahead, fmt.Sprintf("%s %s ahead", t.Name, movesWords(n)))
				} else {
					ahead = append(ahead, fmt.Sprintf("%s %s back", t.Name, movesWords(-n)))
				}
			}
		}
		if len(ahead) > 0 {
			note += "; " + strings.Join(ahead, ", ")
		}
		l.Gaps = append(l.Gaps, board.SideGap{A: gp.A, B: gp.B, Rung: rungOf(gp.Moves), Note: note})
	}
	for _, p := range st.Melee {
		if engine.Visible(st, v, p.A) && engine.Visible(st, v, p.B) {
			l.Engaged = append(l.Engaged, board.Engagement{A: p.A, B: p.B, Distance: "melee"})
		}
	}
	b.Ladder = l
	for _, t := range st.Traps {
		if st.trapKnown(t, v) {
			b.Notes = append(b.Notes, fmt.Sprintf("A %s lies before %s's line", t.name(), st.sideName(t.Side)))
		}
	}
	return b
}

func painWords(pt int) string {
	if pt == 0 {
		return "none"
	}
	return fmt.Sprint(pt)
}

// editor is the battlefield editor: a 2 m grid (the default) or distance
// categories, chosen per encounter.
var editor = func() board.Editor {
	var distances []string
	for _, r := range rungs {
		distances = append(distances, r.Name)
	}
	// A map's path of n metres takes ⌈n/10⌉ moves (a move is 5 squares of
	// 2 m), which rungOf names; Close is the seed's 1–2 m. Beyond the
	// last reach: Extreme.
	reaches := []board.Reach{{Distance: rungs[0].Name, Metres: 2}}
	for i := 1; i < len(rungs)-1; i++ {
		reaches = append(reaches, board.Reach{Distance: rungs[i].Name, Metres: float64((rungs[i+1].Moves - 1) * SquaresPerMove * 2)})
	}
	return board.Editor{
		Model:  board.Grid,
		Wall:   board.Props{"terrain": TerrainWall},
		Models: []board.Option{{Value: board.Grid, Label: "2 m squares"}, {Value: board.Ladder, Label: "Distance categories"}},
		Area: []board.Field{
			{Name: "terrain", Label: "Terrain", Type: board.FieldSelect, Default: "open", Options: []board.Option{
				{Value: "open", Label: "Open"}, {Value: TerrainDifficult, Label: "Difficult (2 squares)"}, {Value: TerrainWall, Label: "Wall"}}},
			{Name: "label", Label: "Label", Type: board.FieldText},
		},
		Start: []board.Field{
			{Name: "drawn", Label: "Weapon drawn", Type: board.FieldBool, Default: "true"},
			{Name: "weapon", Label: "Weapon in hand (id)", Type: board.FieldText, Help: "Empty: the first weapon on the sheet."},
			{Name: "prone", Label: "Prone", Type: board.FieldBool},
			{Name: "ahead", Label: "Moves ahead of its side (distance categories)", Type: board.FieldInt, Min: 0, Max: 10},
		},
		MaxWidth: MaxGrid, MaxHeight: MaxGrid, Scale: "2 m",
		Distances: distances,
		Reaches:   reaches,
	}
}()
