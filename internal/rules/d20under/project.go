package d20under

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// View is the d20-under part of an engine.View.
type View struct {
	Model string `json:"model"`
	// Phase is "declare" before the first round, "surprise" during the
	// ambush.
	Phase string `json:"phase,omitempty"`
	// Initiative is the fixed order, as the viewer may see it.
	Initiative []string               `json:"initiative"`
	Fighters   map[string]FighterView `json:"fighters"`
	// Melee lists the engagements on the distance categories.
	Melee []Pair `json:"melee,omitempty"`
	// Traps are the traps the viewer knows of.
	Traps []TrapView `json:"traps,omitempty"`
}

// TrapView is a trap as a viewer who knows of it sees it.
type TrapView struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	X      int    `json:"x,omitempty"`
	Y      int    `json:"y,omitempty"`
	Guards string `json:"guards,omitempty"` // ladder: the side whose line it lies before
	Victim string `json:"victim,omitempty"`
}

// FighterView is what a viewer sees of one fighter. Everyone sees what is
// visible at the table (conditions, the weapon in hand, a player
// character's Toughness); Full — the GM and the character's own player —
// adds the sheet, the resources and the turn's actions left.
type FighterView struct {
	ID         string   `json:"id"`
	Conditions []string `json:"conditions,omitempty"`
	Weapon     string   `json:"weapon"`
	Drawn      bool     `json:"drawn"`
	Shield     string   `json:"shield,omitempty"`
	Toughness  *int     `json:"toughness,omitempty"`
	MaxTough   int      `json:"maxToughness,omitempty"`
	DeathFails int      `json:"deathFails,omitempty"`
	X          int      `json:"x"`
	Y          int      `json:"y"`
	Ahead      int      `json:"ahead,omitempty"` // ladder: moves ahead of its side's line (the most toward any side)

	Full          bool              `json:"full"`
	Attributes    map[string]int    `json:"attributes,omitempty"`
	Defense       int               `json:"defense,omitempty"`
	PainThreshold int               `json:"painThreshold,omitempty"`
	Corruption    string            `json:"corruption,omitempty"` // "permanent+temporary / threshold"
	XP            int               `json:"xp,omitempty"`
	XPSpent       int               `json:"xpSpent,omitempty"`
	Armour        string            `json:"armour,omitempty"`
	Weapons       []WeaponView      `json:"weapons,omitempty"`
	Abilities     map[string]string `json:"abilities,omitempty"`
	Traits        map[string]int    `json:"traits,omitempty"`
	Powers        []string          `json:"powers,omitempty"`
	Items         map[string]int    `json:"items,omitempty"`
	CombatAction  bool              `json:"combatAction,omitempty"`
	MoveActions   int               `json:"moveActions,omitempty"`
	Plan          string            `json:"plan,omitempty"`
}

// WeaponView is one weapon on a sheet.
type WeaponView struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Type   string `json:"type"`
	Damage string `json:"damage"`
	Ammo   string `json:"ammo,omitempty"`
}

// Project implements engine.Ruleset.
func (Ruleset) Project(s engine.State, v engine.Viewer) any {
	st := s.(*State)
	view := View{Model: st.Model, Phase: st.Phase, Fighters: map[string]FighterView{}, Initiative: []string{}}
	visible := func(id string) bool { return engine.Visible(st, v, id) }
	for _, id := range st.Initiative {
		if visible(id) {
			view.Initiative = append(view.Initiative, id)
		}
	}
	for _, p := range st.Melee {
		if visible(p.A) && visible(p.B) {
			view.Melee = append(view.Melee, p)
		}
	}
	for _, t := range st.Traps {
		if st.trapKnown(t, v) {
			view.Traps = append(view.Traps, TrapView{ID: t.ID, Kind: t.Kind, X: t.X, Y: t.Y, Guards: ladderSide(st, t), Victim: t.Victim})
		}
	}
	for _, c := range st.Combatants {
		if visible(c.ID) {
			view.Fighters[c.ID] = st.fighterView(st.Fighters[c.ID], v.GM || v.CanCommand(c.ID))
		}
	}
	return view
}

