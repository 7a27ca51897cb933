package swzones

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// actions are the commands v may issue now. The
// fighter whose turn it is gets the actions legal for them, each select
// listing only legal choices; any Shaken fighter v commands with a Benny
// left may spend it to recover, and any fighter on Hold may interrupt, turn
// or not. The GM also gets the rulings (The Drop, a zone's cover). Nothing
// is offered while a decision is pending.
func actions(st *State, v engine.Viewer) []engine.Action {
	if st.Status != engine.StatusRunning || st.Waiting() {
		return nil
	}
	var out []engine.Action
	cur := st.Current()
	if cur != "" && v.CanCommand(cur) && !st.Combatant(cur).Out {
		out = append(out, turnActions(st, v, st.Fighters[cur])...)
	}
	if v.GM {
		out = append(out, gmActions(st)...)
	}
	if cur != "" && v.CanCommand(cur) && !st.Combatant(cur).Out {
		out = append(out, engine.Action{Kind: CmdEndTurn, Actor: cur, Label: "End turn", Main: true, EndsTurn: true})
	}
	for _, c := range st.Combatants {
		f := st.Fighters[c.ID]
		if c.Out || !v.CanCommand(c.ID) {
			continue
		}
		if f.Shaken && st.bennies(c.ID) > 0 {
			help := bennyCount(f.Bennies) + " left."
			if st.gmPoolFor(c.ID) {
				help = fmt.Sprintf("%s of their own, %s in the GM's pool.", bennyCount(f.Bennies), bennyCount(st.GMBennies))
			}
			out = append(out, engine.Action{Kind: CmdUnshake, Actor: c.ID, Label: "Spend a Benny to recover from Shaken", Help: help})
		}
		// On Hold first: most fighters are not, and canInterrupt's refusal
		// is a formatted error, built for nothing here.
		if c.ID != cur && f.Hold && canInterrupt(st, f) == nil {
			whose := "the current"
			if engine.Visible(st, v, cur) {
				whose = st.NameOf(cur) + "'s"
			}
			out = append(out, engine.Action{Kind: CmdInterrupt, Actor: c.ID, Label: "Interrupt: act now",
				Help: "Use the held action: " + c.Name + " takes a turn now, then " + whose + " turn goes on."})
		}
	}
	return out
}

