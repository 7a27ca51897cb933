package d20tactical

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// actions are what v may do now: what v may do now. Whoever has the
// floor gets the actions legal for them, each select listing only legal
// choices (squares as "x,y"); a fighter with an action readied "at any
// moment" may interrupt someone else's turn; the GM gets the rulings.
// Nothing is offered while a decision waits.
func actions(st *State, v engine.Viewer) []engine.Action {
	if st.Status != engine.StatusRunning || st.Waiting() {
		return nil
	}
	var out []engine.Action
	for _, id := range st.Acting {
		if v.CanCommand(id) && st.able(id) {
			out = append(out, turnActions(st, v, st.Fighters[id])...)
		}
	}
	for _, c := range st.Combatants {
		f := st.Fighters[c.ID]
		if v.CanCommand(c.ID) && canInterrupt(st, f) == nil {
			out = append(out, engine.Action{Kind: CmdInterrupt, Actor: c.ID, Label: "Take the readied action now",
				Help: fmt.Sprintf("%s acts now (a %s action), before %s goes on.", c.Name, f.Ready.Action, st.PublicNameOf(st.Current()))})
		}
	}
	if v.GM {
		out = append(out, gmActions(st)...)
	}
	return out
}

func turnActions(st *State, v engine.Viewer, f *Fighter) []engine.Action {
	id := f.ID
	var out []engine.Action
	b := f.Budget
	// Attacks.
	if b.Standard {
		out = append(out, attackActions(st, v, f, CmdAttack)...)
	}
	if iterations(f) > 1 && b.canFull(true) {
		out = append(out, attackActions(st, v, f, CmdFullAttack)...)
	}
	if canCharge(st, f) == nil {
		if a, ok := chargeAction(st, v, f); ok {
			out = append(out, a)
		}
	}
	// Movement.
	if canMove(st, f) == nil {
		if rs := moveReach(st, f, false); len(rs) > 0 {
			help := fmt.Sprintf("Up to %d ft a move action; further uses the standard action too (double move).", f.Speed())
			if f.Speed() == 0 {
				help = "Hurt legs: 5 ft for the full round."
			} else if f.Posture == Prone {
				help = "Prone: crawl one square per move action."
			}
			out = append(out, engine.Action{Kind: CmdMove, Actor: id, Label: "Move", Main: true, Help: help,
				Fields: []engine.Field{{Name: "to", Label: "To", Type: engine.FieldSelect, Options: routeChoices(st, f, rs, func(r Route) string { return moveLabel(st, f, r) }), Place: true}}})
		}
	}
	if rs := stepRoutes(st, f); len(rs) > 0 {
		out = append(out, engine.Action{Kind: CmdStep, Actor: id, Label: "5-ft step", Help: "One square, free; provokes nothing; no other movement this turn.",
			Fields: []engine.Field{{Name: "to", Label: "To", Type: engine.FieldSelect, Options: routeChoices(st, f, rs, func(r Route) string { return r.To.Name() }), Place: true}}})
	}
	if rs := runRoutes(st, f); len(rs) > 0 {
		help := fmt.Sprintf("The full round: up to %d ft in a straight line.", RunMultiplier*f.Speed())
		if f.RunStreak > 0 {
			help += fmt.Sprintf(" Running again: Endurance DC %d.", kit.OptInt(&st.Base, OptEnduranceDC)+kit.OptInt(&st.Base, OptEnduranceStep)*(f.RunStreak-1))
		}
		out = append(out, engine.Action{Kind: CmdRun, Actor: id, Label: "Run", Help: help,
			Fields: []engine.Field{{Name: "to", Label: "To", Type: engine.FieldSelect, Options: routeChoices(st, f, rs, func(r Route) string { return runLabel(f, r) }), Place: true}}})
	}
	if cs := postureChoices(st, f); len(cs) > 0 {
		out = append(out, engine.Action{Kind: CmdPosture, Actor: id, Label: "Change posture", Help: "Crouch or stand: 5 ft. Prone: 5 ft from a crouch, 10 ft from standing.",
			Fields: []engine.Field{{Name: "to", Label: "Posture", Type: engine.FieldSelect, Options: cs}}})
	}
	if js := jumpChoices(st, f); len(js) > 0 {
		var cs []engine.Choice
		for _, c := range sortedCells(js) {
			cs = append(cs, engine.Choice{Value: c.String(), Label: jumpLabel(st, js[c])})
		}
		out = append(out, engine.Action{Kind: CmdJump, Actor: id, Label: "Jump", Help: "10 ft of movement and a Jump check; failing, you fall prone.",
			Fields: []engine.Field{{Name: "over", Label: "Over", Type: engine.FieldSelect, Options: cs, Place: true}}})
	}
	// Weapons and the wounded.
	if b.Move || b.Standard {
		var reload, jammed []engine.Choice
		for _, w := range f.Weapons {
			if canHandle(st, f, CmdReload, w.ID) == nil {
				reload = append(reload, engine.Choice{Value: w.ID, Label: fmt.Sprintf("%s (%d of %d)", w.Name, w.Ammo, w.Clip)})
			}
			if canHandle(st, f, CmdClearJam, w.ID) == nil {
				jammed = append(jammed, engine.Choice{Value: w.ID, Label: w.Name})
			}
		}
		if len(reload) > 0 {
			out = append(out, engine.Action{Kind: CmdReload, Actor: id, Label: "Reload", Help: "A move action; provokes attacks of opportunity.",
				Fields: []engine.Field{{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: reload}}})
		}
		if len(jammed) > 0 {
			out = append(out, engine.Action{Kind: CmdClearJam, Actor: id, Label: "Clear a jam", Help: "A move action; provokes attacks of opportunity.",
				Fields: []engine.Field{{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: jammed}}})
		}
		if f.Dropped {
			out = append(out, engine.Action{Kind: CmdPickUp, Actor: id, Label: "Pick up your weapons", Help: "A move action; provokes attacks of opportunity."})
		}
	}
	if ts := treatTargets(st, v, f); len(ts) > 0 {
		out = append(out, engine.Action{Kind: CmdTreat, Actor: id, Label: "Stabilise a dying combatant",
			Help:   fmt.Sprintf("A standard action: Treat Injury (%+d) against DC %d.", treatBonus(f), TreatDC),
			Fields: []engine.Field{{Name: "target", Label: "Who", Type: engine.FieldSelect, Options: ts, Target: true}}})
	}
	if b.Standard {
		if a, ok := objectAction(st, f); ok {
			out = append(out, a)
		}
	}
	// The turn.
	if canDelayOrReady(st, f) == nil {
		if cs := delayChoices(st, v, f); len(cs) > 0 && b.untouched() {
			out = append(out, engine.Action{Kind: CmdDelay, Actor: id, Label: "Delay", Help: "Act later this round; the order changes for good.",
				Fields: []engine.Field{{Name: "after", Label: "Until", Type: engine.FieldSelect, Options: cs}}})
		}
		if b.Standard && !b.Single {
			out = append(out, engine.Action{Kind: CmdReady, Actor: id, Label: "Ready an action",
				Help: "Spend the standard action to act later, at a trigger, before your next turn; you then act just before whoever set it off.",
				Fields: []engine.Field{
					{Name: "action", Label: "Action", Type: engine.FieldSelect, Options: []engine.Choice{{Value: "standard", Label: "A standard action (attack)"}, {Value: "move", Label: "A move action"}}},
					{Name: "trigger", Label: "When", Type: engine.FieldSelect, Options: []engine.Choice{
						{Value: TriggerMove, Label: "An opponent in sight moves"}, {Value: TriggerAttack, Label: "An opponent in sight attacks"},
						{Value: TriggerAny, Label: "Whenever I choose"}}},
				}})
		}
	}
	out = append(out, engine.Action{Kind: CmdEndTurn, Actor: id, Label: "End turn", Main: true, EndsTurn: true})
	return out
}

