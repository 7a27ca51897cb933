package swzones

import (
	"slices"

	"github.com/fray-vtt/fray/internal/engine"
)

// Project implements engine.Ruleset: the battlefield and the fighters v may
// see. A hidden fighter appears nowhere for a viewer who may not see it;
// the sheet (Full) is only for the GM and the fighter's own player.
func (Ruleset) Project(s engine.State, v engine.Viewer) any {
	st := s.(*State)
	view := View{Zones: make([]ZoneView, 0, len(st.Zones)), Fighters: map[string]FighterView{}, Deck: len(st.Deck.Remaining)}
	visible := func(id string) bool { return engine.Visible(st, v, id) }
	if v.GM {
		view.GMBennies = st.GMBennies
	}
	if n := len(st.Interrupts); n > 0 && visible(st.Interrupts[n-1].Combatant) {
		ir := st.Interrupts[n-1]
		view.Interrupting = ir.Combatant
		if len(ir.Acting) > 0 && visible(ir.Acting[0]) {
			view.Interrupted = ir.Acting[0]
		}
	}
	for _, z := range st.Zones {
		zv := ZoneView{
			ID: z.ID, Name: z.Name, Description: z.Description, Cover: z.Cover,
			Adjacent: slices.Clone(z.Adjacent), Melees: []MeleeView{}, Unengaged: []string{},
		}
		for _, m := range st.Melees {
			if m.Zone != z.ID {
				continue
			}
			members := []string{}
			for _, id := range m.Members {
				if visible(id) {
					members = append(members, id)
				}
			}
			if len(members) > 0 {
				zv.Melees = append(zv.Melees, MeleeView{ID: m.ID, Members: members})
			}
		}
		for _, c := range st.Combatants {
			if f := st.Fighters[c.ID]; f != nil && f.Zone == z.ID && f.Melee == "" && visible(c.ID) {
				zv.Unengaged = append(zv.Unengaged, c.ID)
			}
		}
		view.Zones = append(view.Zones, zv)
	}
	for _, c := range st.Combatants {
		f := st.Fighters[c.ID]
		if f == nil || !visible(c.ID) {
			continue
		}
		fv := fighterView(f, v.GM || v.CanCommand(c.ID))
		if f.Grip != nil && visible(f.Grip.By) {
			fv.GrippedBy = f.Grip.By
		}
		if f.Drop != "" && !visible(f.Drop) {
			fv.Drop = ""
		}
		view.Fighters[c.ID] = fv
	}
	return view
}

func fighterView(f *Fighter, full bool) FighterView {
	fv := FighterView{
		ID: f.ID, WildCard: f.WildCard, Shaken: f.Shaken, Wounds: f.Wounds, MaxWounds: f.MaxWounds(),
		Incapacitated: f.Incapacitated, Status: f.Status, Card: f.Card, Zone: f.Zone, Melee: f.Melee,
		Prone: f.Prone, Hold: f.Hold, Running: f.Ran, Drop: f.Drop,
	}
	if f.Grip != nil {
		fv.Grip, fv.Garrotte = f.Grip.Level, f.Grip.Garrotte
	}
	if !full {
		return fv
	}
	fv.Full = true
	fv.Movement, fv.Actions, fv.Bennies = f.MP, f.Actions, f.Bennies
	if f.Ran {
		fv.RunPenalty = min(f.RunPenalty+f.Refund, 0)
	}
	fv.Parry = f.Parry() + f.Defend // what an attacker rolls against now
	fv.Toughness, fv.Armor = f.Toughness(), f.Armor
	c := f.card()
	fv.Traits, fv.Weapons, fv.Powers = c.traits, c.weapons, c.powers
	return fv
}