func turnActions(st *State, v engine.Viewer, f *Fighter) []engine.Action {
	var out []engine.Action
	id := f.ID
	visible := func(x string) bool { return engine.Visible(st, v, x) && !st.Combatant(x).Out }
	nameFor := func(x string) string { // a grappler v may not see is felt, not named
		if engine.Visible(st, v, x) {
			return st.NameOf(x)
		}
		return engine.Unseen
	}
	// Cheap looks first where a check's refusal is a formatted error, built
	// for nothing here: at the start of the turn for Run and Hold (what
	// canRun and canHold refuse otherwise), opponents for Grapple, area
	// weapons for an area attack. The offers stay exactly those the checks
	// allow.
	fresh := !f.Ran && f.Spent == 0 && f.Actions == 0 && f.Defend == 0
	if fresh && canRun(st, f) == nil {
		trait, _ := runTrait(f, "")
		out = append(out, engine.Action{Kind: CmdRun, Actor: id, Label: "Run",
			Help: "At the start of the turn: Agility or Athletics, +1 MP per success and raise; −2 to every other action this turn (unspent MP can cancel up to 2 of it).",
			Fields: []engine.Field{{Name: "trait", Label: "Roll", Type: "select", Default: trait, Options: []engine.Choice{
				{Value: "agility", Label: "Agility " + f.Trait("agility").String()},
				{Value: skillAthletics, Label: "Athletics " + f.Trait(skillAthletics).String()},
			}}}})
	}
	if fresh && !st.Interrupted() && canHold(st, f) == nil {
		out = append(out, engine.Action{Kind: CmdHold, Actor: id, Label: "Hold",
			Help: "Keep your action: the turn passes, and you may interrupt anyone later, this round or the next."})
	}
	if f.Prone {
		if f.MP >= riseCost(st) {
			out = append(out, engine.Action{Kind: CmdRise, Actor: id, Label: "Rise",
				Help: "Stand up (" + mpCost(riseCost(st)) + "); −2 to Running rolls this turn."})
		}
	} else {
		out = append(out, engine.Action{Kind: CmdProne, Actor: id, Label: "Drop prone",
			Help: "Free: −2 Fighting and Parry; Medium cover against shots from other zones."})
	}
	if movable(st, f) == nil && f.Melee == "" && f.MP >= 1 {
		var zones []engine.Choice
		for _, z := range st.zone(f.Zone).Adjacent {
			zones = append(zones, engine.Choice{Value: z, Label: st.zone(z).Name})
		}
		if len(zones) > 0 {
			out = append(out, engine.Action{Kind: CmdMove, Actor: id, Label: "Move", Main: true, Help: "Cross one border (1 MP).",
				Fields: []engine.Field{{Name: "to", Label: "To", Type: "select", Options: zones, Place: true}}})
		}
		var targets []engine.Choice
		for _, c := range st.Combatants {
			t := st.Fighters[c.ID]
			// Same zone, someone else first: most fighters are neither, and
			// canEngage's refusal is a formatted error, built for nothing here.
			if c.ID != id && t.Zone == f.Zone && visible(c.ID) && canEngage(st, f, t) == nil {
				label := c.Name
				if t.Melee != "" {
					label += " (join their melee)"
				}
				targets = append(targets, engine.Choice{Value: c.ID, Label: label})
			}
		}
		if len(targets) > 0 {
			out = append(out, engine.Action{Kind: CmdEngage, Actor: id, Label: "Engage", Main: true, Help: "Join a melee in this zone (1 MP).",
				Fields: []engine.Field{{Name: "target", Label: "Target", Type: "select", Options: targets, Target: true}}})
		}
	}
	if movable(st, f) == nil && f.Melee != "" && f.MP >= 1 {
		n := 0
		for _, x := range st.melee(f.Melee).Members {
			if st.opponents(x, id) && !st.Fighters[x].Shaken {
				n++
			}
		}
		a := engine.Action{Kind: CmdDisengage, Actor: id, Label: "Disengage", Main: true,
			Help: "Leave the melee (1 MP); " + strconv.Itoa(n) + " free attack(s) first. You may then run in the same action."}
		if canAct(st, f, false) == nil && f.Actions == 0 {
			a.Fields = append(a.Fields, engine.Field{Name: "defend", Label: fmt.Sprintf("Defend while retreating (+%d Parry, no other action this turn)", retreatDefendBonus), Type: "checkbox"})
		}
		if !f.Ran {
			a.Fields = append(a.Fields, engine.Field{Name: "run", Label: "Then run (Agility or Athletics, +1 MP per success and raise)", Type: "checkbox"})
		}
		out = append(out, a)
	}
	if f.Grip != nil {
		if _, _, err := actionMods(st, f, actionReq{Escape: true}); err == nil {
			out = append(out, engine.Action{Kind: CmdEscape, Actor: id, Label: "Break free",
				Help: fmt.Sprintf("Opposed roll against %s: success loosens the grip one step, a raise frees you.", nameFor(f.Grip.By)),
				Fields: append([]engine.Field{{Name: "trait", Label: "With", Type: "select", Options: []engine.Choice{
					{Value: "strength", Label: "Strength " + f.Trait("strength").String()},
					{Value: "agility", Label: "Agility " + f.Trait("agility").String()},
				}}}, turnFields(st, f)...)})
		}
		if f.Grip.Garrotte && !f.Spoke {
			out = append(out, engine.Action{Kind: CmdSpeak, Actor: id, Label: "Try to speak",
				Help: "Free: Vigor −4 to make any sound through the garrotte, a raise to yell."})
		}
	}
	if victim := st.victimOf(id); victim != "" {
		out = append(out, engine.Action{Kind: CmdRelease, Actor: id, Label: "Let go of " + nameFor(victim), Help: "Free: end the grapple."})
	}
	if _, _, err := actionMods(st, f, actionReq{}); err == nil {
		fields := turnFields(st, f)
		if f.Melee != "" {
			var targets []engine.Choice
			for _, x := range st.melee(f.Melee).Members {
				if visible(x) && st.opponents(x, id) {
					targets = append(targets, engine.Choice{Value: x, Label: st.NameOf(x)})
				}
			}
			if len(targets) > 0 {
				out = append(out, engine.Action{Kind: CmdFight, Actor: id, Label: "Fight", Main: true, Help: "Fighting against Parry.",
					Fields: append([]engine.Field{
						{Name: "target", Label: "Target", Type: "select", Options: targets, Target: true},
						{Name: "weapon", Label: "Weapon", Type: "select", Options: weaponChoices(f.MeleeWeapons())},
					}, fields...)})
			}
			var grapple []engine.Choice
			for _, x := range st.melee(f.Melee).Members {
				if visible(x) && st.opponents(f.ID, x) && canGrapple(st, f, st.Fighters[x]) == nil {
					grapple = append(grapple, engine.Choice{Value: x, Label: st.NameOf(x)})
				}
			}
			if len(grapple) > 0 {
				with := []engine.Choice{{Value: "hands", Label: "Bare hands"}}
				for _, w := range f.Weapons {
					if w.Garrotte {
						with = append(with, engine.Choice{Value: w.ID, Label: w.Name + " (−4, +4 Strength once it bites)"})
					}
				}
				out = append(out, engine.Action{Kind: CmdGrapple, Actor: id, Label: "Grapple",
					Help: fmt.Sprintf("Opposed %s: success Entangles, a raise Binds.", traitLabel(grappleSkill(st))),
					Fields: append([]engine.Field{
						{Name: "target", Label: "Target", Type: "select", Options: grapple, Target: true},
						{Name: "with", Label: "With", Type: "select", Options: with},
					}, fields...)})
			}
		}
		if a, ok := pushAction(st, f, visible, fields); ok {
			out = append(out, a)
		}
		if ranged := f.RangedWeapons(); len(ranged) > 0 && (f.Melee == "" || kit.Opt(&st.Base, OptShootInMelee) == ShootAdjacent) {
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
					targets = append(targets, engine.Choice{Value: c.ID, Label: c.Name + " (" + zonesAway(d) + ")"})
				}
			}
			// One form per weapon (its own reach): each keeps the targets
			// the shot's own refusals let it shoot.
			main := true
			for _, w := range ranged {
				if len(targets) == 0 {
					break
				}
				sf, ok := kit.Narrow([]engine.Field{
					{Name: "target", Label: "Target", Type: "select", Options: targets, Target: true},
					{Name: "weapon", Label: "Weapon", Type: "select", Options: weaponChoices([]Weapon{w})},
				}, func(vals kit.Values) error {
					_, _, _, err := shotRefusal(st, f, st.Fighters[vals.String("target")], vals.String("weapon"))
					return err
				})
				if !ok {
					continue
				}
				if f.Melee == "" {
					sf = append(sf, engine.Field{Name: "cover", Label: "Cover", Type: "select", Options: []engine.Choice{
						{Value: "", Label: "The target zone's cover"}, {Value: "none", Label: "None"},
						{Value: "light", Label: "Light"}, {Value: "medium", Label: "Medium"},
						{Value: "heavy", Label: "Heavy"}, {Value: "near-total", Label: "Near-total"},
					}})
				}
				label := "Shoot"
				if len(ranged) > 1 {
					label += ": " + w.Name
				}
				out = append(out, engine.Action{Kind: CmdShoot, Actor: id, Label: label, Main: main, Help: "Shooting against 4, range in zones.", Fields: append(sf, fields...)})
				main = false
			}
		}
		var areas, powers []engine.Choice
		for _, w := range f.Weapons {
			if !w.Area() {
				continue
			}
			if t, err := st.tool(f, w.ID, false); err == nil && len(st.aims(f, t)) > 0 {
				areas = append(areas, engine.Choice{Value: w.ID, Label: w.Name + " (" + w.Damage.String() + ", " + templateName(w.Template) + ")"})
			}
		}
		for _, p := range f.Powers {
			if t, err := st.tool(f, p.ID, true); err == nil && len(st.aims(f, t)) > 0 {
				powers = append(powers, engine.Choice{Value: p.ID, Label: powerLabel(p)})
			}
		}
		if len(areas) > 0 {
			out = append(out, engine.Action{Kind: CmdArea, Actor: id, Label: "Area attack",
				Help:   "Throw or fire an area weapon; you pick where it lands next. Allies caught may dive out; a miss deviates.",
				Fields: append([]engine.Field{{Name: "weapon", Label: "Weapon", Type: "select", Options: areas}}, fields...)})
		}
		if len(powers) > 0 {
			out = append(out, engine.Action{Kind: CmdCast, Actor: id, Label: "Cast a power",
				Help:   "Roll the power's skill against 4; you pick the target or area next.",
				Fields: append([]engine.Field{{Name: "power", Label: "Power", Type: "select", Options: powers}}, fields...)})
		}
		if f.Actions == 0 {
			out = append(out, engine.Action{Kind: CmdDefend, Actor: id, Label: "Defend",
				Help: "+" + strconv.Itoa(defendBonus(&st.Base)) + " Parry until your next turn; no other action this turn."})
		}
	}
	return out
}

