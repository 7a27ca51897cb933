package d20duel

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// View is the d20-duel part of an engine.View: the engagements and what
// the viewer may know of each fighter.
type View struct {
	// Phase is the round's part: "Approach" or "Exchange".
	Phase       string                 `json:"phase,omitempty"`
	Engagements []EngagementView       `json:"engagements"`
	Fighters    map[string]FighterView `json:"fighters"`
}

// EngagementView is a pair as seen: its distance, and after the reveal of
// its last exchange both stances.
type EngagementView struct {
	A        string            `json:"a"`
	B        string            `json:"b"`
	Distance string            `json:"distance"`
	Shown    map[string]string `json:"shown,omitempty"`
}

// FighterView is what a viewer sees of one fighter. Every viewer sees the
// wounds and what they did (on the ground, an arm useless, weapons
// dropped, crippled); Full is set for the GM and the fighter's own player,
// and only then is the sheet filled in. DriveBack is the GM's secret.
type FighterView struct {
	ID          string   `json:"id"`
	Wounds      []Wound  `json:"wounds"`
	Penalty     int      `json:"penalty"`
	Fallen      bool     `json:"fallen,omitempty"`
	ArmsUseless int      `json:"armsUseless,omitempty"`
	Dropped     []string `json:"dropped,omitempty"` // weapon names
	Traits      []string `json:"traits,omitempty"`
	Engaged     []string `json:"engaged"`

	Full         bool           `json:"full"`
	Attributes   map[string]int `json:"attributes,omitempty"`
	CloseCombat  int            `json:"closeCombat,omitempty"`
	Ranged       int            `json:"ranged,omitempty"`
	DamageMod    int            `json:"damageMod,omitempty"`
	GrapplingMod int            `json:"grapplingMod,omitempty"`
	Armor        *Armor         `json:"armor,omitempty"`
	Weapons      []WeaponView   `json:"weapons,omitempty"`
	DriveBack    int            `json:"driveBack,omitempty"`
}

// WeaponView is a weapon with the fighter's modifiers added: Strike and
// Guard with Close combat (Ranged for a ranged weapon), Grapple and
// Defense with the Grappling modifier, damage with the Damage Modifier.
type WeaponView struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Strike  int    `json:"strike"`
	Guard   int    `json:"guard,omitempty"`
	Grapple int    `json:"grapple,omitempty"`
	Defense int    `json:"defense,omitempty"`
	Damage  int    `json:"damage"`
	Hands   int    `json:"hands"`
	Unarmed bool   `json:"unarmed,omitempty"`
	Ranged  bool   `json:"ranged,omitempty"`
	Auto    int    `json:"auto,omitempty"`
	Usable  bool   `json:"usable"`
}

// Project implements engine.Ruleset. A hidden fighter appears nowhere for
// a viewer who may not see it.
func (Ruleset) Project(s engine.State, v engine.Viewer) any {
	st := s.(*State)
	view := View{Engagements: []EngagementView{}, Fighters: map[string]FighterView{}}
	if st.Status == engine.StatusRunning {
		view.Phase = st.Label
	}
	visible := func(id string) bool { return engine.Visible(st, v, id) }
	for _, e := range st.Engagements {
		if visible(e.A) && visible(e.B) {
			view.Engagements = append(view.Engagements, EngagementView{A: e.A, B: e.B, Distance: e.Distance, Shown: e.Shown})
		}
	}
	for _, c := range st.Combatants {
		f := st.Fighters[c.ID]
		if f == nil || !visible(c.ID) {
			continue
		}
		fv := FighterView{ID: c.ID, Wounds: slices.Clone(f.Wounds), Penalty: f.penalty(&st.Base, 0), Fallen: f.Fallen(),
			ArmsUseless: f.armsDisabled(), Traits: f.Traits, Engaged: []string{}}
		if fv.Wounds == nil {
			fv.Wounds = []Wound{}
		}
		for _, id := range f.Dropped {
			fv.Dropped = append(fv.Dropped, f.weapon(id).Name)
		}
		for _, o := range st.opponents(c.ID) {
			if visible(o) {
				fv.Engaged = append(fv.Engaged, o)
			}
		}
		if v.GM || v.CanCommand(c.ID) {
			fillSheet(&fv, f)
		}
		if v.GM {
			fv.DriveBack = f.DriveBack
		}
		view.Fighters[c.ID] = fv
	}
	return view
}

