package d20duel

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// project is d20-duel's one projection, what viewer v sees: the pairs
// model — each engaged pair with its distance and, once revealed, both
// stances; everyone else apart — and every fighter v may see with its
// wounds and what they did (on the ground, an arm useless, weapons
// dropped, crippled). The sheet is for the GM and the fighter's own
// player; the count of blows that only drive a fighter back is the GM's.
func project(st *State, v engine.Viewer) *board.Board {
	tokens := engine.Tokens(st, v)
	collapse := kit.OptInt(&st.Base, OptCollapseAt)
	for i := range tokens {
		f := st.Fighters[tokens[i].ID]
		if f == nil {
			continue
		}
		tokens[i].Health = healthMeter(st, f, collapse)
		tokens[i].Conditions = conditions(st, f)
		if v.CanCommand(f.ID) {
			tokens[i].Stats, tokens[i].Sheet = sheetStats(f), sheetSections(f)
		}
		if v.GM && kit.Opt(&st.Base, OptCinematic) == On {
			tokens[i].Stats = append(tokens[i].Stats, board.Stat{Label: "Drive back", Value: fmt.Sprint(f.DriveBack), Note: "blows that only drive back"})
		}
	}
	pm := &board.PairMap{Engagements: []board.Engagement{}, Apart: []string{}}
	for _, e := range st.Engagements {
		if !engine.Visible(st, v, e.A) || !engine.Visible(st, v, e.B) {
			continue
		}
		be := board.Engagement{A: e.A, B: e.B, Distance: distanceLabels[e.Distance]}
		if len(e.Shown) == 2 {
			be.Shown = map[string]string{e.A: stanceLabels[e.Shown[e.A]], e.B: stanceLabels[e.Shown[e.B]]}
		}
		pm.Engagements = append(pm.Engagements, be)
	}
	for _, t := range tokens {
		if !t.Out && !st.engaged(t.ID) {
			pm.Apart = append(pm.Apart, t.ID)
		}
	}
	bd := &board.Board{Model: board.Pairs, Tokens: tokens, Pairs: pm}
	if kit.Opt(&st.Base, OptCinematic) == On {
		bd.Notes = append(bd.Notes, "Cinematic duel: some blows may only drive a fighter back.")
	}
	return bd
}

// editor is the battlefield editor: prep sets up pairs at Striking or
// Grappling distance.
// editor's one reach: two fighters in the same room of a map (a path of
// 0 m) or a step apart start engaged at Striking; farther, apart.
// Grappling is never where a fight starts on a map.
var editor = board.Editor{Model: board.Pairs, Distances: []string{distanceLabels[Striking], distanceLabels[Grappling]},
	Reaches: []board.Reach{{Distance: distanceLabels[Striking], Metres: 2}}}

func healthMeter(st *State, f *Fighter, collapse int) *board.Meter {
	p := f.penalty(&st.Base, 0)
	text := "Unhurt"
	if n := len(f.Wounds); n > 0 {
		var parts []string
		for _, w := range f.Wounds {
			if w.Penalty >= Mortal {
				parts = append(parts, "would kill")
			} else {
				parts = append(parts, "−"+strconv.Itoa(w.Penalty)+" "+w.Location)
			}
		}
		text = "−" + strconv.Itoa(p) + " (" + strings.Join(parts, ", ") + ")"
	}
	return &board.Meter{Label: "Wounds", Value: f.totalPenalty(), Max: collapse, Text: text}
}

func conditions(st *State, f *Fighter) []board.Condition {
	var out []board.Condition
	if f.Fallen() {
		out = append(out, board.Condition{ID: "fallen", Label: "On the ground", Icon: icons["fallen"],
			Text: fmt.Sprintf("Cannot stand until the leg heals: −%d to Strike, Grapple, Guard and Defense; cannot close in or maneuver.", kit.OptInt(&st.Base, OptFallenPenalty))})
	}
	if n := f.armsDisabled(); n > 0 {
		out = append(out, board.Condition{ID: "arm", Label: map[bool]string{true: "An arm useless", false: "Both arms useless"}[n == 1], Icon: icons["disarmed"],
			Text: "Until the wound heals: no two-handed weapons."})
	}
	if len(f.Dropped) > 0 {
		var names []string
		for _, id := range f.Dropped {
			names = append(names, f.weapon(id).Name)
		}
		out = append(out, board.Condition{ID: "dropped", Label: "Dropped " + strings.Join(names, ", "), Icon: icons["disarmed"],
			Text: "Pick it up in the approach, when not engaged."})
	}
	for _, t := range f.Traits {
		if strings.HasPrefix(t, "Crippled") {
			out = append(out, board.Condition{ID: "crippled", Label: t, Icon: icons["wounded"], Text: "A lasting Trait."})
		}
	}
	if f.mortal() {
		out = append(out, board.Condition{ID: "mortal", Label: "Would-kill wound", Icon: icons["dying"], Text: "The duel is over for them."})
	}
	return out
}