// usable are f's weapons it could attack with now (the unarmed strike
// last).
func usable(st *State, f *Fighter, melee bool) []*Weapon {
	var out []*Weapon
	for _, w := range append(append([]*Weapon{}, f.Weapons...), f.Weapon(unarmed.ID)) {
		if melee && w.Ranged() {
			continue
		}
		if checkAttack(st, f, nil, w, attackSpec{Attacker: f.ID, Weapon: w.ID}) == nil {
			out = append(out, w)
		}
	}
	return out
}

func weaponLabel(w *Weapon) string {
	var parts []string
	parts = append(parts, w.Damage)
	if w.Ranged() {
		parts = append(parts, fmt.Sprintf("%d ft increment", w.Range))
	} else if w.ReachFeet() > Square {
		parts = append(parts, fmt.Sprintf("reach %d ft", w.ReachFeet()))
	}
	if w.Auto {
		parts = append(parts, "auto")
	} else if w.Burst {
		parts = append(parts, "burst")
	}
	if w.Clip > 0 {
		parts = append(parts, fmt.Sprintf("%d/%d rounds", w.Ammo, w.Clip))
	}
	return fmt.Sprintf("%s (%s)", w.Name, strings.Join(parts, ", "))
}

// attackActions are the attack (or full attack) actions, two per weapon
// that can reach an opponent now: a plain attack — its targets and fire
// modes — and an aimed one, at the targets near enough for it. Each form
// is narrowed with the attack's own refusals (attackRefusal): an aimed shot is
// a single shot at Medium range or nearer, so no form offers an aimed
// burst, nor an aimed shot at a target too far. The first is a main
// action.
func attackActions(st *State, v engine.Viewer, f *Fighter, kind string) []engine.Action {
	var out []engine.Action
	full := kind == CmdFullAttack
	for _, w := range usable(st, f, false) {
		// The targets a plain attack reaches (a fire mode or an aim only
		// refuses more: the forms narrow on from here), labelled once
		// narrowed.
		var targets []engine.Choice
		for _, c := range st.Combatants {
			if c.Out || !st.opponents(f.ID, c.ID) || !engine.Visible(st, v, c.ID) {
				continue
			}
			if _, err := attackRefusal(st, f, st.Fighters[c.ID], attackArgs{Target: c.ID, Weapon: w.ID}, full); err == nil {
				targets = append(targets, engine.Choice{Value: c.ID})
			}
		}
		if len(targets) == 0 {
			continue
		}
		check := func(vals kit.Values) error {
			t := st.Fighters[vals.String("target")]
			_, err := attackRefusal(st, f, t, attackArgs{Target: t.ID, Weapon: w.ID, Shots: flexInt(vals.Int("shots")), Aim: vals.String("aim")}, full)
			return err
		}
		fields := []engine.Field{
			{Name: "target", Label: "Target", Type: engine.FieldSelect, Options: targets, Target: true},
			{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: []engine.Choice{{Value: w.ID, Label: weaponLabel(w)}}, Default: w.ID},
		}
		plain := fields
		if cs := shotChoices(w); !full && len(cs) > 1 {
			plain = append(slices.Clip(fields), engine.Field{Name: "shots", Label: "Fire", Type: engine.FieldSelect, Options: cs, Default: "1"})
		}
		labels := map[string]string{} // each target's, made once for both forms
		labelled := func(fields []engine.Field) []engine.Field {
			ts := slices.Clone(fields[0].Options)
			for i, c := range ts {
				l, ok := labels[c.Value]
				if !ok {
					l = targetLabel(st, f, st.Fighters[c.Value], w)
					labels[c.Value] = l
				}
				ts[i].Label = l
			}
			fields = slices.Clone(fields)
			fields[0].Options = ts
			return fields
		}
		if plain, ok := kit.Narrow(plain, check); ok {
			plain = labelled(plain)
			a := engine.Action{Kind: kind, Actor: f.ID, Label: "Attack: " + w.Name, Main: len(out) == 0, Fields: plain,
				Help: "d20 + attack bonus against Defense; a burst or automatic fire is −1 per extra shot, one roll."}
			if full {
				a.Label, a.Main = fmt.Sprintf("Full attack: %s (%d attacks)", w.Name, iterations(f)), false
				a.Help = "The full round: one attack per +5 of base attack bonus, each 5 lower; single shots."
			}
			out = append(out, a)
		}
		aimed := append(slices.Clip(fields), engine.Field{Name: "aim", Label: "Aim at", Type: engine.FieldSelect, Options: aimChoices})
		if aimed, ok := kit.Narrow(aimed, check); ok {
			aimed = labelled(aimed)
			a := engine.Action{Kind: kind, Actor: f.ID, Label: "Aimed attack: " + w.Name, Fields: aimed,
				Help: "A single shot within Medium range: −4 to hit (−6 at the head or groin), no critical, half damage but at the head and back torso; the armour there may stop it."}
			if full {
				a.Label = fmt.Sprintf("Aimed full attack: %s (%d attacks)", w.Name, iterations(f))
				a.Help = "The full round: one aimed attack per +5 of base attack bonus, each 5 lower; single shots within Medium range."
			}
			out = append(out, a)
		}
	}
	return out
}

