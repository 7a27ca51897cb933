package d6bands

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Ranged attacks (seed: "Ranged attacks", "Shooting difficulties"; spec
// c7). A shot rolls the weapon's skill against:
//   - in close contact: 3D, no cover, and the target may spend its Defense
//     Pool as against a melee attack;
//   - at a weapon's optimal band: 4D plus the target's cover (+1D, +2D,
//     +3D);
//   - +1D for each band away from the nearest optimal band;
//   - Extreme range: 5D with a Very Far optimal range, 6D with Far (only
//     those weapons, and only through an Extreme range duel).
//
// An aimed shot takes 2 actions; a snapshot 1 action at +1D. A called shot
// at a hit location is +2D (called-shot: it ignores armour). An aim action
// before an aimed shot at the same target gives +2 to the skill; aiming in
// three rounds in a row gives −1D more, with firearms and crossbows only.
// A shot needs a line of sight and a loaded weapon, and cannot hit a
// combatant hidden from the shooter. After the shot a weapon that reloads
// is empty.

// Event kinds of attacks.
const (
	KindAim         = "aim"
	KindAttackBegun = "attack-begun"
	KindAttack      = "attack"
)

// Attack kinds.
const (
	AttackShot  = "shot"
	AttackMelee = "melee"
	AttackDuel  = "duel" // the winner's shot of an Extreme range duel
)

// Attack is an attack being resolved: declared (actions spent), then
// perhaps waiting on the defender's Defense Pool, then rolled.
type Attack struct {
	Kind     string     `json:"kind"`
	Attacker string     `json:"attacker"`
	Target   string     `json:"target"`
	Weapon   string     `json:"weapon"`
	Actions  int        `json:"actions"`
	Aimed    bool       `json:"aimed,omitempty"`
	Called   bool       `json:"called,omitempty"`
	Skill    string     `json:"skill"`
	Value    int        `json:"value"`
	Dice     int        `json:"dice"`
	Mods     []dice.Mod `json:"mods,omitempty"`
	Band     int        `json:"band"`
	Contact  bool       `json:"contact,omitempty"` // close contact: the Defense Pool applies
	Defense  int        `json:"defense,omitempty"` // Defense Pool dice the target spent
}

// AimTaken is the data of an aim event.
type AimTaken struct {
	Fighter string `json:"fighter"`
	Target  string `json:"target"`
	Rounds  int    `json:"rounds"` // rounds in a row aimed at the target, this one included
	Actions int    `json:"actions"`
}

// AttackRolled is the data of an attack event.
type AttackRolled struct {
	Attack
	Hit    bool `json:"hit"`
	Margin int  `json:"margin"`
	Crit   bool `json:"crit,omitempty"`
	Fumble bool `json:"fumble,omitempty"`
}

// ready reports why f cannot fire weapon w now (nil: it can).
func ready(f *Fighter, w *Weapon) error {
	l := f.Loads[w.ID]
	switch {
	case l == nil:
		return nil
	case l.Broken:
		return fray.Errorf(fray.EILLEGAL, "the %s is broken", w.Name)
	case l.Jammed:
		return fray.Errorf(fray.EILLEGAL, "the %s is jammed: reload it to clear it", w.Name)
	case !l.Loaded:
		return fray.Errorf(fray.EILLEGAL, "the %s is not loaded", w.Name)
	}
	return nil
}

// loaded reports whether f can fire w.
func loaded(f *Fighter, w *Weapon) bool { return ready(f, w) == nil }

// visibleTo fails when t is hidden from f: only area fire can hit it.
func visibleTo(st *State, f, t *Fighter) error {
	if t.Unseen[f.ID] > 0 {
		return fray.Errorf(fray.EILLEGAL, "%s is hidden from %s: only area fire can hit them", st.NameOf(t.ID), st.NameOf(f.ID))
	}
	return nil
}

// planShot works out a shot's difficulty and cost.
func planShot(st *State, f, t *Fighter, w *Weapon, aimed, called bool) (Attack, error) {
	b := &st.Base
	a := Attack{Kind: AttackShot, Attacker: f.ID, Target: t.ID, Weapon: w.ID, Aimed: aimed, Called: called,
		Skill: skillName(w.Skill), Value: f.Skill(b, w.Skill), Actions: 1}
	switch {
	case !w.Ranged():
		return a, fray.Errorf(fray.EILLEGAL, "the %s is not a ranged weapon", w.Name)
	case t.ID == f.ID:
		return a, fray.Errorf(fray.EILLEGAL, "%s cannot shoot themselves", st.NameOf(f.ID))
	}
	if err := ready(f, w); err != nil {
		return a, err
	}
	if err := visibleTo(st, f, t); err != nil {
		return a, err
	}
	a.Band = st.Band(f, t)
	if a.Band == BandExtreme {
		return a, fray.Errorf(fray.EILLEGAL, "%s is at Extreme range: only an Extreme range duel gives a shot", st.NameOf(t.ID))
	}
	if aimed {
		a.Actions = 2
	}
	if a.Band == BandContact {
		a.Contact, a.Dice = true, 3
	} else {
		if !st.sees(f, t) {
			return a, fray.Errorf(fray.EILLEGAL, "%s has no line of sight to %s", st.NameOf(f.ID), st.NameOf(t.ID))
		}
		a.Dice = 4
		if off := bandsOff(w, a.Band); off > 0 {
			a.Mods = append(a.Mods, diceMod(fmt.Sprintf("%s, %s off optimal", BandName(a.Band), bandWord(off)), off))
		}
		if c, why := st.cover(t, f); c > 0 {
			a.Mods = append(a.Mods, diceMod(why, c))
		}
		if t.Prone {
			if n := kit.OptInt(b, OptProneRanged); n > 0 {
				a.Mods = append(a.Mods, diceMod("prone target", n))
			}
		}
	}
	a.Mods = append(a.Mods, aimMods(st, f, t, w, aimed, called)...)
	return a, nil
}

// aimMods are the modifiers every shot shares: snapshot, called shot,
// aiming, ambush.
func aimMods(st *State, f, t *Fighter, w *Weapon, aimed, called bool) []dice.Mod {
	var mods []dice.Mod
	if !aimed {
		mods = append(mods, diceMod("snapshot", 1))
	}
	if called {
		mods = append(mods, diceMod("called shot", 2))
	}
	if aimed && f.Aim != nil && f.Aim.Target == t.ID {
		mods = append(mods, tnMod("aimed", 2))
		if f.Aim.Rounds >= 3 && w.LongAim() {
			mods = append(mods, diceMod(fmt.Sprintf("aimed %d rounds", f.Aim.Rounds), -1))
		}
	}
	return append(mods, ambush(st, f, t)...)
}

// ambush is the bonus of attacking an opponent unaware of the attacker.
func ambush(st *State, f, t *Fighter) []dice.Mod {
	if f.Unseen[t.ID] >= 2 {
		if n := kit.OptInt(&st.Base, OptAmbushDice); n > 0 {
			return []dice.Mod{diceMod("ambush: "+st.NameOf(t.ID)+" is unaware", -n)}
		}
	}
	return nil
}

// bandsOff is how many bands band is from w's nearest optimal band.
func bandsOff(w *Weapon, band int) int {
	best := 99
	for _, o := range w.Optimal {
		best = min(best, abs(band-o))
	}
	return best
}

// shotArgs are a shoot command's arguments.
type shotArgs struct {
	Target string `json:"target"`
	Weapon string `json:"weapon"`
	Mode   string `json:"mode"` // "aimed" (2 actions) or "snapshot" (1)
	Called bool   `json:"called"`
}

// Shot modes.
const (
	ModeAimed    = "aimed"
	ModeSnapshot = "snapshot"
)

// mode reads a shot mode ("" is aimed).
func mode(m string) (bool, error) {
	switch m {
	case "", ModeAimed:
		return true, nil
	case ModeSnapshot:
		return false, nil
	}
	return false, fray.Errorf(fray.EINVALID, "mode must be aimed or snapshot, not %q", m)
}

func decideShoot(tx *Tx, cmd engine.Command) error {
	var args shotArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if _, err := mode(args.Mode); err != nil {
		return err
	}
	t, err := tx.Target(args.Target)
	if err != nil {
		return err
	}
	a, err := shotRefusal(st, f, t, args)
	if err != nil {
		return err
	}
	what := "a snapshot"
	if a.Aimed {
		what = "an aimed shot"
	}
	return beginAttack(tx, a, fmt.Sprintf("%s takes %s at %s with the %s.", st.NameOf(f.ID), what, st.NameOf(t.ID), f.Weapon(args.Weapon).Name))
}

// shotRefusal is what the rules refuse of f's shot at t: the handler's
// check, and the one the shoot form is narrowed with (kit.Narrow), so the
// form never offers a weapon that cannot reach a target it offers. It
// returns the shot.
func shotRefusal(st *State, f, t *Fighter, args shotArgs) (Attack, error) {
	aimed, err := mode(args.Mode)
	if err != nil {
		return Attack{}, err
	}
	w := f.Weapon(args.Weapon)
	if w == nil {
		return Attack{}, fray.Errorf(fray.EINVALID, "%s has no weapon %q", st.NameOf(f.ID), args.Weapon)
	}
	a, err := planShot(st, f, t, w, aimed, args.Called)
	if err != nil {
		return a, err
	}
	what := "A snapshot"
	if aimed {
		what = "An aimed shot"
	}
	return a, need(st, f, a.Actions, what)
}

// difficultyWords words an attack's difficulty: "4D +1D cover".
func difficultyWords(a Attack) string {
	s := fmt.Sprintf("%dD", a.Dice)
	if len(a.Mods) > 0 {
		s += ", " + modsText(a.Mods)
	}
	return s
}

// beginAttack spends the attack's actions and runs it: the Defense Pool,
// if the target may spend it, then the roll.
func beginAttack(tx *Tx, a Attack, text string) error {
	st := tx.State
	ev := engine.NewEvent(KindAttackBegun, a.Attacker, text, a)
	if err := tx.Emit(st.secretFor(ev, a.Target)); err != nil {
		return err
	}
	return tx.Run(engine.NewStep(stepDefense, nil), engine.NewStep(stepAttack, nil))
}

// rollAttack rolls the attack under way and deals its consequences.
func rollAttack(tx *Tx) error {
	st := tx.State
	if st.Attack == nil {
		return nil
	}
	a := *st.Attack
	f, t := st.Fighters[a.Attacker], st.Fighters[a.Target]
	mods := a.Mods
	if a.Defense > 0 {
		mods = append(mods, diceMod("Defense Pool", a.Defense))
	}
	if a.Kind == AttackMelee && t.Prone {
		if n := kit.OptInt(&st.Base, OptProneMelee); n > 0 {
			mods = append(mods, tnMod("prone target", n))
		}
	}
	w := f.Weapon(a.Weapon)
	res, err := rollCheck(tx, f, Check{Label: attackLabel(st, a), Skill: a.Skill, Value: a.Value, Dice: a.Dice, Mods: mods})
	if err != nil {
		return err
	}
	data := AttackRolled{Attack: a, Hit: res.Success, Margin: res.Margin, Crit: res.Crit, Fumble: res.Fumble}
	text := fmt.Sprintf("%s %s %s with the %s: %s.", st.PublicNameOf(f.ID), map[bool]string{true: "hits", false: "misses"}[res.Success],
		st.PublicNameOf(t.ID), w.Name, res.Words())
	if err := tx.Emit(st.secretFor(engine.NewEvent(KindAttack, f.ID, text, data, res.Roll), t.ID)); err != nil {
		return err
	}
	if res.Success {
		blow := Blow{By: f.ID, Label: w.Name, Dice: w.Damage, Margin: res.Margin, Armor: true}
		if a.Called {
			if kit.Opt(&st.Base, OptCalledShot) == CalledIgnoreArmor {
				blow.Armor = false
			} else {
				blow.Extra = 1
			}
		}
		return hurt(tx, t, blow)
	}
	if a.Kind == AttackMelee {
		return nil
	}
	return strayShot(tx, a, res.MissBy())
}

// attackLabel names an attack's roll.
func attackLabel(st *State, a Attack) string {
	switch a.Kind {
	case AttackMelee:
		return "Strike at " + st.PublicNameOf(a.Target)
	case AttackDuel:
		return "Extreme range shot at " + st.PublicNameOf(a.Target)
	}
	if a.Aimed {
		return "Aimed shot at " + st.PublicNameOf(a.Target)
	}
	return "Snapshot at " + st.PublicNameOf(a.Target)
}

func decideAim(tx *Tx, cmd engine.Command) error {
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
	if err := canAim(st, f, t); err != nil {
		return err
	}
	if err := need(st, f, 1, "Aiming"); err != nil {
		return err
	}
	rounds := 1
	if a := f.Aim; a != nil && a.Target == t.ID {
		rounds = a.Rounds
		if a.Round < st.Round {
			rounds++
		}
	}
	text := fmt.Sprintf("%s aims at %s.", st.NameOf(f.ID), st.NameOf(t.ID))
	if rounds > 1 {
		text = fmt.Sprintf("%s keeps aiming at %s (round %d of aiming).", st.NameOf(f.ID), st.NameOf(t.ID), rounds)
	}
	return tx.Emit(engine.NewEvent(KindAim, f.ID, text, AimTaken{Fighter: f.ID, Target: t.ID, Rounds: rounds, Actions: 1}).With(t.ID))
}

// canAim reports why f may not aim at t (nil: it may): some loaded
// ranged weapon could shoot t.
func canAim(st *State, f, t *Fighter) error {
	var last error = fray.Errorf(fray.EILLEGAL, "%s has no loaded ranged weapon", st.NameOf(f.ID))
	for i := range f.Weapons {
		w := &f.Weapons[i]
		if !w.Ranged() || !loaded(f, w) {
			continue
		}
		_, err := planShot(st, f, t, w, true, false)
		if err == nil {
			return nil
		}
		last = err
	}
	return last
}

func applyAim(st *State, d AimTaken) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Actions -= d.Actions
	f.Aim = &Aim{Target: d.Target, Rounds: d.Rounds, Round: st.Round}
	return nil
}

func applyAttackBegun(st *State, a Attack) error {
	f, err := kit.Found(st.Fighter(a.Attacker), a.Attacker)
	if err != nil {
		return err
	}
	f.Actions -= a.Actions
	if a.Kind != AttackDuel {
		f.Aim = nil
	}
	st.Attack = &a
	return nil
}

func applyAttack(st *State, d AttackRolled) error {
	f, err := kit.Found(st.Fighter(d.Attacker), d.Attacker)
	if err != nil {
		return err
	}
	st.Attack = nil
	f.Unseen = nil // an attack gives the attacker away
	if l := f.Loads[d.Weapon]; l != nil {
		l.Loaded = false
	}
	return nil
}