// turnFields are the fields every action roll takes: the number of actions
// declared with the first, and Movement given up against the Running
// penalty.
func turnFields(st *State, f *Fighter) []engine.Field {
	var out []engine.Field
	if kit.Opt(&st.Base, OptMultiAction) == MultiDeclare && f.Actions == 0 {
		out = append(out, engine.Field{Name: "actions", Label: "Actions this turn", Type: "number", Default: "1", Min: 1, Max: MaxActions})
	}
	if refundOpen(st, f) && f.MP > 0 {
		out = append(out, engine.Field{Name: "spare", Label: "Unspent MP to give up against the Running penalty", Type: "number",
			Default: "0", Min: 0, Max: min(f.MP, 2-f.Refund)})
	}
	return out
}

// pushAction is the push action: opponents f can reach, and where to.
func pushAction(st *State, f *Fighter, visible func(string) bool, fields []engine.Field) (engine.Action, bool) {
	var targets []engine.Choice
	for _, c := range st.Combatants {
		t := st.Fighters[c.ID]
		if !visible(c.ID) || c.ID == f.ID || !st.opponents(c.ID, f.ID) || t.Zone != f.Zone || t.Melee != f.Melee {
			continue
		}
		targets = append(targets, engine.Choice{Value: c.ID, Label: c.Name})
	}
	var into []engine.Choice
	if f.Melee != "" {
		into = append(into, engine.Choice{Value: "out", Label: "Out of the melee"})
	}
	for _, m := range st.Melees {
		seen := slices.DeleteFunc(slices.Clone(m.Members), func(id string) bool { return !visible(id) })
		if m.Zone == f.Zone && m.ID != f.Melee && len(seen) > 0 {
			into = append(into, engine.Choice{Value: m.ID, Label: "Into the melee of " + listNames(st, seen)})
		}
	}
	if len(targets) == 0 || len(into) == 0 {
		return engine.Action{}, false
	}
	return engine.Action{Kind: CmdPush, Actor: f.ID, Label: "Push",
		Help: "Opposed Strength: out of (or into) a melee; a raise lets you push them on into another zone.",
		Fields: append([]engine.Field{
			{Name: "target", Label: "Target", Type: "select", Options: targets, Target: true},
			{Name: "into", Label: "Where", Type: "select", Options: into},
		}, fields...)}, true
}