// shotChoices are the fire modes of w with the rounds it has left: a
// single shot, bursts, automatic fire.
func shotChoices(w *Weapon) []engine.Choice {
	shots := w.MaxShots()
	if w.Clip > 0 {
		shots = min(shots, w.Ammo)
	}
	var cs []engine.Choice
	for n := 1; n <= shots; n++ {
		label := "Single shot"
		switch {
		case n > MaxBurst:
			label = fmt.Sprintf("Automatic fire, %d shots (−%d)", n, n-1)
		case n > 1:
			label = fmt.Sprintf("Burst of %d (−%d)", n, n-1)
		}
		cs = append(cs, engine.Choice{Value: strconv.Itoa(n), Label: label})
	}
	return cs
}

// targetLabel names a target with its distance, range band and what
// stands out.
func targetLabel(st *State, f, t *Fighter, w *Weapon) string {
	d := distance(&st.Base, cell(f), cell(t))
	label := fmt.Sprintf("%s (%d ft", st.NameOf(t.ID), d)
	if w != nil && w.Ranged() {
		if band, ok := rangeBand(&st.Base, w, d); ok {
			label += ", " + strings.ToLower(bandNames[band])
		}
	}
	if t.Posture != Standing {
		label += ", " + t.Posture
	}
	if t.Down() {
		label += ", down"
	}
	return label + ")"
}

