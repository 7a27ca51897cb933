package d6bands

import (
	"slices"

	"github.com/fray-vtt/fray/internal/engine"
)

// View is the d6-bands part of an engine.View (the board carries the
// map): what the viewer may know of each combatant it sees.
type View struct {
	Bands    []string               `json:"bands"`
	Fighters map[string]FighterView `json:"fighters"`
	// Attack is the attack waiting on a Defense Pool answer.
	Attack *Attack `json:"attack,omitempty"`
}

// FighterView is one combatant as seen. Everyone sees where it is and how
// hurt; Full (the GM and its own player) adds the sheet and the ledger.
type FighterView struct {
	ID         string   `json:"id"`
	X          int      `json:"x"`
	Y          int      `json:"y"`
	Group      string   `json:"group,omitempty"`
	Off        bool     `json:"off,omitempty"`
	Prone      bool     `json:"prone,omitempty"`
	Mounted    bool     `json:"mounted,omitempty"`
	Dashed     bool     `json:"dashed,omitempty"`
	Wound      string   `json:"wound,omitempty"` // the worst wound level
	Wounds     []Wound  `json:"wounds,omitempty"`
	BloodLoss  int      `json:"bloodLoss"`
	Blood      int      `json:"blood"`
	Bleeding   int      `json:"bleeding,omitempty"`
	Status     string   `json:"status,omitempty"`
	HiddenFrom []string `json:"hiddenFrom,omitempty"` // opponents it is hidden from
	UnawareOf  []string `json:"unawareOf,omitempty"`  // opponents unaware of it
	Aim        *Aim     `json:"aim,omitempty"`

	Full        bool             `json:"full"`
	Actions     int              `json:"actions,omitempty"`
	Pool        int              `json:"pool,omitempty"`
	Moves       int              `json:"moves,omitempty"`
	LostActions int              `json:"lostActions,omitempty"`
	Penalty     int              `json:"penalty,omitempty"` // wound penalty to skills
	Sheet       *Sheet           `json:"sheet,omitempty"`
	Loads       map[string]*Load `json:"loads,omitempty"`
	Adjust      *Adjust          `json:"adjust,omitempty"`
}

// Project implements engine.Ruleset. A combatant the GM keeps hidden
// appears nowhere for a player; the sheet only for the GM and its player.
func (Ruleset) Project(s engine.State, v engine.Viewer) any {
	st := s.(*State)
	view := View{Bands: slices.Clone(bandNames), Fighters: map[string]FighterView{}}
	visible := func(id string) bool { return engine.Visible(st, v, id) }
	if a := st.Attack; a != nil && visible(a.Attacker) && visible(a.Target) {
		c := *a
		view.Attack = &c
	}
	for _, c := range st.Combatants {
		f := st.Fighters[c.ID]
		if f == nil || !visible(c.ID) {
			continue
		}
		fv := FighterView{ID: f.ID, X: f.X, Y: f.Y, Group: f.Group, Off: f.Off, Prone: f.Prone, Mounted: f.Mounted, Dashed: f.Dashed,
			Wound: f.WoundLevel(), Wounds: f.Wounds, BloodLoss: f.BloodLoss, Blood: f.Blood, Bleeding: bleeding(f), Status: f.Status}
		for _, o := range st.Combatants {
			n := f.Unseen[o.ID]
			switch {
			case n == 0 || !visible(o.ID):
			case n >= 2:
				fv.UnawareOf = append(fv.UnawareOf, o.ID)
			default:
				fv.HiddenFrom = append(fv.HiddenFrom, o.ID)
			}
		}
		if f.Aim != nil && visible(f.Aim.Target) {
			a := *f.Aim
			fv.Aim = &a
		}
		if v.GM || v.CanCommand(f.ID) {
			sheet := f.Sheet
			fv.Full, fv.Actions, fv.Pool, fv.Moves, fv.LostActions = true, f.Actions, f.Pool, f.Moves, f.LostActions
			fv.Penalty, fv.Sheet, fv.Loads, fv.Adjust = woundPenalty(&st.Base, f), &sheet, f.Loads, f.Adjust
		}
		view.Fighters[c.ID] = fv
	}
	return view
}
