package kitskirmish

import "github.com/fray-vtt/fray/internal/engine"

// Tactic implements engine.Tactician: how a simulation plays a
// kit-skirmish fight (docs/prep.md, "Encounter odds"). A fighter strikes
// the opponent with the fewest hit points left (the first in the order
// among equals), then ends its turn; one struck parries only when the
// blow would take it out — a parry costs the next strike, worth more than
// a hit point it can spare. The GM heals no one.
func (r Ruleset) Tactic(s engine.State, o *engine.Offer) (engine.Command, bool) {
	st, ok := r.StateOf(s)
	if !ok {
		return engine.Command{}, false
	}
	for _, d := range o.Pending {
		if d.Kind != DecParry {
			continue
		}
		if t := st.Fighter(d.For); t != nil && t.HP <= 1 && d.HasOption("parry") {
			return engine.Answer(d, "parry", nil), true
		}
		return engine.Answer(d, "take", nil), true
	}
	if len(o.Pending) > 0 {
		return engine.Command{}, false
	}
	cur := st.Current()
	f := st.Fighter(cur)
	if f == nil {
		return engine.Command{}, false
	}
	if !f.Struck && !f.Winded && !o.Refused(CmdStrike, cur) {
		var weakest *Fighter
		for _, c := range st.Combatants {
			if g := st.Fighters[c.ID]; !c.Out && c.Side != st.Combatant(cur).Side && (weakest == nil || g.HP < weakest.HP) {
				weakest = g
			}
		}
		if weakest != nil {
			return engine.NewCommand(CmdStrike, cur, map[string]any{"target": weakest.ID}), true
		}
	}
	return engine.NewCommand(CmdEndTurn, cur, nil), true
}