// chargeAction is the charge form: the opponents in sight and the melee
// weapons, narrowed with the charge's own refusals (chargeRefusal), so
// every target offered can be charged with every weapon offered.
func chargeAction(st *State, v engine.Viewer, f *Fighter) (engine.Action, bool) {
	all := chargeRoutes(st, f)
	var targets, weapons []engine.Choice
	for _, w := range usable(st, f, true) {
		weapons = append(weapons, engine.Choice{Value: w.ID, Label: weaponLabel(w)})
	}
	for _, c := range st.Combatants {
		if !c.Out && st.opponents(f.ID, c.ID) && engine.Visible(st, v, c.ID) {
			targets = append(targets, engine.Choice{Value: c.ID, Label: st.NameOf(c.ID)})
		}
	}
	if len(targets) == 0 || len(weapons) == 0 {
		return engine.Action{}, false
	}
	runs := map[string]int{} // the run to each target, for its label
	fields, ok := kit.Narrow([]engine.Field{
		{Name: "target", Label: "Target", Type: engine.FieldSelect, Options: targets, Target: true},
		{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: weapons},
	}, func(vals kit.Values) error {
		t := st.Fighters[vals.String("target")]
		r, err := chargeRefusal(st, f, t, f.Weapon(vals.String("weapon")), vals.String("weapon"), all)
		if err == nil {
			if n, seen := runs[t.ID]; !seen || r.Feet < n {
				runs[t.ID] = r.Feet
			}
		}
		return err
	})
	if !ok {
		return engine.Action{}, false
	}
	cs := slices.Clone(fields[0].Options)
	for i, c := range cs {
		cs[i].Label = fmt.Sprintf("%s (%d ft run)", c.Label, runs[c.Value])
	}
	fields[0].Options = cs
	return engine.Action{Kind: CmdCharge, Actor: f.ID, Label: "Charge",
		Help: fmt.Sprintf("The full round: %d ft (±%d) in a straight line, then a melee attack at %+d; %+d Defense until your next turn.",
			f.Speed(), kit.OptInt(&st.Base, OptChargeTolerance), kit.OptInt(&st.Base, OptChargeAttack), kit.OptInt(&st.Base, OptChargeDefense)),
		Fields: fields}, true
}

func objectAction(st *State, f *Fighter) (engine.Action, bool) {
	ws := usable(st, f, false)
	if len(ws) == 0 {
		return engine.Action{}, false
	}
	var weapons []engine.Choice
	for _, w := range ws {
		weapons = append(weapons, engine.Choice{Value: w.ID, Label: weaponLabel(w)})
	}
	return engine.Action{Kind: CmdObject, Actor: f.ID, Label: "Attack an object",
		Help:   "A hanging rock, a bridge plank, a lock: the GM sets its Defense. Objects cannot dodge.",
		Fields: []engine.Field{{Name: "weapon", Label: "Weapon", Type: engine.FieldSelect, Options: weapons}}}, true
}

