package d20under

import (
	"fmt"
	"slices"
	"sort"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// actions are what v may do now: what v may do now, each select
// listing only legal choices. Before the first round: the declarations
// (and for the GM, surprise and the start); in the surprise phase: the
// ambushers' free attacks; on a turn: the combatant's combat actions,
// movement actions and free actions — a dying character's only action is
// its death test. The GM also gets the rulings. Nothing is offered while
// a decision waits.
func actions(st *State, v engine.Viewer) []engine.Action {
	if st.Status != engine.StatusRunning || st.Waiting() {
		return nil
	}
	var out []engine.Action
	switch st.Phase {
	case PhaseDeclare:
		for _, id := range st.Acting {
			if v.CanCommand(id) {
				out = append(out, st.declareActions(id)...)
			}
		}
	case PhaseSurprise:
		for _, id := range st.Acting {
			if !v.CanCommand(id) {
				continue
			}
			if targets := st.surpriseTargets(st.Fighters[id], v); len(targets) > 0 {
				out = append(out, engine.Action{Kind: CmdSurpriseHit, Actor: id, Label: "Surprise attack", Main: true,
					Help:   "One free attack on a surprised enemy, with the weapon in hand.",
					Fields: []engine.Field{targetField(targets)}})
			}
			out = append(out, engine.Action{Kind: CmdSurprisePass, Actor: id, Label: "Hold back"})
		}
	default:
		if cur := st.Current(); cur != "" && v.CanCommand(cur) {
			out = append(out, st.turnActions(st.Fighters[cur], v)...)
		}
	}
	if v.GM {
		out = append(out, st.gmActions()...)
	}
	return out
}

func targetField(options []engine.Choice) engine.Field {
	return engine.Field{Name: "target", Label: "Target", Type: engine.FieldSelect, Options: options, Target: true}
}

func payField(st *State, id string) engine.Field {
	var opts []engine.Choice
	for _, p := range st.budget(id) {
		opts = append(opts, engine.Choice{Value: p, Label: payLabel(p)})
	}
	return engine.Field{Name: "pay", Label: "Pay with", Type: engine.FieldSelect, Options: opts}
}

func (s *State) declareActions(id string) []engine.Action {
	f := s.Fighters[id]
	var out []engine.Action
	if f.Plan != PlanTakeInit {
		out = append(out, engine.Action{Kind: CmdTakeInit, Actor: id, Label: "Take the initiative",
			Help: "A Resolute test as the round begins: +5 to Quick for your place if it passes; pass or fail, a second chance to fail every test this round."})
	}
	if len(s.budget(id)) > 0 {
		out = append(out, engine.Action{Kind: CmdQuickStrike, Actor: id, Label: "Quick Strike (feat)",
			Help: "Act first in the round; several strikers keep their usual order.", Fields: []engine.Field{payField(s, id)}})
	}
	out = append(out, engine.Action{Kind: CmdDeclared, Actor: id, Label: "Ready", Main: true, Help: "Done declaring."})
	return out
}

// turnActions are the actions of the combatant whose turn it is.
func (s *State) turnActions(f *Fighter, v engine.Viewer) []engine.Action {
	id := f.ID
	c := s.Combatant(id)
	if c.Down {
		if f.Dying {
			return []engine.Action{{Kind: CmdDeathTest, Actor: id, Label: "Death test", Main: true,
				Help: fmt.Sprintf("d20 ≤ 10 passes; a 1 wakes you with 1d4 Toughness; the third failure kills (%d so far).", f.DeathFails)}}
		}
		return nil
	}
	var out []engine.Action
	out = append(out, s.combatActions(f, v)...)
	out = append(out, s.movementActions(f, v)...)
	if a, ok := s.itemAction(f, v); ok {
		out = append(out, a)
	}
	out = append(out, s.freeActions(f, v)...)
	out = append(out, engine.Action{Kind: CmdEndTurn, Actor: id, Label: "End turn", Main: true, EndsTurn: true,
		Fields: []engine.Field{{Name: "next", Label: "Next round", Type: engine.FieldSelect, Options: s.nextChoices(id), Default: "normal"}}})
	return out
}

func (s *State) combatActions(f *Fighter, v engine.Viewer) []engine.Action {
	id := f.ID
	if !f.Combat {
		return nil
	}
	var out []engine.Action
	cleanOpts := []engine.Choice{{Value: "", Label: "No"}}
	for _, p := range s.budget(id) {
		cleanOpts = append(cleanOpts, engine.Choice{Value: p, Label: "Clean Hit: maximum damage (" + payLabel(p) + ")"})
	}
	clean := engine.Field{Name: "clean", Label: "Feat", Type: engine.FieldSelect, Options: cleanOpts}
	aim := engine.Field{Name: "aim", Label: "Aim", Type: engine.FieldSelect, Options: aimChoices()}
	melee := s.meleeTargets(f, v)
	if len(melee) > 0 {
		var weapons []engine.Choice
		for _, w := range f.meleeWeapons() {
			weapons = append(weapons, engine.Choice{Value: w.ID, Label: fmt.Sprintf("%s (%s)", w.Name, w.DamageText())})
		}
		out = append(out, engine.Action{Kind: CmdAttack, Actor: id, Label: "Attack", Main: true,
			Help:   "Accurate against the target's Defense (an NPC's attack on you is your Defense against its Accurate).",
			Fields: []engine.Field{targetField(melee), {Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: weapons}, aim, clean}})
	}
	if w := f.weapon(); w.kind().Ranged && f.ready(w) == nil && alchemyGate(&f.Sheet, w.Type) != gateForbidden {
		if targets := s.rangedTargets(f, w, v); len(targets) > 0 {
			volleys := []engine.Choice{{Value: "", Label: "One shot"}}
			if f.Moves > 0 {
				volleys = append(volleys, engine.Choice{Value: VolleyCareful, Label: "Careful Aim: a second chance (your movement action)"})
			}
			for _, l := range s.rapidLevels(f, w) {
				n, _ := s.rapidShots(f, w, l)
				volleys = append(volleys, engine.Choice{Value: l, Label: fmt.Sprintf("Rapid Fire (%s): %d shots", l, n)})
			}
			fields := []engine.Field{targetField(targets), aim, {Name: "volley", Label: "Shots", Type: engine.FieldSelect, Options: volleys}, clean}
			if f.Special[w.ID] > 0 {
				fields = append(fields, engine.Field{Name: "special", Label: fmt.Sprintf("Special projectile (%d left)", f.Special[w.ID]), Type: engine.FieldCheckbox})
			}
			help := fmt.Sprintf("%s: %s damage.", w.Name, w.DamageText())
			if w.kind().Ammo {
				help += fmt.Sprintf(" Ammunition %d of 3: a miss takes 1, a 20 takes 2.", f.Ammo[w.ID])
			}
			if alchemyGate(&f.Sheet, w.Type) == gateRisky {
				help += " Untrained: a miss risks a mishap."
			}
			out = append(out, engine.Action{Kind: CmdShoot, Actor: id, Label: "Shoot", Main: true, Help: help, Fields: fields})
		}
	}
	if len(melee) > 0 && len(s.budget(id)) > 0 {
		if n := len(s.whirlwindTargets(f, v)); n > 0 {
			out = append(out, engine.Action{Kind: CmdWhirlwind, Actor: id, Label: fmt.Sprintf("Whirlwind (feat): attack all %d engaged", n),
				Fields: []engine.Field{payField(s, id)}})
		}
	}
	if len(melee) > 0 {
		var disarm, ko []engine.Choice
		for _, ch := range melee {
			if disarmable(s.Fighters[ch.Value]) {
				disarm = append(disarm, ch)
			}
			if s.advantage(id, ch.Value) != "" {
				ko = append(ko, ch)
			}
		}
		if len(disarm) > 0 {
			out = append(out, engine.Action{Kind: CmdDisarm, Actor: id, Label: "Disarm", Help: "Accurate against the foe's Strong: no damage; the foe drops its weapon or shield. A failure gives it a free attack.",
				Fields: []engine.Field{targetField(disarm)}})
		}
		out = append(out, engine.Action{Kind: CmdTackle, Actor: id, Label: "Tackle", Help: "Strong against the foe's Strong, Robust +2 a level: the foe falls; you fall too unless you pass a Quick test.",
			Fields: []engine.Field{targetField(melee)}})
		var hold []engine.Choice
		for _, ch := range melee {
			if s.Fighters[ch.Value].HeldBy == "" {
				hold = append(hold, ch)
			}
		}
		if len(hold) > 0 {
			out = append(out, engine.Action{Kind: CmdHold, Actor: id, Label: "Hold", Help: "Strong against the foe's Strong, Robust +2/+4/+8: the foe cannot move; tested each turn, and you do nothing else.",
				Fields: []engine.Field{targetField(hold)}})
		}
		if len(ko) > 0 {
			out = append(out, engine.Action{Kind: CmdKnockOut, Actor: id, Label: "Knock out", Help: "From an Advantage: 1d12 under the damage knocks the foe out; a miss loses a granted Advantage.",
				Fields: []engine.Field{targetField(ko)}})
		}
		if !f.Acted && f.Moves > 0 {
			out = append(out, engine.Action{Kind: CmdPushBack, Actor: id, Label: "Push back", Help: "Both actions: a hit deals half damage and drives the foe back; a miss gives it a free attack.",
				Fields: []engine.Field{targetField(melee)}})
		}
	}
	if !f.FullDefence {
		out = append(out, engine.Action{Kind: CmdFullDefence, Actor: id, Label: "Full Defence", Help: "A second chance on every defence until your next turn; no attacks."})
	}
	if f.Level(AbMedicus) > 0 {
		var patients []engine.Choice
		for _, a := range s.ids(func(x string) bool { return !s.enemies(id, x) && !s.Combatant(x).Out && engine.Visible(s, v, x) }) {
			g := s.Fighters[a]
			if s.nextTo(id, a) && (g.Toughness < g.MaxToughness || g.PoisonTurns > 0) {
				patients = append(patients, engine.Choice{Value: a, Label: fmt.Sprintf("%s (%d/%d)", s.NameOf(a), g.Toughness, g.MaxToughness)})
			}
		}
		if len(patients) > 0 {
			fields := []engine.Field{{Name: "target", Label: "Patient", Type: engine.FieldSelect, Options: patients, Target: true}}
			if f.Items[ItemHerbalCure] > 0 {
				fields = append(fields, engine.Field{Name: "cure", Label: "With a herbal cure", Type: engine.FieldCheckbox})
			}
			out = append(out, engine.Action{Kind: CmdFirstAid, Actor: id, Label: "First aid (Medicus)", Help: "A Cunning test: 1d4 Toughness.", Fields: fields})
		}
	}
	var poisonOpts, poisonWeapons []engine.Choice
	for _, p := range []string{ItemWeakPoison, ItemModeratePoison, ItemStrongPoison} {
		if f.Items[p] > 0 {
			poisonOpts = append(poisonOpts, engine.Choice{Value: p, Label: fmt.Sprintf("%s (%d)", label(p), f.Items[p])})
		}
	}
	for _, w := range f.Weapons {
		if !w.kind().Natural && !w.kind().Alchemical {
			poisonWeapons = append(poisonWeapons, engine.Choice{Value: w.ID, Label: w.Name})
		}
	}
	if len(poisonOpts) > 0 && len(poisonWeapons) > 0 {
		out = append(out, engine.Action{Kind: CmdPoison, Actor: id, Label: "Poison a weapon", Help: "A Cunning test; a 20 poisons you.",
			Fields: []engine.Field{{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: poisonWeapons},
				{Name: "poison", Label: "Poison", Type: engine.FieldSelect, Options: poisonOpts}}})
	}
	if a, ok := s.setTrapAction(f); ok {
		out = append(out, a)
	}
	if ts := s.disarmableTraps(f); len(ts) > 0 {
		out = append(out, engine.Action{Kind: CmdDisarmTrap, Actor: id, Label: "Disarm a trap",
			Fields: []engine.Field{{Name: "trap", Label: "Trap", Type: engine.FieldSelect, Options: s.trapChoices(ts)}}})
	}
	for _, p := range f.Powers {
		var targets []engine.Choice
		for _, x := range s.enemiesOfAll(id) {
			if !engine.Visible(s, v, x) {
				continue
			}
			if p == PowerCurse && s.Fighters[x].CursedBy != "" {
				continue
			}
			if s.canSpell(f, x) {
				targets = append(targets, engine.Choice{Value: x, Label: s.NameOf(x)})
			}
		}
		if len(targets) == 0 {
			continue
		}
		kind, help := CmdCurse, "Resolute against the victim's Resolute: a second chance to fail every test while you keep it up with your combat action. 1d4 temporary Corruption."
		if p == PowerQuake {
			kind, help = CmdQuake, "Resolute against the target's Defense: 1d8 damage, half on a passed defence. 1d4 temporary Corruption."
		}
		out = append(out, engine.Action{Kind: kind, Actor: id, Label: label(p), Help: help, Fields: []engine.Field{targetField(targets)}})
	}
	if f.Trait(TrTerrify) > 0 {
		var targets []engine.Choice
		for _, x := range s.enemiesOf(id) {
			if g := s.Fighters[x]; engine.Visible(s, v, x) && !g.Fearless && !g.Terrified {
				targets = append(targets, engine.Choice{Value: x, Label: s.NameOf(x)})
			}
		}
		if len(targets) > 0 {
			out = append(out, engine.Action{Kind: CmdTerrify, Actor: id, Label: "Terrify", Help: "Resolute against the victim's Resolute: the victim loses its next combat action.",
				Fields: []engine.Field{targetField(targets)}})
		}
	}
	if f.Caught != "" {
		out = append(out, engine.Action{Kind: CmdBreakFree, Actor: id, Label: "Break free of the trap", Main: true, Help: "A Strong test."})
	}
	return out
}

// enemiesOfAll lists id's enemies still in the fight (down ones too).
func (s *State) enemiesOfAll(id string) []string {
	return s.ids(func(x string) bool { return s.enemies(id, x) && !s.Combatant(x).Out })
}

// canSpell reports whether f can aim a power at x.
func (s *State) canSpell(f *Fighter, x string) bool {
	if f.FullDefence || f.cowedBy(x) || f.Holding != "" {
		return false
	}
	return s.Model != board.Grid || s.lineOfSight(f.ID, x) || s.adjacent(f.ID, x)
}

// itemAction is the use-item action: on oneself (a movement action), on
// an ally within reach (a combat action).
func (s *State) itemAction(f *Fighter, v engine.Viewer) (engine.Action, bool) {
	var items []engine.Choice
	for _, it := range []string{ItemHerbalCure, ItemAntidote} {
		if f.Items[it] > 0 {
			items = append(items, engine.Choice{Value: it, Label: fmt.Sprintf("%s (%d)", label(it), f.Items[it])})
		}
	}
	if len(items) == 0 || f.Holding != "" || f.HeldBy != "" {
		return engine.Action{}, false
	}
	var targets []engine.Choice
	if f.movesLeft() > 0 {
		targets = append(targets, engine.Choice{Value: f.ID, Label: "Yourself (a movement action)"})
	}
	if f.Combat {
		for _, a := range s.alliesOf(f.ID) {
			if engine.Visible(s, v, a) && s.nextTo(f.ID, a) {
				targets = append(targets, engine.Choice{Value: a, Label: s.NameOf(a) + " (a combat action)"})
			}
		}
		for _, a := range s.ids(func(x string) bool {
			return x != f.ID && !s.enemies(f.ID, x) && s.Combatant(x).Down && !s.Combatant(x).Out
		}) {
			if engine.Visible(s, v, a) && s.nextTo(f.ID, a) {
				targets = append(targets, engine.Choice{Value: a, Label: s.NameOf(a) + " (down; a combat action)"})
			}
		}
	}
	if len(targets) == 0 {
		return engine.Action{}, false
	}
	return engine.Action{Kind: CmdUseItem, Actor: f.ID, Label: "Use an elixir", Help: "A herbal cure heals 1 Toughness; an antidote ends a poison.",
		Fields: []engine.Field{{Name: "item", Label: "Elixir", Type: engine.FieldSelect, Options: items},
			{Name: "target", Label: "On", Type: engine.FieldSelect, Options: targets, Target: true}}}, true
}

func (s *State) setTrapAction(f *Fighter) (engine.Action, bool) {
	var items []engine.Choice
	for _, it := range []string{ItemMechanicalTrap, ItemAlchemicalMine} {
		if _, err := s.canSetTrap(f, it); err == nil {
			items = append(items, engine.Choice{Value: it, Label: fmt.Sprintf("%s (%d)", label(it), f.Items[it])})
		}
	}
	if len(items) == 0 {
		return engine.Action{}, false
	}
	fields := []engine.Field{{Name: "item", Label: "Trap", Type: engine.FieldSelect, Options: items}}
	if s.Model == board.Grid {
		var cells []engine.Choice
		for _, c := range s.trapCells(f) {
			cells = append(cells, engine.Choice{Value: c.String(), Label: cellWords(c)})
		}
		if len(cells) == 0 {
			return engine.Action{}, false
		}
		fields = append(fields, engine.Field{Name: "at", Label: "Square", Type: engine.FieldSelect, Options: cells, Place: true})
	}
	help := "A Cunning test."
	if f.Level(AbTrapper) == 0 {
		help += " Untrained: a 20 springs it on you."
	}
	return engine.Action{Kind: CmdSetTrap, Actor: f.ID, Label: "Set a trap", Help: help, Fields: fields}, true
}

func (s *State) movementActions(f *Fighter, v engine.Viewer) []engine.Action {
	id := f.ID
	var out []engine.Action
	left := f.movesLeft()
	if f.Prone && left > 0 && f.HeldBy == "" && f.Holding == "" {
		a := engine.Action{Kind: CmdStand, Actor: id, Label: "Stand up", Main: true, Help: "A movement action and a Quick test; failing it, the whole turn."}
		if f.Combat && f.Moves > 0 {
			a.Fields = []engine.Field{{Name: "whole", Label: "Take the whole turn instead (no test)", Type: engine.FieldCheckbox}}
		}
		out = append(out, a)
	}
	if f.Holding == "" && f.HeldBy == "" {
		var weapons []engine.Choice
		for _, w := range f.Weapons {
			if w.ID == f.Wielded && (f.Drawn || w.kind().Natural) {
				continue
			}
			free := w.kind().Short || f.Level(AbQuickDraw) > 0
			if !free && left == 0 {
				continue
			}
			lbl := fmt.Sprintf("%s (%s)", w.Name, label(w.Type))
			if free {
				lbl += ", free"
			}
			weapons = append(weapons, engine.Choice{Value: w.ID, Label: lbl})
		}
		if len(weapons) > 0 {
			out = append(out, engine.Action{Kind: CmdSwitch, Actor: id, Label: "Draw or switch weapon", Help: "A movement action; Short weapons and Quick Draw are free.",
				Fields: []engine.Field{{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: weapons}}})
		}
	}
	if s.movable(f) != nil || left == 0 {
		return out
	}
	if s.Model == board.Grid {
		return append(out, s.gridMoves(f, v)...)
	}
	return append(out, s.ladderMoves(f, v)...)
}

func (s *State) gridMoves(f *Fighter, v engine.Viewer) []engine.Action {
	id := f.ID
	var out []engine.Action
	left := f.movesLeft()
	one := s.reachable(f, s.gridSquares(f))
	two := s.reachable(f, 2*s.gridSquares(f))
	for n := 1; n <= min(2, left); n++ {
		routes := one
		if n == 2 {
			// Offer only what one movement action cannot reach.
			routes = map[Cell]route{}
			for c, r := range two {
				if _, near := one[c]; !near {
					routes[c] = r
				}
			}
		}
		if len(routes) == 0 {
			continue
		}
		cells := make([]Cell, 0, len(routes))
		for c := range routes {
			cells = append(cells, c)
		}
		sort.Slice(cells, func(i, j int) bool {
			if cells[i].Y != cells[j].Y {
				return cells[i].Y < cells[j].Y
			}
			return cells[i].X < cells[j].X
		})
		opts := make([]engine.Choice, len(cells))
		for i, c := range cells {
			opts[i] = engine.Choice{Value: c.String(), Label: s.moveLabel(f, c, routes[c])}
		}
		label, help := "Move", fmt.Sprintf("A movement action: up to %d squares.", s.gridSquares(f))
		if n == 2 {
			label, help = "Move far", "Both actions: the combat action traded for a second movement action."
		}
		out = append(out, engine.Action{Kind: CmdMove, Actor: id, Label: label, Help: help, Main: n == 1,
			Fields: []engine.Field{{Name: "to", Label: "To", Type: engine.FieldSelect, Options: opts, Place: true},
				{Name: "actions", Label: "Movement actions", Type: engine.FieldNumber, Default: fmt.Sprint(n), Min: n, Max: n}}})
	}
	var engage, flank, charge []engine.Choice
	for _, x := range s.enemiesOf(id) {
		if !engine.Visible(s, v, x) || s.inMelee(id, x) {
			continue
		}
		t := s.Fighters[x]
		if _, ok := s.engageRouteIn(one, f, t, false); ok {
			engage = append(engage, engine.Choice{Value: x, Label: s.NameOf(x)})
		}
		if len(s.allyFighting(id, x)) > 0 {
			if _, ok := s.engageRouteIn(one, f, t, true); ok {
				flank = append(flank, engine.Choice{Value: x, Label: s.NameOf(x)})
			}
		}
		if s.canChargeIn(two, f, t) == nil {
			charge = append(charge, engine.Choice{Value: x, Label: s.NameOf(x)})
		}
	}
	return append(out, s.engageActions(id, engage, flank, charge, nil)...)
}

func (s *State) engageActions(id string, engage, flank, charge []engine.Choice, past []engine.Choice) []engine.Action {
	var out []engine.Action
	if len(engage) > 0 {
		fields := []engine.Field{targetField(engage)}
		if len(past) > 0 {
			fields = append(fields, engine.Field{Name: "past", Label: "Moving past", Type: engine.FieldSelect, Options: past})
		}
		out = append(out, engine.Action{Kind: CmdEngage, Actor: id, Label: "Engage", Main: true,
			Help: "A movement action into melee. Enemies you leave or pass get free attacks; a long weapon may strike as you close.", Fields: fields})
	}
	if len(flank) > 0 {
		out = append(out, engine.Action{Kind: CmdFlank, Actor: id, Label: "Flank", Help: "Engage an enemy already fighting an ally, from the other side: Advantage for both of you.",
			Fields: []engine.Field{targetField(flank)}})
	}
	if len(charge) > 0 {
		out = append(out, engine.Action{Kind: CmdCharge, Actor: id, Label: "Charge", Help: "The whole turn: a double move in a straight line and an attack; a miss gives the target a free attack.",
			Fields: []engine.Field{targetField(charge)}})
	}
	return out
}

// moveLabel describes a destination: the free attacks it provokes and
// whom it engages.
func (s *State) moveLabel(f *Fighter, c Cell, r route) string {
	start := Cell{f.X, f.Y}
	withdraw, past, engage := 0, 0, 0
	for _, e := range s.enemiesOf(f.ID) {
		g := s.Fighters[e]
		nearStart := s.touching(Cell{g.X, g.Y}, start)
		nearDest := s.touching(Cell{g.X, g.Y}, c)
		switch {
		case nearStart && !nearDest:
			withdraw++
		case nearDest && !nearStart:
			engage++
		case !nearStart && !nearDest && slices.ContainsFunc(r.Path[:len(r.Path)-1], func(p Cell) bool { return s.touching(Cell{g.X, g.Y}, p) }):
			past++
		}
	}
	lbl := cellWords(c)
	var notes []string
	if withdraw+past > 0 {
		notes = append(notes, fmt.Sprintf("%d free attack(s)", withdraw+past))
	}
	if engage > 0 {
		notes = append(notes, "engages")
	}
	if s.trapAtKnown(c, s.side(f.ID)) {
		notes = append(notes, "trap")
	}
	if len(notes) > 0 {
		lbl += " — " + joinWords(notes)
	}
	return lbl
}

// trapAtKnown reports a trap side knows of on c.
func (s *State) trapAtKnown(c Cell, side string) bool {
	t := s.trapAt(c)
	return t != nil && t.known(side)
}

func (s *State) ladderMoves(f *Fighter, v engine.Viewer) []engine.Action {
	id := f.ID
	var out []engine.Action
	engaged := s.engaged(id)
	if engaged {
		out = append(out, engine.Action{Kind: CmdWithdraw, Actor: id, Label: "Withdraw", Help: "A movement action out of the melee: each enemy engaged gets a free attack.",
			Fields: []engine.Field{{Name: "back", Label: "And fall back a move", Type: engine.FieldCheckbox}}})
	} else if ladderCost(f) <= f.movesLeft() {
		var toward, away []engine.Choice
		for _, sd := range s.Sides {
			if sd.ID == s.side(id) || len(s.ids(func(x string) bool { return s.side(x) == sd.ID && s.fighting(x) })) == 0 {
				continue
			}
			if s.canStep(f, sd.ID, 1) == nil {
				toward = append(toward, engine.Choice{Value: sd.ID, Label: sd.Name})
			}
			if s.canStep(f, sd.ID, -1) == nil {
				away = append(away, engine.Choice{Value: sd.ID, Label: sd.Name})
			}
		}
		if len(toward) > 0 {
			out = append(out, engine.Action{Kind: CmdAdvance, Actor: id, Label: "Advance", Main: true, Help: "One move closer to a side.",
				Fields: []engine.Field{{Name: "side", Label: "Toward", Type: engine.FieldSelect, Options: toward}}})
		}
		if len(away) > 0 {
			out = append(out, engine.Action{Kind: CmdRetreat, Actor: id, Label: "Fall back", Help: "One move away from a side.",
				Fields: []engine.Field{{Name: "side", Label: "Away from", Type: engine.FieldSelect, Options: away}}})
		}
	}
	var engage, flank, charge []engine.Choice
	for _, x := range s.enemiesOf(id) {
		if !engine.Visible(s, v, x) || s.inMelee(id, x) || len(s.attackersAround(x)) >= 4 {
			continue
		}
		m := s.moves(id, x)
		cost := 1
		if m == 1 {
			cost = ladderCost(f)
		}
		if m <= 1 && cost <= f.movesLeft() {
			lbl := fmt.Sprintf("%s (%s)", s.NameOf(x), rungs[rungOf(m)].Name)
			engage = append(engage, engine.Choice{Value: x, Label: lbl})
			if len(s.allyFighting(id, x)) > 0 {
				flank = append(flank, engine.Choice{Value: x, Label: lbl})
			}
		}
		if s.canCharge(f, s.Fighters[x]) == nil {
			charge = append(charge, engine.Choice{Value: x, Label: fmt.Sprintf("%s (%s)", s.NameOf(x), movesWords(m))})
		}
	}
	var past []engine.Choice
	if len(engage) > 0 {
		past = append(past, engine.Choice{Value: "", Label: "No one"})
		for _, x := range s.pastChoices(f) {
			if engine.Visible(s, v, x) {
				past = append(past, engine.Choice{Value: x, Label: s.NameOf(x) + " (a free attack)"})
			}
		}
		if len(past) == 1 {
			past = nil
		}
	}
	return append(out, s.engageActions(id, engage, flank, charge, past)...)
}

func (s *State) freeActions(f *Fighter, v engine.Viewer) []engine.Action {
	id := f.ID
	var out []engine.Action
	if f.Combat && !f.FullOffense && !f.FullDefence && len(s.meleeTargets(f, v)) > 0 {
		out = append(out, engine.Action{Kind: CmdFullOffense, Actor: id, Label: "Full Offense",
			Help: "Free, before attacking: a second chance on melee attacks, a second chance to fail defences, until your next turn."})
	}
	if len(s.budget(id)) > 0 {
		feats := []struct {
			feat, label, help string
			ok                bool
		}{
			{FeatIgnoreCorruption, "Ignore Corruption", "For the rest of the round your tests ignore your Corruption.", !f.IgnoreCorruption && f.totalCorruption() > 0},
			{FeatResilience, "Resilience", "+1d4 Armour for the rest of the round.", f.Resilience == 0},
			{FeatFearless, "Fearless", "Horror, such as Terrify, has no hold on you this scene.", !f.Fearless},
			{FeatPrepared, "Prepared", "An item or piece of lore: +1 on relevant non-combat tests for the scene (the GM agrees).", f.Prepared == ""},
		}
		for _, ft := range feats {
			if !ft.ok {
				continue
			}
			fields := []engine.Field{{Name: "feat", Label: "Feat", Type: engine.FieldSelect, Options: []engine.Choice{{Value: ft.feat, Label: ft.label}}}, payField(s, id)}
			if ft.feat == FeatPrepared {
				fields = append(fields, engine.Field{Name: "what", Label: "What", Type: engine.FieldString, Default: preparedDefault})
			}
			out = append(out, engine.Action{Kind: CmdFeat, Actor: id, Label: "Feat: " + ft.label, Help: ft.help, Fields: fields})
		}
		var gaze []engine.Choice
		for _, x := range s.enemiesOf(id) {
			if engine.Visible(s, v, x) && !s.Fighters[x].cowedBy(id) {
				gaze = append(gaze, engine.Choice{Value: x, Label: s.NameOf(x)})
			}
		}
		if len(gaze) > 0 {
			out = append(out, engine.Action{Kind: CmdSteelyGaze, Actor: id, Label: "Feat: Steely Gaze", Help: "An enemy steps back and refrains from attacking you, as the GM rules.",
				Fields: []engine.Field{targetField(gaze), payField(s, id)}})
		}
	}
	if f.Holding != "" {
		out = append(out, engine.Action{Kind: CmdRelease, Actor: id, Label: "Let go of " + s.PublicNameOf(f.Holding)})
	}
	if f.Cursing != "" {
		out = append(out, engine.Action{Kind: CmdEndCurse, Actor: id, Label: "Lift the curse on " + s.PublicNameOf(f.Cursing)})
	}
	if !f.Acted {
		if later := s.laterChoices(f, v); len(later) > 0 {
			out = append(out, engine.Action{Kind: CmdDelay, Actor: id, Label: "Delay", Help: "Act after someone later this round; next round you are back in your place.",
				Fields: []engine.Field{{Name: "after", Label: "Act", Type: engine.FieldSelect, Options: later}}})
			if s.Round == 1 {
				out = append(out, engine.Action{Kind: CmdWait, Actor: id, Label: "Take a later place for good", Help: "Only now, in the first round: from now on you act after them.",
					Fields: []engine.Field{{Name: "after", Label: "Act", Type: engine.FieldSelect, Options: later}}})
			}
		}
	}
	return out
}

func (s *State) gmActions() []engine.Action {
	var out []engine.Action
	var sides []engine.Choice
	for _, sd := range s.Sides {
		sides = append(sides, engine.Choice{Value: sd.ID, Label: sd.Name})
	}
	switch s.Phase {
	case PhaseDeclare:
		out = append(out, engine.Action{Kind: GMBegin, Label: "GM: begin the first round", Main: true, Help: "Everyone who has not declared acts as usual."})
		if !s.SurpriseTried {
			var ambush []engine.Choice
			for _, a := range s.Sides {
				for _, b := range s.Sides {
					if a.ID != b.ID {
						ambush = append(ambush, engine.Choice{Value: a.ID + ">" + b.ID, Label: a.Name + " surprise " + b.Name})
					}
				}
			}
			out = append(out, engine.Action{Kind: GMSurprise, Label: "GM: surprise", Help: "The attackers' lowest Discreet against the defenders' highest Vigilant.",
				Fields: []engine.Field{{Name: "ambush", Label: "Who surprises whom", Type: engine.FieldSelect, Options: ambush}}})
		}
	case PhaseSurprise:
		out = append(out, engine.Action{Kind: GMEndSurpise, Label: "GM: end the surprise", Help: "Ambushers who have not struck lose the chance."})
	}
	var all []engine.Choice
	for _, c := range s.Combatants {
		if !c.Out {
			all = append(all, engine.Choice{Value: c.ID, Label: c.Name})
		}
	}
	if s.Model == board.Ladder && len(sides) >= 2 {
		var rungOpts []engine.Choice
		for _, r := range rungs {
			rungOpts = append(rungOpts, engine.Choice{Value: r.Name, Label: r.Name})
		}
		// One select of pairs: two selects of sides would offer a side
		// against itself.
		var pairs []engine.Choice
		for i, a := range s.Sides {
			for _, b := range s.Sides[i+1:] {
				pairs = append(pairs, engine.Choice{Value: a.ID + "+" + b.ID, Label: a.Name + " and " + b.Name})
			}
		}
		out = append(out, engine.Action{Kind: GMDistance, Label: "GM: set a distance", Help: "Between two sides; everyone returns to their side's line.",
			Fields: []engine.Field{{Name: "sides", Label: "Between", Type: engine.FieldSelect, Options: pairs},
				{Name: "rung", Label: "Distance", Type: engine.FieldSelect, Options: rungOpts}}})
	}
	if len(all) == 0 {
		return out
	}
	conds := gmConditionChoices
	out = append(out,
		engine.Action{Kind: GMCondition, Label: "GM: set a condition", Help: "Blindness and darkness, a fall, Critical Damage …",
			Fields: []engine.Field{{Name: "combatant", Label: "Combatant", Type: engine.FieldSelect, Options: all, Target: true},
				{Name: "condition", Label: "Condition", Type: engine.FieldSelect, Options: conds},
				{Name: "on", Label: "On", Type: engine.FieldCheckbox, Default: "true"}}},
		engine.Action{Kind: GMAdjust, Label: "GM: adjust a value", Help: "Toughness, Experience, Corruption or an item.",
			Fields: []engine.Field{{Name: "combatant", Label: "Combatant", Type: engine.FieldSelect, Options: all, Target: true},
				{Name: "what", Label: "Value", Type: engine.FieldSelect, Options: s.adjustable()},
				{Name: "value", Label: "To", Type: engine.FieldNumber, Min: 0, Max: 999}}})
	if ammo := s.ammunition(); len(ammo) > 0 {
		out = append(out, engine.Action{Kind: GMAmmo, Label: "GM: set ammunition", Help: "What is left in a quiver (0–3) or of thrown weapons.",
			Fields: []engine.Field{{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: ammo},
				{Name: "value", Label: "To", Type: engine.FieldNumber, Min: 0, Max: 99}}})
	}
	if cur := s.Current(); cur != "" && s.Phase == "" && s.fighting(cur) {
		var over []engine.Choice
		for _, x := range s.enemiesOfAll(cur) {
			if s.Fighters[cur].Edge[x] == 0 {
				over = append(over, engine.Choice{Value: x, Label: s.NameOf(x)})
			}
		}
		if len(over) > 0 {
			out = append(out, engine.Action{Kind: GMAdvantage, Label: "GM: grant " + s.NameOf(cur) + " an Advantage",
				Help: "+2 and +1d4 damage against that enemy until the round ends (high ground, an opening, an attack from hiding).",
				Fields: []engine.Field{{Name: "attacker", Label: "Who", Type: engine.FieldSelect, Options: []engine.Choice{{Value: cur, Label: s.NameOf(cur)}}},
					{Name: "target", Label: "Over", Type: engine.FieldSelect, Options: over, Target: true}}})
		}
	}
	kinds := []engine.Choice{{Value: TrapMechanical, Label: "Mechanical trap (1d10, holds)"}, {Value: TrapMine, Label: "Alchemical mine (1d12)"},
		{Value: TrapImprovised, Label: "Improvised trap (1d6)"}}
	trap := engine.Action{Kind: GMPlaceTrap, Label: "GM: hide a trap", Help: "Players learn of it when someone finds it."}
	if s.Model == board.Grid {
		var squares []engine.Choice
		for y := 0; y < s.Grid.Height; y++ {
			for x := 0; x < s.Grid.Width; x++ {
				if c := (Cell{x, y}); s.trapSquare(c) {
					squares = append(squares, engine.Choice{Value: c.String(), Label: cellWords(c)})
				}
			}
		}
		if len(squares) == 0 {
			return out
		}
		trap.Fields = []engine.Field{{Name: "square", Label: "Square", Type: engine.FieldSelect, Options: squares, Place: true}}
	} else {
		trap.Fields = []engine.Field{{Name: "guards", Label: "Before the line of", Type: engine.FieldSelect, Options: sides}}
	}
	trap.Fields = append(trap.Fields,
		engine.Field{Name: "trap", Label: "Trap", Type: engine.FieldSelect, Options: kinds},
		engine.Field{Name: "holds", Label: "Holds its victim", Type: engine.FieldCheckbox},
		engine.Field{Name: "discreet", Label: "Discreet (to find it)", Type: engine.FieldNumber, Default: "10", Min: 5, Max: 15},
		engine.Field{Name: "cunning", Label: "Cunning (to jump or disarm it)", Type: engine.FieldNumber, Default: "10", Min: 5, Max: 15})
	return append(out, trap)
}

func joinWords(ws []string) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += ", "
		}
		out += w
	}
	return out
}
