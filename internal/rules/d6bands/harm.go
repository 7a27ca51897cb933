package d6bands

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Damage, wounds and bleeding (spec b, reconstructed; every number an
// option). Damage is the weapon's dice (open-ended) plus its bonus, plus
// the margin the attack hit by, less the target's armour. Against the
// target's Toughness:
//   - below it: a Light wound;
//   - Toughness or more: a Serious wound, which bleeds;
//   - lethal-threshold × Toughness or more: a Lethal wound, which bleeds
//     more.
//
// Every wound lowers the combatant's skills (Light −1, Serious −2, Lethal
// −3). At the start of each round every wound not bandaged bleeds: blood
// loss grows by 1 per Serious and 3 per Lethal wound. Blood loss of Blood
// or more knocks a combatant out (down, still bleeding); twice Blood, or
// a second Lethal wound, kills. First aid (Medicine, in close contact)
// bandages a wound so it bleeds no more.

// Wound levels.
const (
	WoundLight   = "light"
	WoundSerious = "serious"
	WoundLethal  = "lethal"
)

// Wound is one wound a combatant took.
type Wound struct {
	Level    string `json:"level"`
	Damage   int    `json:"damage"`
	Bleed    int    `json:"bleed,omitempty"` // blood lost each round
	Bandaged bool   `json:"bandaged,omitempty"`
}

// Event kinds of harm.
const (
	KindHarm     = "harm"
	KindBled     = "bled"
	KindFirstAid = "first-aid"
)

// Harmed is the data of a harm event: damage to a combatant or its mount.
type Harmed struct {
	Fighter string `json:"fighter"`
	By      string `json:"by,omitempty"` // the attacker, when there is one
	Damage  int    `json:"damage"`
	Level   string `json:"level,omitempty"` // "" when the damage did nothing
	Bleed   int    `json:"bleed,omitempty"`
	Mount   bool   `json:"mount,omitempty"` // the mount took it (and falls on a Serious wound)
}

// Bled is the data of a bled event: blood lost.
type Bled struct {
	Fighter string `json:"fighter"`
	Loss    int    `json:"loss"`
}

// FirstAid is the data of a first-aid event.
type FirstAid struct {
	Fighter  string `json:"fighter"`
	Target   string `json:"target"`
	Actions  int    `json:"actions"`
	Bandaged []int  `json:"bandaged,omitempty"` // indices of the wounds bandaged
}

// woundPenalty is how much f's wounds lower its skills.
func woundPenalty(b *engine.Base, f *Fighter) int {
	p := 0
	for _, w := range f.Wounds {
		switch w.Level {
		case WoundLight:
			p += kit.OptInt(b, OptWoundLight)
		case WoundSerious:
			p += kit.OptInt(b, OptWoundSerious)
		case WoundLethal:
			p += kit.OptInt(b, OptWoundLethal)
		}
	}
	return p
}

// bleeding is the blood f loses each round.
func bleeding(f *Fighter) int {
	n := 0
	for _, w := range f.Wounds {
		if !w.Bandaged {
			n += w.Bleed
		}
	}
	return n
}

// count is how many wounds of level f has.
func (f *Fighter) count(level string) int {
	n := 0
	for _, w := range f.Wounds {
		if w.Level == level {
			n++
		}
	}
	return n
}

// WoundLevel is f's worst wound level, "" unhurt.
func (f *Fighter) WoundLevel() string {
	switch {
	case f.count(WoundLethal) > 0:
		return WoundLethal
	case f.count(WoundSerious) > 0:
		return WoundSerious
	case f.count(WoundLight) > 0:
		return WoundLight
	}
	return ""
}

// levelFor is the wound damage dmg deals against toughness t.
func levelFor(b *engine.Base, dmg, t int) (string, int) {
	switch {
	case dmg >= kit.OptInt(b, OptLethalFactor)*t:
		return WoundLethal, kit.OptInt(b, OptBleedLethal)
	case dmg >= t:
		return WoundSerious, kit.OptInt(b, OptBleedSerious)
	case dmg > 0:
		return WoundLight, 0
	}
	return "", 0
}

// woundWords words a wound level: "a Serious wound".
func woundWords(level string) string {
	switch level {
	case WoundLight:
		return "a Light wound"
	case WoundSerious:
		return "a Serious wound"
	case WoundLethal:
		return "a Lethal wound"
	}
	return "no wound"
}

// Blow is damage about to be dealt.
type Blow struct {
	By     string // the attacker ("" for a fall)
	Label  string // "Sword", "Fall"
	Dice   Dice
	Margin int  // the hit's margin, added when margin-damage is on
	Armor  bool // the victim's armour counts
	Extra  int  // extra damage dice (a called shot)
	Mount  bool // the blow hits the victim's mount
}

// rollDamage rolls a blow's dice: open-ended or plain (damage-dice).
func rollDamage(tx *Tx, n int) ([]dice.Die, int) {
	if kit.Opt(tx.Base(), OptDamageDice) == DamageOpen {
		return openEnded(tx.Dice, n)
	}
	var ds []dice.Die
	sum := 0
	for range n {
		d := tx.Dice.Die(6)
		ds = append(ds, d)
		sum += d.Faces[0]
	}
	return ds, sum
}

// hurt deals blow to victim: the damage roll, the wound, and whatever
// the wound does to the victim (down, dead, a fallen mount).
func hurt(tx *Tx, victim *Fighter, blow Blow) error {
	st := tx.State
	b := &st.Base
	ds, sum := rollDamage(tx, blow.Dice.N+blow.Extra)
	var mods []dice.Mod
	if blow.Dice.Bonus != 0 {
		mods = append(mods, dice.Mod{Label: "weapon", Value: blow.Dice.Bonus})
	}
	if blow.Extra > 0 {
		mods = append(mods, dice.Mod{Label: "called shot", Value: blow.Extra, Unit: unitDice})
	}
	if blow.Margin > 0 && kit.Opt(b, OptMarginDamage) == On {
		mods = append(mods, dice.Mod{Label: "margin", Value: blow.Margin})
	}
	toughness, armor, who := victim.Toughness, victim.Armor, st.PublicNameOf(victim.ID)
	if blow.Mount && victim.Mount != nil {
		toughness, armor, who = victim.Mount.Toughness, victim.Mount.Armor, st.PublicNameOf(victim.ID)+"'s "+strings.ToLower(victim.Mount.Name)
	}
	if blow.Armor && armor > 0 {
		mods = append(mods, dice.Mod{Label: "armour", Value: -armor})
	}
	flat := 0
	for _, m := range mods {
		if m.Unit == "" {
			flat += m.Value
		}
	}
	dmg := sum + flat
	level, bleed := levelFor(b, dmg, toughness)
	result := woundWords(level)
	roll := dice.Roll{Label: "Damage " + blow.Label, Who: blow.By, Dice: ds, Mod: flat, Mods: mods, Total: dmg, Result: result, Outcome: dice.OutcomeOf(level != "")}
	text := fmt.Sprintf("%s takes %d damage from %s: %s.", who, max(dmg, 0), blowSource(st, blow), result)
	if level == "" {
		text = fmt.Sprintf("%s takes no harm from %s (%d damage).", who, blowSource(st, blow), max(dmg, 0))
	}
	data := Harmed{Fighter: victim.ID, By: blow.By, Damage: max(dmg, 0), Level: level, Bleed: bleed, Mount: blow.Mount}
	if blow.Mount && (level == WoundSerious || level == WoundLethal) {
		text += fmt.Sprintf(" The %s goes down and %s falls prone.", strings.ToLower(victim.Mount.Name), who)
	}
	// The victim is the actor: a combatant the GM keeps hidden is hurt in
	// secret.
	if err := tx.Emit(st.secretFor(engine.NewEvent(KindHarm, victim.ID, text, data, roll), blow.By)); err != nil {
		return err
	}
	if blow.Mount {
		return nil
	}
	return settleHarm(tx, victim.ID)
}

// blowSource words where a blow came from.
func blowSource(st *State, blow Blow) string {
	if blow.By == "" {
		return strings.ToLower(blow.Label)
	}
	return fmt.Sprintf("%s's %s", st.PublicNameOf(blow.By), strings.ToLower(blow.Label))
}

// settleHarm takes a combatant down or out when its wounds say so: a
// second Lethal wound or twice its Blood lost kills; its Blood lost knocks
// it out.
func settleHarm(tx *Tx, id string) error {
	st := tx.State
	c, f := st.Combatant(id), st.Fighters[id]
	if c == nil || f == nil || c.Out {
		return nil
	}
	b := &st.Base
	switch {
	case f.count(WoundLethal) >= kit.OptInt(b, OptLethalOut):
		return tx.TakeOut(id, "dead", fmt.Sprintf("%s dies of %d Lethal wounds.", st.PublicNameOf(id), f.count(WoundLethal)))
	case f.BloodLoss >= kit.OptInt(b, OptDeathFactor)*f.Blood:
		return tx.TakeOut(id, "dead", fmt.Sprintf("%s bleeds to death.", st.PublicNameOf(id)))
	case f.BloodLoss >= f.Blood && !c.Down:
		return tx.PutDown(id, "unconscious", fmt.Sprintf("%s has lost too much blood and falls unconscious.", st.PublicNameOf(id)))
	}
	return nil
}

// bleed makes f lose blood (a round's bleeding, a wounded dash).
func bleed(tx *Tx, f *Fighter, loss int, why string) error {
	if loss <= 0 {
		return nil
	}
	st := tx.State
	text := fmt.Sprintf("%s %s: %d blood lost (%d of %d).", st.PublicNameOf(f.ID), why, loss, f.BloodLoss+loss, f.Blood)
	if err := tx.Emits(KindBled, f.ID, text, Bled{Fighter: f.ID, Loss: loss}); err != nil {
		return err
	}
	return settleHarm(tx, f.ID)
}

// bleedAll is the start of a round: every bleeding combatant loses blood.
func bleedAll(tx *Tx) error {
	st := tx.State
	for _, c := range st.Combatants {
		f := st.Fighters[c.ID]
		if c.Out || f == nil {
			continue
		}
		if err := bleed(tx, f, bleeding(f), "bleeds"); err != nil {
			return err
		}
	}
	return nil
}

// dashBleed is what a Seriously or Lethally wounded dasher loses at once:
// its worst wound bleeds once (dash-bleeding: or every wound does).
func dashBleed(b *engine.Base, f *Fighter) int {
	rate := func(level string) int {
		switch level {
		case WoundSerious:
			return kit.OptInt(b, OptBleedSerious)
		case WoundLethal:
			return kit.OptInt(b, OptBleedLethal)
		}
		return 0
	}
	if kit.Opt(b, OptDashBleed) == BleedAllWounds {
		n := 0
		for _, w := range f.Wounds {
			n += rate(w.Level)
		}
		return n
	}
	return rate(f.WoundLevel())
}

// decideFirstAid bandages a wound of someone in close contact (or the
// aider's own): a Medicine check; success stops the worst bleeding wound,
// a critical success every one.
func decideFirstAid(tx *Tx, cmd engine.Command) error {
	var args struct {
		Target string `json:"target"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	t, err := tx.Target(args.Target)
	if err != nil {
		return err
	}
	if t.ID != f.ID && !inContact(f, t) {
		return fray.Errorf(fray.EILLEGAL, "first aid needs close contact with %s", st.NameOf(t.ID))
	}
	if bleeding(t) == 0 {
		return fray.Errorf(fray.EILLEGAL, "%s has no bleeding wound", st.NameOf(t.ID))
	}
	cost := kit.OptInt(&st.Base, OptAidActions)
	if err := need(st, f, cost, "First aid"); err != nil {
		return err
	}
	res, err := rollCheck(tx, f, Check{Label: "First aid on " + st.NameOf(t.ID), Skill: "Medicine", Value: f.Skill(&st.Base, "medicine"),
		Dice: kit.OptInt(&st.Base, OptAidDice)})
	if err != nil {
		return err
	}
	var bandaged []int
	if res.Success {
		idx := bleedingWounds(t)
		if !res.Crit {
			idx = idx[:1]
		}
		bandaged = idx
	}
	text := fmt.Sprintf("%s tends %s's wounds: %s.", st.NameOf(f.ID), st.NameOf(t.ID), res.Words())
	switch {
	case len(bandaged) > 1:
		text += " Every wound is bandaged."
	case len(bandaged) == 1:
		text += fmt.Sprintf(" %s stops bleeding.", capital(woundWords(t.Wounds[bandaged[0]].Level)))
	}
	return tx.Emit(engine.NewEvent(KindFirstAid, f.ID, text, FirstAid{Fighter: f.ID, Target: t.ID, Actions: cost, Bandaged: bandaged}, res.Roll).With(t.ID))
}

// bleedingWounds are the indices of t's bleeding wounds, the worst first.
func bleedingWounds(t *Fighter) []int {
	var idx []int
	for i, w := range t.Wounds {
		if w.Bleed > 0 && !w.Bandaged {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return t.Wounds[b].Bleed - t.Wounds[a].Bleed })
	return idx
}

func applyHarm(st *State, d Harmed) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	if d.Mount {
		if d.Level == WoundSerious || d.Level == WoundLethal {
			f.Mounted, f.Prone = false, true
		}
		return nil
	}
	if d.Level != "" {
		f.Wounds = append(f.Wounds, Wound{Level: d.Level, Damage: d.Damage, Bleed: d.Bleed})
	}
	return nil
}

func applyFirstAid(st *State, d FirstAid) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	t, err := kit.Found(st.Fighter(d.Target), d.Target)
	if err != nil {
		return err
	}
	f.Actions -= d.Actions
	f.Aim = nil
	for _, i := range d.Bandaged {
		if i >= 0 && i < len(t.Wounds) {
			t.Wounds[i].Bandaged = true
		}
	}
	return nil
}