// sheetStats are the token's stats: Agility, the weapon it guards with
// (its first usable melee weapon) and its armour.
func sheetStats(f *Fighter) []board.Stat {
	c := f.card()
	i := slices.IndexFunc(f.Weapons, func(w Weapon) bool { return !w.Ranged && f.usable(w) }) // guardWeapon's
	out := make([]board.Stat, 0, 3)
	out = append(out, c.agility, board.Stat{Label: f.Weapons[i].Name, Value: c.guard[i]})
	if c.armour != nil {
		out = append(out, *c.armour)
	}
	return out
}

// sheetSections is the rest of the stat block: the attributes, the combat values
// and every weapon with the fighter's modifiers added — Strike and Guard
// with Close combat (Ranged for a ranged weapon), Grapple and Defense with
// the Grappling modifier, damage with the Damage Modifier. All of it but
// whether a weapon can be used now comes from the sheet, which never
// changes once the fighter is made: that part is built the first time it
// is shown and kept (card, an engine.Memo) for every later view of the
// fighter and of every later copy of the state. Views share the card's
// stats: nothing may change a token's Sheet in place.
func sheetSections(f *Fighter) []board.Section {
	c := f.card()
	ws := make([]board.Stat, len(f.Weapons))
	for i, w := range f.Weapons {
		ws[i] = c.weapons[i]
		if !f.usable(w) {
			if ws[i].Note == "" {
				ws[i].Note = "cannot be used now"
			} else {
				ws[i].Note += ", cannot be used now"
			}
		}
	}
	out := make([]board.Section, 0, 4)
	out = append(out, board.Section{Title: "Attributes", Stats: c.attributes}, board.Section{Title: "Combat", Stats: c.combat},
		board.Section{Title: "Weapons", Stats: ws})
	if c.protection != nil {
		out = append(out, *c.protection)
	}
	return out
}

// card is what the token's stats and sheet show of the sheet alone.
type card struct {
	agility            board.Stat
	guard              []string // each weapon's line as the one guarded with, in f.Weapons' order
	armour             *board.Stat
	attributes, combat []board.Stat
	weapons            []board.Stat // in f.Weapons' order, before whether it can be used
	protection         *board.Section
}

// card returns f's card, building it the first time. Readers of one state
// may project it at once: the memo keeps the first card built, and two
// that build it together build the same.
func (f *Fighter) card() *card {
	if c := f.shown.Load(); c != nil {
		return c
	}
	return f.shown.Keep(newCard(f))
}

func newCard(f *Fighter) *card {
	c := &card{agility: board.Stat{Label: "Agility", Value: fmt.Sprint(f.Attributes["agility"])}}
	for _, w := range f.Weapons {
		c.guard = append(c.guard, fmt.Sprintf("Strike %d · Guard %d · Grapple %d · Defense %d", w.Strike+f.CloseCombat, w.Guard+f.CloseCombat,
			w.Grapple+f.GrapplingMod(), w.Defense+f.GrapplingMod()))
	}
	if f.Armor.Protection > 0 {
		c.armour = &board.Stat{Label: "Armour", Value: fmt.Sprintf("Coverage %d · Protection %d", f.Armor.Coverage, f.Armor.Protection)}
	}
	c.attributes = make([]board.Stat, 0, len(attributes))
	for _, a := range attributes {
		c.attributes = append(c.attributes, board.Stat{Label: attrLabel(a), Value: fmt.Sprint(f.Attributes[a])})
	}
	c.combat = []board.Stat{
		{Label: "Close combat", Value: fmt.Sprint(f.CloseCombat)},
		{Label: "Ranged", Value: fmt.Sprint(f.Ranged)},
		{Label: "Damage Modifier", Value: fmt.Sprint(f.DamageMod)},
		{Label: "Grappling modifier", Value: fmt.Sprint(f.GrapplingMod())},
	}
	c.weapons = make([]board.Stat, 0, len(f.Weapons))
	for _, w := range f.Weapons {
		var value string
		var notes []string
		if w.Ranged {
			value = fmt.Sprintf("Strike %d · Damage %d", w.Strike+f.Ranged, w.Damage)
			notes = append(notes, "ranged")
			if w.Auto > 0 {
				notes = append(notes, fmt.Sprintf("Auto %d", w.Auto))
			}
		} else {
			value = fmt.Sprintf("Strike %d · Guard %d · Grapple %d · Defense %d · Damage %d", w.Strike+f.CloseCombat, w.Guard+f.CloseCombat,
				w.Grapple+f.GrapplingMod(), w.Defense+f.GrapplingMod(), w.Damage+f.DamageMod)
		}
		switch {
		case w.Unarmed:
			notes = append(notes, "unarmed")
		case w.Hands > 0:
			notes = append(notes, fmt.Sprintf("%d-handed", w.Hands))
		}
		c.weapons = append(c.weapons, board.Stat{Label: w.Name, Value: value, Note: strings.Join(notes, ", ")})
	}
	if f.Armor.Coverage > 0 || f.Armor.Protection > 0 {
		c.protection = &board.Section{Title: "Armour", Stats: []board.Stat{
			{Label: "Coverage", Value: fmt.Sprint(f.Armor.Coverage)}, {Label: "Protection", Value: fmt.Sprint(f.Armor.Protection)}}}
	}
	return c
}
