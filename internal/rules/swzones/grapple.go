package swzones

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Push, grapple and garrotte (seed 14, 15; the base game's grappling).
//
// Opposed rolls: the actor rolls, then the other side; the actor succeeds
// on at least 4 and at least the other's total (the defender's total is the
// target number), and each full 4 over it is a raise.
//
// push (an action): opposed Strength.
//   - The target is in a melee: the pusher must be in it too; a success
//     pushes the target out of it (or into another melee of the zone).
//   - The target is unengaged: the pusher, unengaged too, pushes them into a
//     melee of the zone.
//   - A raise lets the pusher send the target on into a neighbouring zone
//     (asked of the pusher).
//   - No free attacks ([I], push-free-attacks).
// grapple (an action): opposed Athletics (SWADE) or Fighting (SWD) against
// an opponent in the same melee. Success: Entangled; raise: Bound (a second
// success on one's own Entangled victim also binds). Entangled: no Movement,
// −2 to actions; Bound: as Entangled, and no action but trying to escape;
// attacks against a Bound fighter get +2. Grapples block movement.
// escape (an action, allowed while Bound): opposed Strength or Agility, the
// victim's choice, against the grappler's same trait. Success: Bound becomes
// Entangled, Entangled frees; raise: free.
// A garrotte grapples at −4 (The Drop's +4 offsets it); held with it, the
// victim faces +4 on the grappler's Strength (not Agility) in opposed rolls,
// and must roll Vigor −4 to speak at all, a raise to yell (speak, free).
// A grapple ends when either leaves the melee or is out, or the grappler
// lets go (release, free).

// opposedAction is a push, grapple or escape ready to roll.
type opposedAction struct {
	Kind     string `json:"kind"` // "push", "grapple" or "escape"
	Actor    string `json:"actor"`
	Target   string `json:"target"` // the other side: an escape's grappler
	Att      Check  `json:"att"`
	Def      Check  `json:"def"`
	Rolled   bool   `json:"rolled,omitempty"` // the other side has rolled (a reroll keeps it)
	DefTotal int    `json:"defTotal,omitempty"`
	Into     string `json:"into,omitempty"` // push: a melee to push the target into
	Garrotte bool   `json:"garrotte,omitempty"`
	Action   bool   `json:"action,omitempty"`
	Declared int    `json:"declared,omitempty"`
	Reroll   bool   `json:"reroll,omitempty"`
}

// Opposed is the common part of push, grapple and escape events.
type Opposed struct {
	Actor    string `json:"actor"`
	Target   string `json:"target"`
	Mods     []Mod  `json:"mods"`
	Total    int    `json:"total"`
	DefTotal int    `json:"defTotal"`
	TN       int    `json:"tn"`
	Success  bool   `json:"success"`
	Raises   int    `json:"raises"`
	Action   bool   `json:"action,omitempty"`
	Declared int    `json:"declared,omitempty"`
	Reroll   bool   `json:"reroll,omitempty"`
}

// Push is the data of a push event.
type Push struct {
	Opposed
	From string `json:"from,omitempty"` // the melee the target was pushed out of
	Into string `json:"into,omitempty"` // the melee the target was pushed into
}

// GrappleDone is the data of a grapple event.
type GrappleDone struct {
	Opposed
	Level    string `json:"level,omitempty"` // the grip now: "entangled" or "bound"
	Garrotte bool   `json:"garrotte,omitempty"`
}

// Escape is the data of an escape event.
type Escape struct {
	Opposed
	Level string `json:"level"` // the grip left: "" when free
}

func (o opposedAction) roll(tx *Tx) error {
	st := tx.State
	ao := rollTrait(tx.Dice, o.Att)
	rolls := []dice.Roll{ao.Roll}
	if !o.Rolled {
		do := rollTrait(tx.Dice, o.Def)
		o.Rolled, o.DefTotal = true, do.Total
		do.Roll.Target, do.Roll.Result = 0, "opposes"
		rolls = append(rolls, do.Roll)
	}
	tn := max(TargetNumber, o.DefTotal)
	ok, raises := grade(ao.Total, tn)
	ok = ok && !ao.CritFail
	if !ok {
		raises = 0
	}
	rolls[0].Target = tn
	switch {
	case ao.CritFail:
		rolls[0].Result = "critical failure"
	case !ok:
		rolls[0].Result = "failure"
	case raises == 0:
		rolls[0].Result = "success"
	case raises == 1:
		rolls[0].Result = "raise"
	default:
		rolls[0].Result = fmt.Sprintf("%d raises", raises)
	}
	rolls[0].Outcome = dice.OutcomeOf(ok)
	base := Opposed{Actor: o.Actor, Target: o.Target, Mods: nonNil(ao.Mods), Total: ao.Total, DefTotal: o.DefTotal, TN: tn,
		Success: ok, Raises: raises, Action: o.Action && !o.Reroll, Declared: o.Declared, Reroll: o.Reroll}
	if o.Reroll {
		base.Declared = 0
	}
	a, t := st.Fighters[o.Actor], st.Fighters[o.Target]
	prefix := ""
	if o.Reroll {
		prefix = "Reroll: "
	}
	var after []engine.Step
	switch o.Kind {
	case "push":
		d := Push{Opposed: base}
		text := fmt.Sprintf("%s%s tries to push %s: %s", prefix, st.NameOf(a.ID), st.NameOf(t.ID), rolls[0].Result)
		var free []string
		if ok {
			d.From, d.Into = t.Melee, o.Into
			switch {
			case d.Into != "":
				text += fmt.Sprintf(" — %s is shoved into the melee of %s", st.NameOf(t.ID), listNames(st, st.melee(d.Into).Members))
			case d.From != "":
				text += fmt.Sprintf(" — %s is pushed out of the melee", st.NameOf(t.ID))
			}
			if d.From != "" && kit.Opt(&st.Base, OptPushFreeAttacks) == PushWithdraw {
				for _, id := range st.melee(d.From).Members {
					if id != a.ID && st.opponents(id, t.ID) && !st.Fighters[id].Shaken {
						free = append(free, id)
					}
				}
			}
		}
		if err := tx.Emit(engine.NewEvent(KindPush, a.ID, text+".", d, rolls...).With(t.ID)); err != nil {
			return err
		}
		after = append(after, freeAttacks(t.ID, free, 0, "is pushed out")...)
		if raises > 0 {
			after = append(after, engine.NewStep(stepPushZone, pushZone{Pusher: a.ID, Target: t.ID}))
		}
	case "grapple":
		d := GrappleDone{Opposed: base, Garrotte: o.Garrotte}
		skill := traitLabel(grappleSkill(st))
		text := fmt.Sprintf("%s%s tries to grapple %s with %s: %s", prefix, st.NameOf(a.ID), st.NameOf(t.ID), skill, rolls[0].Result)
		if o.Garrotte {
			text = fmt.Sprintf("%s%s tries to loop a garrotte round %s's throat: %s", prefix, st.NameOf(a.ID), st.NameOf(t.ID), rolls[0].Result)
		}
		if ok {
			d.Level = Entangled
			if raises > 0 || (t.Grip != nil && t.Grip.By == a.ID) {
				d.Level = Bound
			}
			text += fmt.Sprintf(" — %s is %s", st.NameOf(t.ID), d.Level)
		}
		if err := tx.Emit(engine.NewEvent(KindGrapple, a.ID, text+".", d, rolls...).With(t.ID)); err != nil {
			return err
		}
	case "escape":
		d := Escape{Opposed: base}
		if a.Grip != nil {
			d.Level = a.Grip.Level
		}
		text := fmt.Sprintf("%s%s struggles against %s's grip with %s: %s", prefix, st.NameOf(a.ID), st.NameOf(t.ID), o.Att.Label, rolls[0].Result)
		if ok {
			d.Level = ""
			if raises == 0 && a.Grip != nil && a.Grip.Level == Bound {
				d.Level = Entangled
			}
			if d.Level == "" {
				text += " — free"
			} else {
				text += " — now only Entangled"
			}
		}
		if err := tx.Emit(engine.NewEvent(KindEscape, a.ID, text+".", d, rolls...).With(t.ID)); err != nil {
			return err
		}
	}
	if !ok && !ao.CritFail && st.offers(OptRerollOffers, o.Actor) {
		o.Reroll = true
		return offerReroll(tx, "failed to "+o.Kind, rerollCtx{Opposed: &o})
	}
	return tx.Run(after...)
}

func listNames(st *State, ids []string) string {
	out := ""
	for i, id := range ids {
		if i > 0 {
			out += ", "
		}
		out += st.NameOf(id)
	}
	return out
}

// grappleSkill is the skill grapples use: Athletics (SWADE), Fighting (SWD).
func grappleSkill(st *State) string {
	if edition(&st.Base) == EditionSWD {
		return skillFighting
	}
	return skillAthletics
}

// garrotteMod is +4 to a's Strength against b when a holds b with a garrotte.
func garrotteMod(a, b *Fighter) []Mod {
	if b.Grip != nil && b.Grip.By == a.ID && b.Grip.Garrotte {
		return []Mod{{Source: "garrotte", Value: 4}}
	}
	return nil
}

type opposedArgs struct {
	Target  string  `json:"target"`
	Into    string  `json:"into"`  // push
	With    string  `json:"with"`  // grapple: "" or a garrotte's weapon id
	Trait   string  `json:"trait"` // escape
	Actions flexInt `json:"actions"`
	Spare   flexInt `json:"spare"`
}

func decidePush(tx *Tx, cmd engine.Command) error {
	var args opposedArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	if args.With != "" || args.Trait != "" {
		return fray.Errorf(fray.EINVALID, "push takes a target and where to push them")
	}
	st := tx.State
	t, err := tx.Target(args.Target)
	if err != nil {
		return err
	}
	into, err := pushInto(st, f, t, args.Into)
	if err != nil {
		return err
	}
	mods, declare, err := actionMods(st, f, actionReq{Declared: int(args.Actions), Spare: int(args.Spare)})
	if err != nil {
		return err
	}
	if err := commitRefund(tx, f, int(args.Spare)); err != nil {
		return err
	}
	o := opposedAction{Kind: "push", Actor: f.ID, Target: t.ID, Into: into, Action: true, Declared: declare,
		Att: check(f, "strength", TargetNumber, append(mods, garrotteMod(f, t)...)...),
		Def: check(t, "strength", TargetNumber, garrotteMod(t, f)...)}
	return o.roll(tx)
}

// pushInto checks a push of t by f and returns the melee t is pushed into
// ("" for out of their melee).
func pushInto(st *State, f, t *Fighter, into string) (string, error) {
	switch {
	case t.ID == f.ID:
		return "", fray.Errorf(fray.EILLEGAL, "a fighter cannot push themself")
	case !st.opponents(f.ID, t.ID):
		return "", kit.OwnSide(st.NameOf(t.ID), st.NameOf(f.ID), t.ID == f.ID)
	case t.Zone != f.Zone:
		return "", fray.Errorf(fray.EILLEGAL, "%s is not in %s's zone", st.NameOf(t.ID), st.NameOf(f.ID))
	case t.Melee != "" && f.Melee != t.Melee:
		return "", fray.Errorf(fray.EILLEGAL, "to push %s out of their melee, %s must be in it", st.NameOf(t.ID), st.NameOf(f.ID))
	case t.Melee == "" && f.Melee != "":
		return "", fray.Errorf(fray.EILLEGAL, "%s is in a melee and cannot reach %s", st.NameOf(f.ID), st.NameOf(t.ID))
	}
	if into == "out" {
		into = ""
	}
	if into == "" {
		if t.Melee == "" {
			return "", fray.Errorf(fray.EINVALID, "%s is in no melee: say which melee to push them into", st.NameOf(t.ID))
		}
		return "", nil
	}
	m := st.melee(into)
	if m == nil || m.Zone != t.Zone {
		return "", fray.Errorf(fray.EILLEGAL, "no melee %q in %s", into, st.zone(t.Zone).Name)
	}
	if into == t.Melee {
		return "", fray.Errorf(fray.EILLEGAL, "%s is already in that melee", st.NameOf(t.ID))
	}
	return into, nil
}

// pushZone asks the pusher where a push with a raise sends the target.
type pushZone struct {
	Pusher string `json:"pusher"`
	Target string `json:"target"`
}

// Pushed is the data of a pushed event: sent on into another zone.
type Pushed struct {
	Target string `json:"target"`
	From   string `json:"from"`
	To     string `json:"to"`
}

func askPushZone(tx *Tx, s pushZone) error {
	st := tx.State
	t := st.Fighters[s.Target]
	if st.Combatant(t.ID).Out || t.Grip != nil {
		return nil
	}
	var options []engine.Choice
	for _, z := range st.zone(t.Zone).Adjacent {
		options = append(options, engine.Choice{Value: z, Label: "Into " + st.zone(z).Name})
	}
	if len(options) == 0 {
		return nil
	}
	options = append(options, engine.Choice{Value: "stay", Label: "Leave them in " + st.zone(t.Zone).Name})
	prompt := fmt.Sprintf("A raise: push %s on into another zone?", st.PublicNameOf(t.ID))
	return tx.AskWith(engine.Decision{For: s.Pusher, Kind: DecPushZone, Prompt: prompt, Default: options[0].Value, Options: options},
		Cont{Push: &s})
}

func answerPushZone(tx *Tx, c Cont, ans engine.Answered) error {
	if ans.Choice == "stay" {
		return nil
	}
	st := tx.State
	t := st.Fighters[c.Push.Target]
	if !st.adjacent(t.Zone, ans.Choice) {
		return fray.Errorf(fray.EILLEGAL, "%s does not border %s", ans.Choice, t.Zone)
	}
	text := fmt.Sprintf("%s is pushed from %s into %s.", st.NameOf(t.ID), st.zone(t.Zone).Name, st.zone(ans.Choice).Name)
	return tx.Emit(engine.NewEvent(KindPushed, c.Push.Pusher, text, Pushed{Target: t.ID, From: t.Zone, To: ans.Choice}).With(t.ID))
}

func decideGrapple(tx *Tx, cmd engine.Command) error {
	var args opposedArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	if args.Into != "" || args.Trait != "" {
		return fray.Errorf(fray.EINVALID, "grapple takes a target and, for a garrotte, with")
	}
	st := tx.State
	t, err := tx.Target(args.Target)
	if err != nil {
		return err
	}
	if err := canGrapple(st, f, t); err != nil {
		return err
	}
	garrotte := false
	if args.With != "" && args.With != "hands" {
		w, ok := f.Weapon(args.With)
		if !ok || !w.Garrotte {
			return fray.Errorf(fray.EILLEGAL, "%s has no garrotte %q", st.NameOf(f.ID), args.With)
		}
		garrotte = true
	}
	mods, declare, err := actionMods(st, f, actionReq{Declared: int(args.Actions), Spare: int(args.Spare)})
	if err != nil {
		return err
	}
	if garrotte {
		mods = append(mods, Mod{Source: "garrotte (the throat)", Value: -4})
	}
	if f.Drop != "" && f.Drop == t.ID {
		mods = append(mods, Mod{Source: "The Drop", Value: 4})
	}
	if err := commitRefund(tx, f, int(args.Spare)); err != nil {
		return err
	}
	skill := grappleSkill(st)
	o := opposedAction{Kind: "grapple", Actor: f.ID, Target: t.ID, Garrotte: garrotte, Action: true, Declared: declare,
		Att: check(f, skill, TargetNumber, mods...), Def: check(t, skill, TargetNumber)}
	return o.roll(tx)
}

func canGrapple(st *State, f, t *Fighter) error {
	switch {
	case f.Melee == "" || t.Melee != f.Melee:
		return fray.Errorf(fray.EILLEGAL, "%s must be in %s's melee to grapple them", st.NameOf(f.ID), st.NameOf(t.ID))
	case !st.opponents(f.ID, t.ID):
		return kit.OwnSide(st.NameOf(t.ID), st.NameOf(f.ID), t.ID == f.ID)
	case t.Grip != nil && t.Grip.By != f.ID:
		return fray.Errorf(fray.EILLEGAL, "%s is already held by %s", st.NameOf(t.ID), st.NameOf(t.Grip.By))
	case t.Grip != nil && t.Grip.Level == Bound:
		return fray.Errorf(fray.EILLEGAL, "%s is already Bound", st.NameOf(t.ID))
	}
	for id, g := range st.Fighters {
		if id != t.ID && g.Grip != nil && g.Grip.By == f.ID {
			return fray.Errorf(fray.EILLEGAL, "%s is already holding %s", st.NameOf(f.ID), st.NameOf(id))
		}
	}
	return nil
}

func decideEscape(tx *Tx, cmd engine.Command) error {
	var args opposedArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	if args.Target != "" || args.Into != "" || args.With != "" {
		return fray.Errorf(fray.EINVALID, "escape takes only the trait (strength or agility)")
	}
	st := tx.State
	if f.Grip == nil {
		return fray.Errorf(fray.EILLEGAL, "%s is not held", st.NameOf(f.ID))
	}
	trait := args.Trait
	switch trait {
	case "":
		trait = "strength"
		if a, s := f.Trait("agility"), f.Trait("strength"); a.Sides+2*a.Bonus > s.Sides+2*s.Bonus {
			trait = "agility"
		}
	case "strength", "agility":
	default:
		return fray.Errorf(fray.EINVALID, "escape with strength or agility, not %q", args.Trait)
	}
	g := st.Fighters[f.Grip.By]
	mods, declare, err := actionMods(st, f, actionReq{Declared: int(args.Actions), Spare: int(args.Spare), Escape: true})
	if err != nil {
		return err
	}
	var defMods []Mod
	if trait == "strength" {
		defMods = garrotteMod(g, f)
	}
	if err := commitRefund(tx, f, int(args.Spare)); err != nil {
		return err
	}
	o := opposedAction{Kind: "escape", Actor: f.ID, Target: g.ID, Action: true, Declared: declare,
		Att: check(f, trait, TargetNumber, mods...), Def: check(g, trait, TargetNumber, defMods...)}
	return o.roll(tx)
}

// Speak is the data of a speak event.
type Speak struct {
	Fighter string `json:"fighter"`
	Total   int    `json:"total"`
	Result  string `json:"result"` // "silent", "speaks" or "yells"
}

func decideSpeak(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	switch {
	case f.Grip == nil || !f.Grip.Garrotte:
		return fray.Errorf(fray.EILLEGAL, "%s is not held by a garrotte: they may speak freely", st.NameOf(f.ID))
	case f.Spoke:
		return fray.Errorf(fray.EILLEGAL, "%s has already tried to speak this turn", st.NameOf(f.ID))
	}
	o := rollTrait(tx.Dice, check(f, "vigor", TargetNumber, Mod{Source: "garrotte", Value: -4}))
	d := Speak{Fighter: f.ID, Total: o.Total, Result: "silent"}
	text := "cannot make a sound"
	switch {
	case o.Success && o.Raises > 0:
		d.Result, text = "yells", "manages to yell"
	case o.Success:
		d.Result, text = "speaks", "can speak, but not yell"
	}
	return tx.Emits(KindSpeak, f.ID, fmt.Sprintf("%s strains against the garrotte: Vigor %d (%s) — %s.", st.NameOf(f.ID), o.Total, o.Roll.Result, text), d, o.Roll)
}

// Released is the data of a released event: a grapple that ends.
type Released struct {
	Grappler string `json:"grappler"`
	Target   string `json:"target"`
}

func decideRelease(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	victim := st.victimOf(f.ID)
	if victim == "" {
		return fray.Errorf(fray.EILLEGAL, "%s is holding no one", st.NameOf(f.ID))
	}
	return tx.Emit(engine.NewEvent(KindReleased, f.ID, fmt.Sprintf("%s lets go of %s.", st.NameOf(f.ID), st.NameOf(victim)), Released{Grappler: f.ID, Target: victim}).With(victim))
}

// victimOf is the fighter id holds in a grapple, or "".
func (s *State) victimOf(id string) string {
	for _, c := range s.Combatants {
		if g := s.Fighters[c.ID].Grip; g != nil && g.By == id {
			return c.ID
		}
	}
	return ""
}

// countAction records an action in its actor's turn ledger.
func countAction(st *State, id string, action bool, declared int) error {
	a, err := kit.Found(st.Fighter(id), id)
	if err != nil {
		return err
	}
	if action {
		a.Actions++
		if declared > 0 {
			a.Declared = declared
		}
		if kit.Opt(&st.Base, OptRecoveryPenalty) == PenaltyFirst {
			a.RecoveryPenalty = 0
		}
	}
	return nil
}

func applyPush(st *State, d Push) error {
	if err := countAction(st, d.Actor, d.Action, d.Declared); err != nil {
		return err
	}
	t, err := kit.Found(st.Fighter(d.Target), d.Target)
	if err != nil {
		return err
	}
	if !d.Success {
		return nil
	}
	if d.From != "" {
		st.leaveMelee(t.ID)
	}
	if d.Into != "" {
		m := st.melee(d.Into)
		if m == nil {
			return fmt.Errorf("sw-zones: no melee %q", d.Into)
		}
		st.leaveMelee(t.ID)
		m.Members = append(m.Members, t.ID)
		t.Melee = m.ID
	}
	return nil
}

func applyPushed(st *State, d Pushed) error {
	t, err := kit.Found(st.Fighter(d.Target), d.Target)
	if err != nil {
		return err
	}
	st.leaveMelee(t.ID)
	t.Zone = d.To
	return nil
}

func applyGrapple(st *State, d GrappleDone) error {
	if err := countAction(st, d.Actor, d.Action, d.Declared); err != nil {
		return err
	}
	t, err := kit.Found(st.Fighter(d.Target), d.Target)
	if err != nil {
		return err
	}
	if d.Success {
		garrotte := d.Garrotte || (t.Grip != nil && t.Grip.Garrotte)
		t.Grip = &Grip{By: d.Actor, Level: d.Level, Garrotte: garrotte}
	}
	return nil
}

func applyEscape(st *State, d Escape) error {
	if err := countAction(st, d.Actor, d.Action, d.Declared); err != nil {
		return err
	}
	f, err := kit.Found(st.Fighter(d.Actor), d.Actor)
	if err != nil {
		return err
	}
	if d.Success && f.Grip != nil {
		if d.Level == "" {
			f.Grip = nil
		} else {
			f.Grip.Level = d.Level
		}
	}
	return nil
}

func applySpeak(st *State, d Speak) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Spoke = true
	return nil
}

func applyReleased(st *State, d Released) error {
	t, err := kit.Found(st.Fighter(d.Target), d.Target)
	if err != nil {
		return err
	}
	t.Grip = nil
	return nil
}