// gmActions are the GM's rulings: commands that name no actor.
func gmActions(st *State) []engine.Action {
	var out []engine.Action
	var fighters []engine.Choice
	for _, c := range st.Combatants {
		if !c.Out {
			fighters = append(fighters, engine.Choice{Value: c.ID, Label: c.Name})
		}
	}
	// The Drop for the fighter whose turn it is (the command takes any
	// attacker: the offer keeps to pairs it will accept).
	if cur := st.Current(); cur != "" {
		var targets []engine.Choice
		for _, c := range fighters {
			if st.opponents(c.Value, cur) {
				targets = append(targets, c)
			}
		}
		if len(targets) > 0 {
			out = append(out, engine.Action{Kind: CmdDrop, Label: "GM: grant The Drop to " + st.NameOf(cur),
				Help: "+4 to attack and damage against that opponent until the end of this turn.",
				Fields: []engine.Field{
					{Name: "attacker", Label: "Who", Type: engine.FieldSelect, Options: []engine.Choice{{Value: cur, Label: st.NameOf(cur)}}},
					{Name: "target", Label: "On", Type: engine.FieldSelect, Options: targets, Target: true},
				}})
		}
	}
	zones := make([]engine.Choice, len(st.Zones))
	for i, z := range st.Zones {
		zones[i] = engine.Choice{Value: z.ID, Label: z.Name + " (now " + coverName(z.Cover) + ")"}
	}
	out = append(out, engine.Action{Kind: CmdSetCover, Label: "GM: set a zone's cover",
		Help: "Cover penalises shots at fighters in the zone; a shot that misses only because of it hits the cover, and goes through when it has an Armour value.",
		Fields: []engine.Field{
			{Name: "zone", Label: "Zone", Type: "select", Options: zones},
			{Name: "cover", Label: "Cover", Type: "select", Options: []engine.Choice{
				{Value: "none", Label: "None"}, {Value: "light", Label: "Light"}, {Value: "medium", Label: "Medium"},
				{Value: "heavy", Label: "Heavy"}, {Value: "near-total", Label: "Near-total"},
			}},
			{Name: "armor", Label: "Cover Armour (with cover)", Type: "number", Default: "0", Min: 0, Max: 30},
		}})
	return out
}

func powerLabel(p Power) string {
	what := "bolt"
	if p.Template != "" {
		what = templateName(p.Template)
	}
	if p.Effect == EffectRelief {
		return fmt.Sprintf("%s (relief, %s)", p.Name, what)
	}
	return fmt.Sprintf("%s (%s, %s)", p.Name, p.Damage, what)
}

func mpCost(n int) string {
	if n == 0 {
		return "free"
	}
	return strconv.Itoa(n) + " MP"
}

func weaponChoices(ws []Weapon) []engine.Choice {
	out := make([]engine.Choice, len(ws))
	for i, w := range ws {
		label := w.Name + " (" + w.Damage.String() + ")"
		if w.Ranged() {
			label = w.Name + " (" + w.Damage.String() + ", range " + rangeString(w.Range) + ")"
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
	return strconv.Itoa(d) + " zones away"
}