func ladderSide(st *State, t Trap) string {
	if st.Model == board.Ladder {
		return t.Side
	}
	return ""
}

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

func (s *State) fighterView(f *Fighter, full bool) FighterView {
	w := f.weapon()
	fv := FighterView{ID: f.ID, Weapon: w.Name, Drawn: f.Drawn || w.kind().Natural, DeathFails: f.DeathFails, X: f.X, Y: f.Y}
	if f.ShieldUp {
		fv.Shield = f.Shield
	}
	for _, n := range f.Ahead {
		fv.Ahead = max(fv.Ahead, n)
	}
	for _, c := range s.conditions(f) {
		fv.Conditions = append(fv.Conditions, c.Label)
	}
	if s.healthShown(f.ID, full) {
		t := f.Toughness
		fv.Toughness, fv.MaxTough = &t, f.MaxToughness
	}
	if !full {
		return fv
	}
	fv.Full = true
	fv.Attributes, fv.Defense, fv.PainThreshold = f.Attributes, f.defense(), f.PainThreshold
	fv.Corruption = fmt.Sprintf("%d+%d / %d", f.Permanent, f.Temporary, f.CorruptionThreshold())
	fv.XP, fv.XPSpent = f.XP, f.XPSpent
	fv.Armour = armourWords(f.Armour)
	for _, wp := range f.Weapons {
		wv := WeaponView{ID: wp.ID, Name: wp.Name, Type: wp.Type, Damage: wp.DamageText()}
		switch k := wp.kind(); {
		case k.Ammo:
			wv.Ammo = fmt.Sprintf("%d/3", f.Ammo[wp.ID])
			if n := f.Special[wp.ID]; n > 0 {
				wv.Ammo += fmt.Sprintf(", %d special", n)
			}
		case k.Units:
			wv.Ammo = fmt.Sprintf("%d left", f.Units[wp.ID])
		}
		fv.Weapons = append(fv.Weapons, wv)
	}
	fv.Abilities, fv.Traits, fv.Powers, fv.Items = f.Abilities, f.Traits, f.Powers, f.Items
	if s.Current() == f.ID {
		fv.CombatAction, fv.MoveActions = f.Combat, f.Moves
	}
	fv.Plan = f.Plan
	return fv
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

// Board implements engine.Boarder: the grid with its walls, rough ground,
// known traps and everyone's square, or the distance categories between
// the sides with the melees.
func (Ruleset) Board(s engine.State, v engine.Viewer) *board.Board {
	st := s.(*State)
	b := &board.Board{Model: st.Model, Tokens: engine.Tokens(st, v)}
	for i := range b.Tokens {
		t := &b.Tokens[i]
		f := st.Fighters[t.ID]
		full := v.GM || v.CanCommand(t.ID)
		if st.healthShown(t.ID, full) {
			t.Health = &board.Meter{Label: "Toughness", Value: f.Toughness, Max: f.MaxToughness, Low: true,
				Text: fmt.Sprintf("Toughness %d of %d", f.Toughness, f.MaxToughness)}
		}
		t.Conditions = st.conditions(f)
		t.Stats = append(t.Stats, board.Stat{Label: "Weapon", Value: f.weapon().Name})
		if full {
			t.Stats = append(t.Stats, board.Stat{Label: "Defense", Value: fmt.Sprint(f.defense())},
				board.Stat{Label: "Pain Threshold", Value: painWords(f.PainThreshold)})
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
	b.Ladder = l
	for _, p := range st.Melee {
		if engine.Visible(st, v, p.A) && engine.Visible(st, v, p.B) {
			b.Notes = append(b.Notes, fmt.Sprintf("In melee: %s and %s", st.NameOf(p.A), st.NameOf(p.B)))
		}
	}
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

// Editor implements engine.Boarder: a 2 m grid (the default) or distance
// categories, chosen per encounter.
func (Ruleset) Editor() board.Editor {
	var distances []string
	for _, r := range rungs {
		distances = append(distances, r.Name)
	}
	return board.Editor{
		Model:  board.Grid,
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
	}
}