func fillSheet(fv *FighterView, f *Fighter) {
	fv.Full = true
	fv.Attributes = f.Attributes
	fv.CloseCombat, fv.Ranged, fv.DamageMod, fv.GrapplingMod = f.CloseCombat, f.Ranged, f.DamageMod, f.GrapplingMod()
	if f.Armor.Coverage > 0 || f.Armor.Protection > 0 {
		a := f.Armor
		fv.Armor = &a
	}
	for _, w := range f.Weapons {
		wv := WeaponView{ID: w.ID, Name: w.Name, Hands: w.Hands, Unarmed: w.Unarmed, Ranged: w.Ranged, Auto: w.Auto, Usable: f.usable(w)}
		if w.Ranged {
			wv.Strike, wv.Damage = w.Strike+f.Ranged, w.Damage
		} else {
			wv.Strike, wv.Guard = w.Strike+f.CloseCombat, w.Guard+f.CloseCombat
			wv.Grapple, wv.Defense = w.Grapple+f.GrapplingMod(), w.Defense+f.GrapplingMod()
			wv.Damage = w.Damage + f.DamageMod
		}
		fv.Weapons = append(fv.Weapons, wv)
	}
}

// Board implements engine.Boarder: the pairs model — each engaged pair with
// its distance and, once revealed, both stances; everyone else apart.
func (Ruleset) Board(s engine.State, v engine.Viewer) *board.Board {
	st := s.(*State)
	tokens := engine.Tokens(st, v)
	collapse := optInt(&st.Base, OptCollapseAt)
	for i := range tokens {
		f := st.Fighters[tokens[i].ID]
		if f == nil {
			continue
		}
		tokens[i].Health = healthMeter(st, f, collapse)
		tokens[i].Conditions = conditions(st, f)
		if v.GM || v.CanCommand(f.ID) {
			tokens[i].Stats = sheetStats(f)
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
	if opt(&st.Base, OptCinematic) == On {
		bd.Notes = append(bd.Notes, "Cinematic duel: some blows may only drive a fighter back.")
	}
	return bd
}

// Editor implements engine.Boarder: prep sets up pairs at Striking or
// Grappling distance.
func (Ruleset) Editor() board.Editor {
	return board.Editor{Model: board.Pairs, Distances: []string{distanceLabels[Striking], distanceLabels[Grappling]}}
}

func healthMeter(st *State, f *Fighter, collapse int) *board.Meter {
	p := f.penalty(&st.Base, 0)
	text := "Unhurt"
	if n := len(f.Wounds); n > 0 {
		var parts []string
		for _, w := range f.Wounds {
			if w.Penalty >= Mortal {
				parts = append(parts, "would kill")
			} else {
				parts = append(parts, fmt.Sprintf("−%d %s", w.Penalty, w.Location))
			}
		}
		text = fmt.Sprintf("−%d (%s)", p, strings.Join(parts, ", "))
	}
	return &board.Meter{Label: "Wounds", Value: f.totalPenalty(), Max: collapse, Text: text}
}

func conditions(st *State, f *Fighter) []board.Condition {
	var out []board.Condition
	if f.Fallen() {
		out = append(out, board.Condition{ID: "fallen", Label: "On the ground", Icon: icons["fallen"],
			Text: fmt.Sprintf("Cannot stand until the leg heals: −%d to Strike, Grapple, Guard and Defense; cannot close in or maneuver.", optInt(&st.Base, OptFallenPenalty))})
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

func sheetStats(f *Fighter) []board.Stat {
	w := f.guardWeapon()
	out := []board.Stat{
		{Label: "Agility", Value: fmt.Sprint(f.Attributes["agility"])},
		{Label: w.Name, Value: fmt.Sprintf("Strike %d · Guard %d · Grapple %d · Defense %d", w.Strike+f.CloseCombat, w.Guard+f.CloseCombat,
			w.Grapple+f.GrapplingMod(), w.Defense+f.GrapplingMod())},
	}
	if f.Armor.Protection > 0 {
		out = append(out, board.Stat{Label: "Armour", Value: fmt.Sprintf("Coverage %d · Protection %d", f.Armor.Coverage, f.Armor.Protection)})
	}
	return out
}