// gmActions are the GM's rulings.
func gmActions(st *State) []engine.Action {
	var all, hurt, armoured, effects []engine.Choice
	for _, c := range st.Combatants {
		f := st.Fighters[c.ID]
		if c.Out {
			continue
		}
		all = append(all, engine.Choice{Value: c.ID, Label: c.Name})
		if f.HP < f.Sheet.HP {
			hurt = append(hurt, engine.Choice{Value: c.ID, Label: fmt.Sprintf("%s (%d of %d)", c.Name, f.HP, f.Sheet.HP)})
		}
		if a := f.Sheet.Armor; a != nil {
			armoured = append(armoured, engine.Choice{Value: c.ID, Label: fmt.Sprintf("%s (%d of %d AP)", c.Name, f.ArmorLeft, a.Points)})
		}
		if len(f.Hurt) > 0 || f.Groin {
			effects = append(effects, engine.Choice{Value: c.ID, Label: c.Name})
		}
	}
	who := func(cs []engine.Choice) engine.Field {
		return engine.Field{Name: "combatant", Label: "Combatant", Type: engine.FieldSelect, Options: cs, Target: true}
	}
	out := []engine.Action{
		{Kind: CmdSetCover, Label: "GM: set cover", Help: "+1 Defense against shots per 10% covered (max +10), ± material; until the combatant moves.",
			Fields: []engine.Field{who(all),
				{Name: "percent", Label: "Covered (%)", Type: engine.FieldNumber, Min: 0, Max: 100, Default: "50"},
				{Name: "material", Label: "Material (−2 … +2)", Type: engine.FieldNumber, Min: -2, Max: 2, Default: "0"},
				{Name: "clear", Label: "Back to the board's cover", Type: engine.FieldCheckbox}}},
		{Kind: CmdDamage, Label: "GM: deal damage", Help: "A fall, a car, fire: hit points lost; massive damage asks for a save or a Life Point.",
			Fields: []engine.Field{who(all),
				{Name: "amount", Label: "Damage", Type: engine.FieldNumber, Min: 1, Max: 500, Default: "1"},
				{Name: "massive", Label: "A massive-damage event", Type: engine.FieldCheckbox}}},
		{Kind: CmdLifePoints, Label: "GM: set Life Points", Help: "0 kills.",
			Fields: []engine.Field{who(all), {Name: "value", Label: "Life Points", Type: engine.FieldNumber, Min: 0, Max: 99, Default: "3"}}},
	}
	if len(hurt) > 0 {
		out = append(out, engine.Action{Kind: CmdHeal, Label: "GM: heal", Fields: []engine.Field{who(hurt),
			{Name: "hp", Label: "Hit points", Type: engine.FieldNumber, Min: 1, Max: 999, Default: "1"}}})
	}
	if len(armoured) > 0 {
		out = append(out, engine.Action{Kind: CmdArmour, Label: "GM: Armour Points lost", Help: "Fire or acid; a negative number repairs.",
			Fields: []engine.Field{who(armoured), {Name: "lost", Label: "Armour Points lost", Type: engine.FieldNumber, Min: -20, Max: 20, Default: "1"}}})
	}
	if len(effects) > 0 {
		out = append(out, engine.Action{Kind: CmdClearEffects, Label: "GM: heal hurt limbs", Fields: []engine.Field{who(effects)}})
	}
	return out
}

func sortedCells[T any](m map[Cell]T) []Cell {
	out := make([]Cell, 0, len(m))
	for c := range m {
		out = append(out, c)
	}
	slicesSortCells(out)
	return out
}

// aimChoices are the places an aimed attack may aim at, made once: every
// view's attack shares them (nothing changes a view's choices in place).
// The front torso is no aimed shot (it counts as a normal one).
var aimChoices = func() []engine.Choice {
	var aims []engine.Choice
	for _, l := range Locations {
		pen := "−4"
		switch l {
		case LocHead, LocGroin:
			pen = "−6"
		case LocFrontTorso:
			continue
		}
		aims = append(aims, engine.Choice{Value: l, Label: fmt.Sprintf("%s (%s)", strings.ToUpper(locationName(l)[:1])+locationName(l)[1:], pen)})
	}
	return slices.Clip(aims)
}()
