package swzones

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
)

// Actions implements engine.Ruleset: the commands v may issue now. The
// fighter whose turn it is gets the actions legal for them, each select
// listing only legal choices; any Shaken fighter v commands with a Benny
// left may spend it to recover, turn or not.
func (Ruleset) Actions(s engine.State, v engine.Viewer) []engine.Action {
	st := s.(*State)
	if st.Status != engine.StatusRunning {
		return nil
	}
	var out []engine.Action
	if cur := st.Current(); cur != "" && v.CanCommand(cur) && !st.Combatant(cur).Out {
		out = append(out, turnActions(st, v, st.Fighters[cur])...)
	}
	for _, c := range st.Combatants {
		f := st.Fighters[c.ID]
		if !c.Out && f.Shaken && f.Bennies > 0 && v.CanCommand(c.ID) {
			out = append(out, engine.Action{Kind: CmdUnshake, Actor: c.ID, Label: "Spend a Benny to recover from Shaken",
				Help: fmt.Sprintf("%d Benny(ies) left.", f.Bennies)})
		}
	}
	return out
}

func turnActions(st *State, v engine.Viewer, f *Fighter) []engine.Action {
	var out []engine.Action
	id := f.ID
	visible := func(x string) bool { return engine.Visible(st, v, x) && !st.Combatant(x).Out }
	if f.Melee == "" && f.MP >= 1 {
		var zones []engine.Choice
		for _, z := range st.zone(f.Zone).Adjacent {
			zones = append(zones, engine.Choice{Value: z, Label: st.zone(z).Name})
		}
		if len(zones) > 0 {
			out = append(out, engine.Action{Kind: CmdMove, Actor: id, Label: "Move", Help: "Cross one border (1 MP).",
				Fields: []engine.Field{{Name: "to", Label: "To", Type: "select", Options: zones}}})
		}
		var targets []engine.Choice
		for _, c := range st.Combatants {
			t := st.Fighters[c.ID]
			if visible(c.ID) && canEngage(st, f, t) == nil {
				label := c.Name
				if t.Melee != "" {
					label += " (join their melee)"
				}
				targets = append(targets, engine.Choice{Value: c.ID, Label: label})
			}
		}
		if len(targets) > 0 {
			out = append(out, engine.Action{Kind: CmdEngage, Actor: id, Label: "Engage", Help: "Join a melee in this zone (1 MP).",
				Fields: []engine.Field{{Name: "target", Label: "Target", Type: "select", Options: targets}}})
		}
	}
	if f.Melee != "" && f.MP >= 1 {
		n := 0
		for _, x := range st.melee(f.Melee).Members {
			if st.opponents(x, id) && !st.Fighters[x].Shaken {
				n++
			}
		}
		a := engine.Action{Kind: CmdDisengage, Actor: id, Label: "Disengage",
			Help: fmt.Sprintf("Leave the melee (1 MP); %d free attack(s) first.", n)}
		if canAct(st, f) == nil && f.Actions == 0 {
			a.Fields = []engine.Field{{Name: "defend", Label: fmt.Sprintf("Defend while retreating (+%d Parry, no other action this turn)", retreatDefendBonus), Type: "checkbox"}}
		}
		out = append(out, a)
	}
	if _, _, err := actionMods(st, f, 0); err == nil {
		declare := st.Option(OptMultiAction, MultiDeclare) == MultiDeclare && f.Actions == 0
		actionsField := engine.Field{Name: "actions", Label: "Actions this turn", Type: "number", Default: "1", Min: 1, Max: MaxActions}
		if f.Melee != "" {
			var targets []engine.Choice
			for _, x := range st.melee(f.Melee).Members {
				if visible(x) && st.opponents(x, id) {
					targets = append(targets, engine.Choice{Value: x, Label: st.name(x)})
				}
			}
			if len(targets) > 0 {
				fields := []engine.Field{
					{Name: "target", Label: "Target", Type: "select", Options: targets},
					{Name: "weapon", Label: "Weapon", Type: "select", Options: weaponChoices(f.MeleeWeapons())},
				}
				if declare {
					fields = append(fields, actionsField)
				}
				out = append(out, engine.Action{Kind: CmdFight, Actor: id, Label: "Fight", Help: "Fighting against Parry.", Fields: fields})
			}
		}
		if ranged := f.RangedWeapons(); len(ranged) > 0 && (f.Melee == "" || st.Option(OptShootInMelee, ShootNo) == ShootAdjacent) {
			reach := 0
			for _, w := range ranged {
				reach = max(reach, maxReach(&st.Base, w))
			}
			var targets []engine.Choice
			for _, c := range st.Combatants {
				t := st.Fighters[c.ID]
				if !visible(c.ID) || !st.opponents(c.ID, id) || (f.Melee != "" && t.Melee != f.Melee) {
					continue
				}
				if d := st.Distance(f.Zone, t.Zone); d >= 0 && d <= reach {
					targets = append(targets, engine.Choice{Value: c.ID, Label: fmt.Sprintf("%s (%s)", c.Name, zonesAway(d))})
				}
			}
			if len(targets) > 0 {
				fields := []engine.Field{
					{Name: "target", Label: "Target", Type: "select", Options: targets},
					{Name: "weapon", Label: "Weapon", Type: "select", Options: weaponChoices(ranged)},
				}
				if f.Melee == "" {
					fields = append(fields, engine.Field{Name: "cover", Label: "Cover", Type: "select", Options: []engine.Choice{
						{Value: "", Label: "The target zone's cover"}, {Value: "none", Label: "None"},
						{Value: "light", Label: "Light"}, {Value: "medium", Label: "Medium"},
						{Value: "heavy", Label: "Heavy"}, {Value: "near-total", Label: "Near-total"},
					}})
				}
				if declare {
					fields = append(fields, actionsField)
				}
				out = append(out, engine.Action{Kind: CmdShoot, Actor: id, Label: "Shoot", Help: "Shooting against 4, range in zones.", Fields: fields})
			}
		}
		if f.Actions == 0 {
			out = append(out, engine.Action{Kind: CmdDefend, Actor: id, Label: "Defend",
				Help: fmt.Sprintf("+%d Parry until your next turn; no other action this turn.", defendBonus(&st.Base))})
		}
	}
	return append(out, engine.Action{Kind: CmdEndTurn, Actor: id, Label: "End turn"})
}

func weaponChoices(ws []Weapon) []engine.Choice {
	out := make([]engine.Choice, len(ws))
	for i, w := range ws {
		label := fmt.Sprintf("%s (%s)", w.Name, w.Damage)
		if w.Ranged() {
			label = fmt.Sprintf("%s (%s, range %s)", w.Name, w.Damage, rangeString(w.Range))
		}
		out[i] = engine.Choice{Value: w.ID, Label: label}
	}
	return out
}

func zonesAway(d int) string {
	switch d {
	case 0:
		return "same zone"
	case 1:
		return "1 zone away"
	}
	return fmt.Sprintf("%d zones away", d)
}
