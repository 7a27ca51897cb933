package d6bands

import (
	"fmt"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// actions are what v may do now: the commands v may issue now. The
// combatant whose turn it is gets the actions legal for it, each select
// listing only legal choices (every combination of them is accepted); the
// GM also gets the GM commands. Nothing is offered while a decision waits.
func actions(st *State, v engine.Viewer) []engine.Action {
	if st.Status != engine.StatusRunning || st.Waiting() {
		return nil
	}
	var out []engine.Action
	if cur := st.Current(); cur != "" && v.CanCommand(cur) && st.standing(cur) && st.Fighters[cur].Actions > 0 {
		out = append(out, turnActions(st, v, st.Fighters[cur])...)
	}
	if v.GM {
		out = append(out, gmActions(st)...)
	}
	return out
}

func turnActions(st *State, v engine.Viewer, f *Fighter) []engine.Action {
	var out []engine.Action
	b := &st.Base
	id := f.ID
	// seen: the combatants the viewer may target at all.
	seen := func(x string) bool { return engine.Visible(st, v, x) && !st.Combatant(x).Out }
	targetField := func(options []engine.Choice) engine.Field {
		return engine.Field{Name: "target", Label: "Target", Type: engine.FieldSelect, Options: options, Target: true}
	}
	if f.Prone {
		if cost := kit.OptInt(b, OptRiseActions); f.Actions >= cost {
			out = append(out, engine.Action{Kind: CmdStand, Actor: id, Label: "Stand up", Help: actionCount(cost) + "."})
		}
	} else {
		if to := moveChoices(st, v, f); len(to) > 0 {
			out = append(out, engine.Action{Kind: CmdMove, Actor: id, Label: "Move", Main: true,
				Help:   "1 action: one band, or into or out of close contact. Impassable terrain: 2 actions and a check. A second move this turn loses cover.",
				Fields: []engine.Field{{Name: "to", Label: "To", Type: engine.FieldSelect, Options: to, Place: true}}})
		}
		if to := dashChoices(st, v, f); len(to) > 0 {
			out = append(out, engine.Action{Kind: CmdDash, Actor: id, Label: "Dash",
				Help:   "2 actions: two bands, or one band and into close contact. No cover and no Defense Pool until your next turn; difficult terrain asks a check.",
				Fields: []engine.Field{{Name: "to", Label: "To", Type: engine.FieldSelect, Options: to, Place: true}}})
		}
	}
	var shootTargets, aimTargets []engine.Choice
	ranged := rangedChoices(f, false)
	for _, c := range st.Combatants {
		t := st.Fighters[c.ID]
		if !seen(c.ID) || !st.opponents(id, c.ID) || !st.standing(c.ID) {
			continue
		}
		for i := range f.Weapons {
			w := &f.Weapons[i]
			if !w.Ranged() || !loaded(f, w) {
				continue
			}
			if a, err := planShot(st, f, t, w, true, false); err == nil {
				label := fmt.Sprintf("%s (%s)", c.Name, BandName(a.Band))
				shootTargets = append(shootTargets, engine.Choice{Value: c.ID, Label: label})
				aimTargets = append(aimTargets, engine.Choice{Value: c.ID, Label: label})
				break
			}
		}
	}
	if len(shootTargets) > 0 && len(ranged) > 0 {
		// One form per weapon (its own bands): each keeps the targets,
		// modes and called shots the shot's own refusals allow.
		modes := []engine.Choice{{Value: ModeAimed, Label: "Aimed shot (2 actions)"}, {Value: ModeSnapshot, Label: "Snapshot (1 action, +1D)"}}
		main := true
		for _, w := range ranged {
			fields, ok := kit.Narrow([]engine.Field{targetField(shootTargets),
				{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: []engine.Choice{w}},
				{Name: "mode", Label: "Shot", Type: engine.FieldSelect, Options: modes},
				{Name: "called", Label: "Called shot at a hit location (+2D)", Type: engine.FieldCheckbox}},
				func(vals kit.Values) error {
					_, err := shotRefusal(st, f, st.Fighters[vals.String("target")],
						shotArgs{Weapon: vals.String("weapon"), Mode: vals.String("mode"), Called: vals.Bool("called")})
					return err
				})
			if !ok {
				continue
			}
			label := "Shoot"
			if len(ranged) > 1 {
				label += ": " + f.Weapon(w.Value).Name
			}
			out = append(out, engine.Action{Kind: CmdShoot, Actor: id, Label: label, Main: main,
				Help:   "4D at an optimal band, +1D per band off it, + cover; 3D in close contact (the target may spend its Defense Pool).",
				Fields: fields})
			main = false
		}
		out = append(out, engine.Action{Kind: CmdAim, Actor: id, Label: "Aim",
			Help:   "1 action: an aimed shot at the same target then gets +2; aiming three rounds in a row −1D more (firearms, crossbows).",
			Fields: []engine.Field{targetField(aimTargets)}})
	}
	if a, ok := strikeAction(st, v, f, true); ok {
		out = append(out, a)
	}
	if a, ok := strikeAction(st, v, f, false); ok {
		out = append(out, a)
	}
	if a, ok := areaAction(st, v, f); ok {
		out = append(out, a)
	}
	out = append(out, reloadActions(st, f)...)
	if canHide(st, f) == nil {
		out = append(out, engine.Action{Kind: CmdStealth, Actor: id, Label: "Hide (Stealth)",
			Help: fmt.Sprintf("%s: Stealth against every opponent's Perception (+ your cover). Hidden: only area fire hits you; twice in a row: they are unaware of you.",
				actionCount(kit.OptInt(b, OptStealthCost)))})
	}
	if unawareOfAll(st, f) {
		out = append(out, engine.Action{Kind: CmdSlipAway, Actor: id, Label: "Slip away", Help: "1 action: every opponent is unaware of you; leave the fight.", Danger: true})
	}
	if cost := kit.OptInt(b, OptAidActions); f.Actions >= cost {
		var aid []engine.Choice
		for _, c := range st.Combatants {
			t := st.Fighters[c.ID]
			if seen(c.ID) && (c.ID == id || inContact(f, t)) && bleeding(t) > 0 {
				aid = append(aid, engine.Choice{Value: c.ID, Label: fmt.Sprintf("%s (bleeding %d a round)", c.Name, bleeding(t))})
			}
		}
		if len(aid) > 0 {
			out = append(out, engine.Action{Kind: CmdFirstAid, Actor: id, Label: "First aid",
				Help:   fmt.Sprintf("%s, close contact: Medicine %dD stops the worst bleeding wound (a critical success every one).", actionCount(cost), kit.OptInt(b, OptAidDice)),
				Fields: []engine.Field{targetField(aid)}})
		}
	}
	if a, ok := duelAction(st, v, f); ok {
		out = append(out, a)
	}
	out = append(out, engine.Action{Kind: CmdEndTurn, Actor: id, Label: "End turn", Main: true, EndsTurn: true,
		Help: fmt.Sprintf("%s left unused.", actionCount(f.Actions))})
	return out
}

// moveChoices are where an ordinary move may take f.
func moveChoices(st *State, v engine.Viewer, f *Fighter) []engine.Choice {
	var out []engine.Choice
	cellChoice := func(p point) {
		diff, _ := impassable(st, f, p)
		label := p.Name() + cellWords(st, p)
		if diff > 0 {
			if f.Actions < 2 {
				return
			}
			label += " — impassable " + strconv.Itoa(diff) + "D, 2 actions"
		}
		out = append(out, engine.Choice{Value: p.String(), Label: label})
	}
	if f.Off {
		for y := 0; y < st.Height; y++ {
			for x := 0; x < st.Width; x++ {
				if st.onEdge(x, y) {
					cellChoice(point{x, y})
				}
			}
		}
		return out
	}
	for _, p := range st.ways(f.at()) {
		cellChoice(p)
	}
	for _, c := range st.Combatants {
		t := st.Fighters[c.ID]
		if c.ID == f.ID || c.Out || !engine.Visible(st, v, c.ID) || t.Off || t.at() != f.at() || inContact(f, t) || t.Unseen[f.ID] > 0 {
			continue
		}
		out = append(out, engine.Choice{Value: "contact:" + c.ID, Label: "Into close contact with " + c.Name})
	}
	if f.Group != "" {
		out = append(out, engine.Choice{Value: "leave", Label: "Out of close contact"})
	}
	if st.onEdge(f.X, f.Y) {
		out = append(out, engine.Choice{Value: "off", Label: "Off the map (Extreme range)"})
	}
	return out
}

// cellWords is a short description of a square for a choice label.
func cellWords(st *State, p point) string {
	c := st.cell(p.X, p.Y)
	var parts []string
	if c.Label != "" {
		parts = append(parts, c.Label)
	}
	if c.Dash > 0 && c.Impassable == 0 {
		parts = append(parts, "dash "+strconv.Itoa(c.Dash)+"D")
	}
	if c.Cover > 0 {
		parts = append(parts, "cover +"+strconv.Itoa(c.Cover)+"D")
	}
	if len(parts) == 0 {
		return ""
	}
	s := " — " + parts[0]
	for _, x := range parts[1:] {
		s += ", " + x
	}
	return s
}

// dashChoices are where a dash may take f.
func dashChoices(st *State, v engine.Viewer, f *Fighter) []engine.Choice {
	if f.Off || f.Actions < 2 {
		return nil
	}
	var out []engine.Choice
	for y := 0; y < st.Height; y++ {
		for x := 0; x < st.Width; x++ {
			p := point{x, y}
			if st.distance(f.at(), p) != 2 {
				continue
			}
			path := dashPath(st, f.at(), p)
			if path == nil {
				continue
			}
			out = append(out, engine.Choice{Value: p.String(), Label: p.Name() + cellWords(st, p) + dashWords(st, path)})
		}
	}
	for _, c := range st.Combatants {
		t := st.Fighters[c.ID]
		if c.ID == f.ID || c.Out || !engine.Visible(st, v, c.ID) || t.Off || st.distance(f.at(), t.at()) != 1 || t.Unseen[f.ID] > 0 {
			continue
		}
		if path := dashPath(st, f.at(), t.at()); path != nil {
			out = append(out, engine.Choice{Value: "contact:" + c.ID, Label: "Into close contact with " + c.Name + dashWords(st, path)})
		}
	}
	return out
}

// dashWords words a dash's terrain check.
func dashWords(st *State, path []point) string {
	diff := 0
	for i, p := range path {
		if kit.Opt(&st.Base, OptDashTerrain) == TerrainWorst || i == len(path)-1 {
			diff = max(diff, st.cell(p.X, p.Y).Dash)
		}
	}
	if diff == 0 {
		return ""
	}
	return " (terrain check " + strconv.Itoa(diff) + "D)"
}

// rangedChoices are f's loaded ranged weapons (area ones only, or all).
func rangedChoices(f *Fighter, area bool) []engine.Choice {
	var out []engine.Choice
	for i := range f.Weapons {
		w := &f.Weapons[i]
		if !w.Ranged() || !loaded(f, w) || (area && !w.Area) {
			continue
		}
		out = append(out, engine.Choice{Value: w.ID, Label: fmt.Sprintf("%s (%s, %s, optimal %s)", w.Name, skillName(w.Skill), w.Damage, bandsText(w.Optimal))})
	}
	return out
}

// strikeAction is a melee strike: at someone in close contact (contact),
// or with a long weapon at someone else in the same square.
func strikeAction(st *State, v engine.Viewer, f *Fighter, contact bool) (engine.Action, bool) {
	cost := kit.OptInt(&st.Base, OptMeleeActions)
	if f.Actions < cost {
		return engine.Action{}, false
	}
	var weapons []engine.Choice
	for _, w := range f.MeleeWeapons() {
		if contact || w.Long {
			weapons = append(weapons, engine.Choice{Value: w.ID, Label: fmt.Sprintf("%s (%s, %s)", w.Name, skillName(w.Skill), w.Damage)})
		}
	}
	var targets []engine.Choice
	for _, c := range st.Combatants {
		t := st.Fighters[c.ID]
		if !engine.Visible(st, v, c.ID) || !st.standing(c.ID) || !st.opponents(f.ID, c.ID) || t.Unseen[f.ID] > 0 {
			continue
		}
		if contact && inContact(f, t) || !contact && !inContact(f, t) && !f.Off && !t.Off && f.at() == t.at() {
			targets = append(targets, engine.Choice{Value: c.ID, Label: c.Name})
		}
	}
	if len(weapons) == 0 || len(targets) == 0 {
		return engine.Action{}, false
	}
	fields, ok := kit.Narrow([]engine.Field{{Name: "target", Label: "Target", Type: engine.FieldSelect, Options: targets, Target: true},
		{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: weapons},
		{Name: "called", Label: "Called strike at a hit location (+2D)", Type: engine.FieldCheckbox}},
		func(vals kit.Values) error {
			_, err := strikeRefusal(st, f, st.Fighters[vals.String("target")], vals.String("weapon"), vals.Bool("called"))
			return err
		})
	if !ok {
		return engine.Action{}, false
	}
	a := engine.Action{Kind: CmdStrike, Actor: f.ID, Label: "Strike", Main: true,
		Help:   fmt.Sprintf("%s: melee at %dD; the target may spend Defense Pool dice (+1D each).", actionCount(cost), kit.OptInt(&st.Base, OptMeleeDice)),
		Fields: fields}
	if !contact {
		a.Label, a.Main = "Strike with a long weapon", false
		a.Help = "A long weapon reaches anyone in the same band (square). " + a.Help
	}
	return a, true
}

// areaAction is area fire at a square with someone in it.
func areaAction(st *State, v engine.Viewer, f *Fighter) (engine.Action, bool) {
	weapons := rangedChoices(f, true)
	if len(weapons) == 0 || f.Off {
		return engine.Action{}, false
	}
	w := f.Weapon(weapons[0].Value)
	var cells []engine.Choice
	for y := 0; y < st.Height; y++ {
		for x := 0; x < st.Width; x++ {
			p := point{x, y}
			if _, _, err := planArea(st, f, w, p, false); err != nil {
				continue
			}
			n := 0
			for _, c := range st.Combatants {
				o := st.Fighters[c.ID]
				if c.ID != f.ID && !c.Out && !o.Off && o.at() == p && engine.Visible(st, v, c.ID) {
					n++
				}
			}
			if n > 0 {
				cells = append(cells, engine.Choice{Value: p.String(), Label: fmt.Sprintf("%s — %s, %s", p.Name(), BandName(st.distance(f.at(), p)), plural(n, "1 combatant", strconv.Itoa(n)+" combatants"))})
			}
		}
	}
	if len(cells) == 0 {
		return engine.Action{}, false
	}
	modes := []engine.Choice{{Value: ModeSnapshot, Label: "Snapshot (1 action, +1D)"}}
	if f.Actions >= 2 {
		modes = append([]engine.Choice{{Value: ModeAimed, Label: "Aimed (2 actions)"}}, modes...)
	}
	return engine.Action{Kind: CmdAreaFire, Actor: f.ID, Label: "Area fire",
		Help: "Rake a whole square at +2D: a hit affects everyone there as if hit by 3, hidden or not; everyone there takes a Terror check.",
		Fields: []engine.Field{{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: weapons},
			{Name: "cell", Label: "Square", Type: engine.FieldSelect, Options: cells},
			{Name: "mode", Label: "Fire", Type: engine.FieldSelect, Options: modes}}}, true
}

// reloadActions are reloading and quick loading.
func reloadActions(st *State, f *Fighter) []engine.Action {
	var all, quick []engine.Choice
	for i := range f.Weapons {
		w := &f.Weapons[i]
		if canReload(st, f, w) != nil {
			continue
		}
		l := f.Loads[w.ID]
		label := fmt.Sprintf("%s (%s)", w.Name, actionCount(w.Reload))
		switch {
		case l.Jammed && l.Need > 0:
			label = fmt.Sprintf("%s (jammed, clearing: %s to go)", w.Name, actionCount(l.Need))
		case l.Jammed:
			label = fmt.Sprintf("%s (jammed: %s to clear)", w.Name, actionCount(w.Reload))
		case l.Need > 0:
			label = fmt.Sprintf("%s (%s to go)", w.Name, actionCount(l.Need))
		}
		all = append(all, engine.Choice{Value: w.ID, Label: label})
		if canQuickLoad(f, w) {
			quick = append(quick, engine.Choice{Value: w.ID, Label: fmt.Sprintf("%s (%s, or %s on a success)", w.Name, actionCount(w.Reload), actionCount((w.Reload+1)/2))})
		}
	}
	var out []engine.Action
	if len(all) > 0 {
		out = append(out, engine.Action{Kind: CmdReload, Actor: f.ID, Label: "Reload",
			Help:   "Spends the actions the reload still needs, up to those left this turn; it carries on next turn.",
			Fields: []engine.Field{{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: all}}})
	}
	if len(quick) > 0 {
		out = append(out, engine.Action{Kind: CmdReload, Actor: f.ID, Label: "Quick-load",
			Help: "A 4D check: success halves the reload time, failure wastes half of it, a fumble jams the weapon, a critical success reloads at once.",
			Fields: []engine.Field{{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: quick},
				{Name: "quick", Label: "Quick loading", Type: engine.FieldCheckbox, Default: "true"}}})
	}
	return out
}

// duelAction is an Extreme range duel.
func duelAction(st *State, v engine.Viewer, f *Fighter) (engine.Action, bool) {
	if f.Actions < 2 {
		return engine.Action{}, false
	}
	var weapons []engine.Choice
	for i := range f.Weapons {
		w := &f.Weapons[i]
		if w.Extreme() > 0 && loaded(f, w) {
			weapons = append(weapons, engine.Choice{Value: w.ID, Label: fmt.Sprintf("%s (Extreme %dD)", w.Name, w.Extreme())})
		}
	}
	if len(weapons) == 0 {
		return engine.Action{}, false
	}
	w := f.Weapon(weapons[0].Value)
	var targets []engine.Choice
	for _, c := range st.Combatants {
		t := st.Fighters[c.ID]
		if engine.Visible(st, v, c.ID) && st.standing(c.ID) && canDuel(st, f, t, w) == nil {
			targets = append(targets, engine.Choice{Value: c.ID, Label: c.Name})
		}
	}
	if len(targets) == 0 {
		return engine.Action{}, false
	}
	return engine.Action{Kind: CmdDuel, Actor: f.ID, Label: "Extreme range duel",
		Help: "The rest of your turn: both sides secretly pick Stealth, Tactics or Perception and roll it; the winner takes a shot at 5D (Very Far weapons) or 6D (Far).",
		Fields: []engine.Field{{Name: "target", Label: "Target", Type: engine.FieldSelect, Options: targets, Target: true},
			{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: weapons}}}, true
}

// gmActions are the GM's commands, which name no actor.
func gmActions(st *State) []engine.Action {
	var fighters []engine.Choice
	for _, c := range st.Combatants {
		if !c.Out {
			fighters = append(fighters, engine.Choice{Value: c.ID, Label: c.Name})
		}
	}
	selectOf := func(fs []engine.Choice, name, label string) engine.Field {
		return engine.Field{Name: name, Label: label, Type: engine.FieldSelect, Options: fs}
	}
	var out []engine.Action
	choices := func(name string) []engine.Choice {
		for _, f := range cellFields {
			if f.Name == name {
				cs := make([]engine.Choice, len(f.Options))
				for i, o := range f.Options {
					cs[i] = engine.Choice{Value: o.Value, Label: o.Label}
				}
				return cs
			}
		}
		return nil
	}
	out = append(out, engine.Action{Kind: CmdSetCell, Label: "GM: change a square",
		Help: "Sets a square's terrain and cover now (fog rolls in, a barricade burns, a cliff gives cover or not).",
		Fields: []engine.Field{
			{Name: "x", Label: "Column (x)", Type: engine.FieldNumber, Min: 0, Max: st.Width - 1, Default: "0"},
			{Name: "y", Label: "Row (y)", Type: engine.FieldNumber, Min: 0, Max: st.Height - 1, Default: "0"},
			selectOf(choices("dash"), "dash", "Dash difficulty"),
			selectOf(choices("impassable"), "impassable", "Impassable"),
			{Name: "water", Label: "Water (Swimming)", Type: engine.FieldCheckbox},
			selectOf(choices("cover"), "cover", "Cover"),
			{Name: "blocks", Label: "Blocks line of sight", Type: engine.FieldCheckbox},
			{Name: "crowd", Label: "Crowd", Type: engine.FieldCheckbox},
			{Name: "label", Label: "Label", Type: engine.FieldString},
		}})
	if len(fighters) > 0 {
		out = append(out, engine.Action{Kind: CmdPlace, Label: "GM: place a combatant",
			Help: "Puts a combatant on a square (out of any close contact), or off the map at Extreme range.",
			Fields: []engine.Field{selectOf(fighters, "combatant", "Combatant"),
				{Name: "x", Label: "Column (x)", Type: engine.FieldNumber, Min: 0, Max: st.Width - 1, Default: "0"},
				{Name: "y", Label: "Row (y)", Type: engine.FieldNumber, Min: 0, Max: st.Height - 1, Default: "0"},
				{Name: "off", Label: "Off the map (Extreme range)", Type: engine.FieldCheckbox}}})
		out = append(out, engine.Action{Kind: CmdAdjust, Label: "GM: adjust a next check",
			Help: "A one-off ruling on the combatant's next check: −D makes it easier (shooting into a crowd is much easier), +2 to the skill too.",
			Fields: []engine.Field{selectOf(fighters, "combatant", "Combatant"),
				{Name: "dice", Label: "Dice (+ harder, − easier)", Type: engine.FieldNumber, Min: -3, Max: 3, Default: "-1"},
				{Name: "tn", Label: "Skill (+ easier)", Type: engine.FieldNumber, Min: -6, Max: 6, Default: "0"},
				{Name: "reason", Label: "Reason", Type: engine.FieldString}}})
	}
	return out
}
