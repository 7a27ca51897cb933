package d20tactical

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Combat (seed "Combat"):
//   - Melee: d20 + melee attack (BAB + Strength) + modifiers ≥ the target's
//     Defense hits; cover plays no part. The posture and charge modifiers
//     are options (the seed's table lost its numbers).
//   - Ranged: d20 + ranged attack (BAB + Dexterity) ≥ Defense, with the
//     Distance penalties — Short 0, Medium −1, Long −2, Extreme −3 and half
//     damage (rounded down) — +1 from a crouch, +1 from prone and the range
//     penalty one step better (Extreme still halves). Crouched and prone
//     targets get nothing against shots: cover does it (cover.go).
//   - Burst (up to 3 shots) and automatic fire (up to 5): −1 per shot
//     after the first, one roll; on a hit 1dN of the N shots hit, each
//     rolling its own damage.
//   - Aimed shots (aimed.go), Dodge (dodge.go), fumbles (fumble.go) and
//     criticals (critical.go) follow from the roll.
// A natural 20 always hits, a natural 1 always misses (d20). Iterative
// attacks (d20): a full attack with a base attack bonus of +6 or more adds
// an attack at −5 per +5.

// attackSpec is one attack to resolve.
type attackSpec struct {
	Attacker string `json:"attacker"`
	Target   string `json:"target,omitempty"`
	Weapon   string `json:"weapon"`
	Shots    int    `json:"shots,omitempty"`
	Aim      string `json:"aim,omitempty"`
	// Free names a free attack ("aoo", "fumble"): no action spent.
	Free      string          `json:"free,omitempty"`
	Charge    bool            `json:"charge,omitempty"`
	Iterative int             `json:"iterative,omitempty"`
	Uses      *engine.Trigger `json:"uses,omitempty"`
	// Cover is the GM's ruling for this shot (cover-ruling "ask").
	Cover  *Cover     `json:"cover,omitempty"`
	Object *objectCtx `json:"object,omitempty"`
}

func (s attackSpec) shots() int { return max(s.Shots, 1) }

// aimed reports whether the attack is an aimed shot that counts as one
// (the front torso counts as a normal shot).
func (s attackSpec) aimed() bool { return s.Aim != "" && s.Aim != LocFrontTorso }

// AttackRolled is the data of an attack event.
type AttackRolled struct {
	Attacker    string `json:"attacker"`
	Target      string `json:"target,omitempty"`
	Object      string `json:"object,omitempty"`
	Weapon      string `json:"weapon"`
	Shots       int    `json:"shots"`
	Aim         string `json:"aim,omitempty"`
	Free        string `json:"free,omitempty"`
	Band        string `json:"band,omitempty"`
	Natural     int    `json:"natural"`
	Total       int    `json:"total"`
	Defense     int    `json:"defense"`
	Mods        []Mod  `json:"mods"`
	DefenseMods []Mod  `json:"defenseMods"`
	Hit         bool   `json:"hit"`
	Threat      bool   `json:"threat,omitempty"`
	Critical    bool   `json:"critical,omitempty"`
	Fumble      bool   `json:"fumble,omitempty"`
	// Ammo is what the weapon has left (-1: not counted).
	Ammo int `json:"ammo"`
}

// AttackLost is the data of an attack-lost event: an attack that could
// not be made after all.
type AttackLost struct {
	Attacker string `json:"attacker"`
	Reason   string `json:"reason,omitempty"`
}

// Range bands (seed "Distance").
const (
	BandShort = iota
	BandMedium
	BandLong
	BandExtreme
)

var bandNames = []string{"Short", "Medium", "Long", "Extreme"}

// rangeBand is the band a distance in feet falls in for weapon w, and
// whether it is within the weapon's maximum range.
func rangeBand(b *engine.Base, w *Weapon, feet int) (int, bool) {
	if feet > w.MaxRange() {
		return BandExtreme, false
	}
	switch r := w.Range; {
	case feet <= r:
		return BandShort, true
	case feet <= r*kit.OptInt(b, OptBandMedium):
		return BandMedium, true
	case feet <= r*kit.OptInt(b, OptBandLong):
		return BandLong, true
	}
	return BandExtreme, true
}

func bandIndex(name string) int {
	return slices.IndexFunc(bandNames, func(n string) bool { return strings.EqualFold(n, name) })
}

// checkAttack says whether a may make attack s on t (nil for an object)
// with w now.
func checkAttack(st *State, a *Fighter, t *Fighter, w *Weapon, s attackSpec) error {
	switch {
	case w == nil:
		return fray.Errorf(fray.EINVALID, "%s has no weapon %q", st.NameOf(a.ID), s.Weapon)
	case w.Ruined:
		return fray.Errorf(fray.EILLEGAL, "the %s is ruined", w.Name)
	case w.Jammed:
		return fray.Errorf(fray.EILLEGAL, "the %s is jammed: clearing it is a move action", w.Name)
	case a.Dropped && w.ID != unarmed.ID:
		return fray.Errorf(fray.EILLEGAL, "%s dropped what they held: pick it up (a move action) or fight unarmed", st.NameOf(a.ID))
	case s.shots() > w.MaxShots():
		if w.MaxShots() == 1 {
			return fray.Errorf(fray.EILLEGAL, "the %s fires single shots only", w.Name)
		}
		return fray.Errorf(fray.EILLEGAL, "the %s fires at most %d shots at once", w.Name, w.MaxShots())
	case w.Clip > 0 && w.Ammo < s.shots():
		return fray.Errorf(fray.EILLEGAL, "the %s has %d round(s) left: reload (a move action)", w.Name, w.Ammo)
	case s.Aim != "" && !slices.Contains(Locations, s.Aim):
		return fray.Errorf(fray.EINVALID, "no body location %q", s.Aim)
	case s.aimed() && s.shots() > 1:
		return fray.Errorf(fray.EILLEGAL, "an aimed shot is a single shot")
	}
	if t == nil {
		if s.aimed() {
			return fray.Errorf(fray.EILLEGAL, "an object has no body locations to aim at")
		}
		return nil
	}
	if t.ID == a.ID {
		return fray.Errorf(fray.EILLEGAL, "%s cannot attack themselves", st.NameOf(a.ID))
	}
	d := distance(&st.Base, cell(a), cell(t))
	if !w.Ranged() {
		if d > w.ReachFeet() {
			return fray.Errorf(fray.EILLEGAL, "%s is out of reach of the %s (%d ft away, reach %d ft)", st.NameOf(t.ID), w.Name, d, w.ReachFeet())
		}
		return nil
	}
	if !st.sight(cell(a), cell(t)) {
		return fray.Errorf(fray.EILLEGAL, "%s has no line of sight to %s", st.NameOf(a.ID), st.NameOf(t.ID))
	}
	band, ok := rangeBand(&st.Base, w, d)
	if !ok {
		return fray.Errorf(fray.EILLEGAL, "%s is out of range of the %s (%d ft away, %d ft at most)", st.NameOf(t.ID), w.Name, d, w.MaxRange())
	}
	if s.aimed() && band >= BandLong {
		return fray.Errorf(fray.EILLEGAL, "no aimed shots at %s range (%d ft)", strings.ToLower(bandNames[band]), d)
	}
	return nil
}

// attackMods are the modifiers of attack s, each with its source, and the
// range band of a ranged attack (-1 in melee).
func attackMods(st *State, a, t *Fighter, w *Weapon, s attackSpec) ([]Mod, int) {
	b := &st.Base
	mods := []Mod{{Source: "base attack bonus", Value: a.Sheet.BAB}}
	if s.Iterative > 0 {
		mods = append(mods, Mod{Source: "iterative attack", Value: -5 * s.Iterative})
	}
	if w.Ranged() { // thrown weapons too: Dexterity to hit, Strength to damage
		mods = append(mods, Mod{Source: "Dexterity", Value: a.DexMod()})
	} else {
		mods = append(mods, Mod{Source: "Strength", Value: a.StrMod()})
	}
	if w.Attack != 0 {
		mods = append(mods, Mod{Source: w.Name, Value: w.Attack})
	}
	if n := a.hurtCount("arm"); n > 0 {
		mods = append(mods, Mod{Source: fmt.Sprintf("%d arm(s) hit", n), Value: -n})
	}
	band := -1
	if !w.Ranged() {
		if t != nil {
			switch t.Posture {
			case Crouched:
				mods = append(mods, Mod{Source: "target crouched", Value: kit.OptInt(b, OptMeleeVsCrouched)})
			case Prone:
				mods = append(mods, Mod{Source: "target prone", Value: kit.OptInt(b, OptMeleeVsProne)})
			}
		}
		switch a.Posture {
		case Crouched:
			mods = append(mods, Mod{Source: "attacking from a crouch", Value: kit.OptInt(b, OptMeleeFromCrouched)})
		case Prone:
			mods = append(mods, Mod{Source: "attacking from prone", Value: kit.OptInt(b, OptMeleeFromProne)})
		}
		if s.Charge {
			mods = append(mods, Mod{Source: "charge", Value: kit.OptInt(b, OptChargeAttack)})
		}
	} else {
		switch {
		case s.Object != nil:
			band = max(bandIndex(s.Object.Band), 0)
		case t != nil:
			band, _ = rangeBand(b, w, distance(b, cell(a), cell(t)))
		}
		step := band
		if a.Posture == Prone {
			step = max(band-1, 0) // the range penalty one step better; the band's effects stay
		}
		if step > 0 {
			mods = append(mods, Mod{Source: strings.ToLower(bandNames[band]) + " range", Value: -step})
		}
		switch a.Posture {
		case Crouched:
			mods = append(mods, Mod{Source: "firing from a crouch", Value: 1})
		case Prone:
			mods = append(mods, Mod{Source: "firing from prone", Value: 1})
		}
		if n := s.shots(); n > 1 {
			what := "burst"
			if n > MaxBurst {
				what = "automatic fire"
			}
			mods = append(mods, Mod{Source: fmt.Sprintf("%s, %d shots", what, n), Value: -(n - 1)})
		}
		if t != nil && inMelee(st, a, t) {
			mods = append(mods, Mod{Source: "shooting into melee", Value: kit.OptInt(b, OptShootIntoMelee)})
		}
	}
	if s.aimed() {
		v := -4
		if s.Aim == LocHead || s.Aim == LocGroin {
			v = -6
		}
		mods = append(mods, Mod{Source: "aimed at the " + locationName(s.Aim), Value: v})
	}
	return slices.DeleteFunc(mods, func(m Mod) bool { return m.Value == 0 && m.Source != "base attack bonus" }), band
}

// inMelee reports whether t stands next to one of a's allies still up.
func inMelee(st *State, a, t *Fighter) bool {
	for _, c := range st.Combatants {
		if c.ID == a.ID || st.opponents(c.ID, a.ID) || !st.able(c.ID) {
			continue
		}
		if distance(&st.Base, cell(st.Fighters[c.ID]), cell(t)) <= Square {
			return true
		}
	}
	return false
}

// defenseMods are t's Defense against attack s, part by part.
func defenseMods(st *State, a, t *Fighter, w *Weapon, s attackSpec) []Mod {
	if s.Object != nil {
		return []Mod{{Source: "the object's Defense", Value: s.Object.Defense}}
	}
	parts := t.DefenseParts()
	if w.Ranged() {
		c, source := coverFor(st, a, t, s.Cover)
		if bonus := c.Bonus(); bonus > 0 {
			parts = append(parts, Mod{Source: fmt.Sprintf("cover %d%% (%s)", c.Percent, source), Value: bonus})
		}
	}
	if t.Charging {
		parts = append(parts, Mod{Source: "charging", Value: kit.OptInt(&st.Base, OptChargeDefense)})
	}
	return parts
}

// runAttack rolls one attack and carries out what follows from it.
func runAttack(tx *Tx, s attackSpec) error {
	st := tx.State
	a := st.Fighters[s.Attacker]
	if !st.able(s.Attacker) {
		return nil
	}
	w := a.Weapon(s.Weapon)
	var t *Fighter
	if s.Target != "" {
		t = st.Fighters[s.Target]
		if t == nil || st.Combatant(t.ID).Out {
			return lost(tx, s, "the target is gone")
		}
	}
	if err := checkAttack(st, a, t, w, s); err != nil {
		return lost(tx, s, fray.ErrorMessage(err))
	}
	if st.Combatant(a.ID).Hidden && kit.Opt(&st.Base, OptHiddenAttacks) == Reveal {
		if err := tx.Reveal(a.ID, st.NameOf(a.ID)+" attacks and gives away their position."); err != nil {
			return err
		}
	}
	if t != nil && w.Ranged() && s.Cover == nil && t.Cover == nil && kit.Opt(&st.Base, OptCoverRuling) == CoverAsk {
		if c, _ := coverFor(st, a, t, nil); c.Percent > 0 {
			return askCover(tx, s, a, t, c)
		}
	}
	mods, band := attackMods(st, a, t, w, s)
	defMods := defenseMods(st, a, t, w, s)
	defense := sumMods(defMods)
	bonus := sumMods(mods)
	d := tx.Dice.Die(20)
	nat := d.Total()
	total := nat + bonus
	fumbleTo := max(w.Fumble, 1)
	critFrom := w.Crit
	if critFrom == 0 {
		critFrom = 20
	}
	out := AttackRolled{Attacker: a.ID, Target: s.Target, Weapon: w.ID, Shots: s.shots(), Aim: s.Aim, Free: s.Free,
		Natural: nat, Total: total, Defense: defense, Mods: mods, DefenseMods: defMods, Ammo: -1}
	if s.Object != nil {
		out.Object = s.Object.label()
	}
	if band >= 0 {
		out.Band = bandNames[band]
	}
	out.Fumble = nat <= fumbleTo && nat < 20
	out.Hit = !out.Fumble && (nat == 20 || total >= defense)
	out.Threat = out.Hit && nat >= critFrom && !s.aimed()
	rolls := []dice.Roll{{Label: "Attack (" + w.Name + ")", Who: a.ID, Dice: []dice.Die{d}, Mod: bonus, Mods: diceMods(mods),
		Total: total, Target: defense, Compare: dice.AtLeast, Result: hitText(out), Outcome: dice.OutcomeOf(out.Hit)}}
	out.Critical = out.Threat
	if out.Threat && kit.Opt(&st.Base, OptCritConfirm) == Roll {
		c := tx.Dice.Die(20)
		ct := c.Total() + bonus
		out.Critical = c.Total() == 20 || (c.Total() > fumbleTo && ct >= defense)
		rolls = append(rolls, dice.Roll{Label: "Critical confirmation", Who: a.ID, Dice: []dice.Die{c}, Mod: bonus, Mods: diceMods(mods),
			Total: ct, Target: defense, Compare: dice.AtLeast, Result: passFail(out.Critical), Outcome: dice.OutcomeOf(out.Critical)})
	}
	if w.Clip > 0 {
		out.Ammo = w.Ammo - s.shots()
	}
	ev := engine.NewEvent(KindAttack, a.ID, attackText(st, a, t, w, s, out), out, rolls...).With(s.Target)
	if s.Uses != nil {
		ev = ev.Using(*s.Uses)
	}
	if err := tx.Emit(ev); err != nil {
		return err
	}
	if out.Fumble {
		return fumble(tx, s, a, t, w, band)
	}
	if !out.Hit {
		return nil
	}
	half := band == BandExtreme
	if s.Object != nil {
		crit := ""
		if out.Critical {
			crit = critDouble
		}
		return tx.Run(engine.NewStep(stepDamage, damageSpec{Attacker: a.ID, Weapon: w.ID, Shots: s.shots(), Half: half, Crit: crit, Object: out.Object}))
	}
	if out.Critical {
		if err := loseArmourPoint(tx, t); err != nil {
			return err
		}
	}
	return tx.Run(engine.NewStep(stepHit, hitSpec{Attacker: a.ID, Target: t.ID, Weapon: w.ID, Shots: s.shots(), Aim: s.Aim,
		Half: half, Critical: out.Critical, Ranged: w.Ranged()}))
}

func hitText(a AttackRolled) string {
	switch {
	case a.Fumble:
		return "fumble"
	case a.Critical:
		return "critical hit"
	case a.Hit:
		return "hit"
	}
	return "miss"
}

func attackText(st *State, a, t *Fighter, w *Weapon, s attackSpec, out AttackRolled) string {
	var b strings.Builder
	who := "an object"
	if t != nil {
		who = st.NameOf(t.ID)
	} else if s.Object != nil && s.Object.Label != "" {
		who = s.Object.Label
	}
	switch s.Free {
	case reactAoO:
		fmt.Fprintf(&b, "%s makes an attack of opportunity on %s with the %s", st.NameOf(a.ID), who, w.Name)
	case reactFumble:
		fmt.Fprintf(&b, "%s takes a free attack at %s with the %s", st.NameOf(a.ID), who, w.Name)
	default:
		// The action event before it said who attacks whom.
		fmt.Fprintf(&b, "%s: %s", st.NameOf(a.ID), w.Name)
		if s.Iterative > 0 {
			fmt.Fprintf(&b, ", attack %d", s.Iterative+1)
		}
	}
	if s.shots() > 1 {
		fmt.Fprintf(&b, ", %d shots", s.shots())
	}
	if s.Aim != "" {
		fmt.Fprintf(&b, ", aiming at the %s", locationName(s.Aim))
	}
	if out.Band != "" {
		fmt.Fprintf(&b, ", %s range", strings.ToLower(out.Band))
	}
	fmt.Fprintf(&b, " — %s.", hitText(out)) // the roll shows the numbers
	if out.Threat && !out.Critical {
		b.WriteString(" The critical is not confirmed.")
	}
	return b.String()
}

func lost(tx *Tx, s attackSpec, reason string) error {
	st := tx.State
	if s.Free != "" {
		return nil // a free attack that no longer applies is simply not made
	}
	return tx.Emits(KindAttackLost, s.Attacker, fmt.Sprintf("%s's attack is lost: %s.", st.NameOf(s.Attacker), strings.TrimSuffix(reason, ".")),
		AttackLost{Attacker: s.Attacker, Reason: reason})
}

// flexInt reads a whole number given as a number or as text (a select's
// value).
type flexInt int

func (n *flexInt) UnmarshalJSON(raw []byte) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	switch x := v.(type) {
	case float64:
		*n = flexInt(x)
	case string:
		if x == "" {
			*n = 0
			return nil
		}
		i, err := strconv.Atoi(strings.TrimSpace(x))
		if err != nil {
			return fmt.Errorf("%q is not a whole number", x)
		}
		*n = flexInt(i)
	case nil:
		*n = 0
	default:
		return fmt.Errorf("not a whole number")
	}
	return nil
}

// attackArgs are the arguments of attack and full-attack.
type attackArgs struct {
	Target string  `json:"target"`
	Weapon string  `json:"weapon"`
	Shots  flexInt `json:"shots"`
	Aim    string  `json:"aim"`
}

// iterations is how many attacks a full attack makes: one more per +5 of
// base attack bonus beyond +1.
func iterations(f *Fighter) int {
	if f.Sheet.BAB < 6 {
		return 1
	}
	return 1 + (f.Sheet.BAB-1)/5
}

// attackRefusal is what the rules refuse of an attack (a full attack with
// full) by f on t with args, whatever f's actions left: the handler's
// check, and the one the attack forms are narrowed with (actions.go), so
// a form never offers what the attack refuses. It returns the attack.
func attackRefusal(st *State, f, t *Fighter, args attackArgs, full bool) (attackSpec, error) {
	if !st.opponents(f.ID, t.ID) {
		return attackSpec{}, kit.OwnSide(st.NameOf(t.ID), st.NameOf(f.ID), t.ID == f.ID)
	}
	if args.Shots < 0 || args.Shots > MaxAuto {
		return attackSpec{}, fray.Errorf(fray.EINVALID, "shots run from 1 to %d", MaxAuto)
	}
	if args.Aim == "none" {
		args.Aim = ""
	}
	spec := attackSpec{Attacker: f.ID, Target: t.ID, Weapon: args.Weapon, Shots: int(args.Shots), Aim: args.Aim}
	if err := checkAttack(st, f, t, f.Weapon(args.Weapon), spec); err != nil {
		return spec, err
	}
	if full {
		if iterations(f) < 2 {
			return spec, fray.Errorf(fray.EILLEGAL, "a full attack needs a base attack bonus of +6 or more")
		}
		if spec.shots() > 1 {
			return spec, fray.Errorf(fray.EILLEGAL, "a full attack fires single shots")
		}
	}
	return spec, nil
}

func decideAttack(tx *Tx, cmd engine.Command, full bool) error {
	var args attackArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if args.Weapon == "" {
		return fray.Errorf(fray.EINVALID, "choose a weapon")
	}
	t, err := tx.Target(args.Target)
	if err != nil {
		return err
	}
	spec, err := attackRefusal(st, f, t, args, full)
	if err != nil {
		return err
	}
	w := f.Weapon(args.Weapon)
	n := 1
	var b Budget
	if full {
		n = iterations(f)
		b, err = f.Budget.useFull("a full attack", true)
	} else {
		b, err = f.Budget.useStandard()
	}
	if err != nil {
		return err
	}
	what, text := "attack", fmt.Sprintf("%s attacks %s with the %s (standard action).", st.NameOf(f.ID), st.NameOf(t.ID), w.Name)
	if full {
		what, text = "full attack", fmt.Sprintf("%s makes a full attack on %s with the %s (full round).", st.NameOf(f.ID), st.NameOf(t.ID), w.Name)
	}
	if err := declare(tx, f, what, b, text); err != nil {
		return err
	}
	steps := []engine.Step{engine.NewStep(stepReadyCheck, readyCheck{By: f.ID, Trigger: TriggerAttack})}
	if w.Ranged() {
		steps = append(steps, reactionSteps(st, f, cell(f), reactAoO)...)
	}
	for i := 0; i < n; i++ {
		s := spec
		s.Iterative = i
		steps = append(steps, engine.NewStep(stepAttack, s))
	}
	steps = append(steps, engine.NewStep(stepAfter, afterAction{Fighter: f.ID, Strenuous: true}))
	return tx.Run(steps...)
}

// Charge (seed "Charge", spec [I]: the charger's exact speed give or take
// the tolerance, in a straight line; d20's +2 to hit and −2 Defense).

// chargeLanes are the squares f could charge t from with w, by how far
// the charge runs from exactly f's speed.
func chargeLanes(st *State, f, t *Fighter, w *Weapon, all map[Cell]Route) []Route {
	if w == nil || w.Ranged() || f.Speed() == 0 {
		return nil
	}
	speed, tol := f.Speed(), kit.OptInt(&st.Base, OptChargeTolerance)
	reach := w.ReachFeet() / Square
	var out []Route
	for x := t.X - reach; x <= t.X+reach; x++ {
		for y := t.Y - reach; y <= t.Y+reach; y++ {
			s := Cell{x, y}
			if s == cell(t) || s == cell(f) || distance(&st.Base, s, cell(t)) > w.ReachFeet() {
				continue
			}
			var r Route
			if all != nil {
				var ok bool
				if r, ok = all[s]; !ok {
					continue
				}
			} else {
				var ok bool
				if r, ok = chargeLine(st, f, s); !ok {
					continue
				}
			}
			if abs(r.Feet-speed) <= tol {
				out = append(out, r)
			}
		}
	}
	slices.SortFunc(out, func(a, b Route) int {
		if d := abs(a.Feet-speed) - abs(b.Feet-speed); d != 0 {
			return d
		}
		// The most direct line: nearest the charger as the crow flies.
		if d := sqDist(cell(f), a.To) - sqDist(cell(f), b.To); d != 0 {
			return d
		}
		if a.To.Y != b.To.Y {
			return a.To.Y - b.To.Y
		}
		return a.To.X - b.To.X
	})
	return out
}

// chargeLine is the straight line from f to s, if clear: no walls, pits,
// obstacles or difficult terrain, no opponent in the way, s free.
func chargeLine(st *State, f *Fighter, s Cell) (Route, bool) {
	t := st.Grid.at(s.X, s.Y)
	if !st.Grid.inside(s.X, s.Y) || !t.walkable() || t.rough() || st.occupant(s, f.ID) != nil {
		return Route{}, false
	}
	path := append(line(cell(f), s), s)
	for _, p := range path {
		pt := st.Grid.at(p.X, p.Y)
		if !pt.walkable() || pt.rough() {
			return Route{}, false
		}
		if o := st.occupant(p, f.ID); o != nil && st.opponents(o.ID, f.ID) && !o.Down() {
			return Route{}, false
		}
	}
	return Route{To: s, Path: path, Feet: distance(&st.Base, cell(f), s)}, true
}

// chargeRoutes are the routes a charge may follow under the option: nil
// for straight lines only.
func chargeRoutes(st *State, f *Fighter) map[Cell]Route {
	if kit.Opt(&st.Base, OptChargeLine) != AnyPath {
		return nil
	}
	all := routes(st, f, f.Speed()+kit.OptInt(&st.Base, OptChargeTolerance))
	for c, r := range all {
		for _, p := range r.Path {
			if st.Grid.at(p.X, p.Y).rough() {
				delete(all, c)
				break
			}
		}
	}
	return all
}

func canCharge(st *State, f *Fighter) error {
	switch {
	case f.Posture != Standing:
		return fray.Errorf(fray.EILLEGAL, "stand up before charging")
	case !f.Budget.canFull(false):
		return fray.Errorf(fray.EILLEGAL, "a charge takes the full round: it must be the turn's only action")
	case f.Speed() == 0:
		return fray.Errorf(fray.EILLEGAL, "%s cannot charge on hurt legs", st.NameOf(f.ID))
	}
	return nil
}

// chargeRefusal is what the rules refuse of a charge by f at t with w
// (named weapon), among f's charge routes all: the handler's check, and
// the one the charge form is narrowed with. It returns the lane the
// charge runs.
func chargeRefusal(st *State, f, t *Fighter, w *Weapon, weapon string, all map[Cell]Route) (Route, error) {
	if !st.opponents(f.ID, t.ID) {
		return Route{}, kit.OwnSide(st.NameOf(t.ID), st.NameOf(f.ID), t.ID == f.ID)
	}
	if w == nil {
		return Route{}, fray.Errorf(fray.EINVALID, "%s has no weapon %q", st.NameOf(f.ID), weapon)
	}
	if w.Ranged() {
		return Route{}, fray.Errorf(fray.EILLEGAL, "a charge ends in a melee attack: the %s is a ranged weapon", w.Name)
	}
	if err := checkAttack(st, f, nil, w, attackSpec{Attacker: f.ID, Weapon: w.ID}); err != nil {
		return Route{}, err
	}
	lanes := chargeLanes(st, f, t, w, all)
	if len(lanes) == 0 {
		how := "in a straight line"
		if kit.Opt(&st.Base, OptChargeLine) == AnyPath {
			how = "along a clear path"
		}
		return Route{}, fray.Errorf(fray.EILLEGAL, "no charge at %s: it must cover %d ft (±%d) %s, without difficult terrain, to a free square in reach",
			st.NameOf(t.ID), f.Speed(), kit.OptInt(&st.Base, OptChargeTolerance), how)
	}
	return lanes[0], nil
}

func decideCharge(tx *Tx, cmd engine.Command) error {
	var args struct {
		Target string `json:"target"`
		Weapon string `json:"weapon"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if err := canCharge(st, f); err != nil {
		return err
	}
	t, err := tx.Target(args.Target)
	if err != nil {
		return err
	}
	w := f.Weapon(args.Weapon)
	r, err := chargeRefusal(st, f, t, w, args.Weapon, chargeRoutes(st, f))
	if err != nil {
		return err
	}
	spec := attackSpec{Attacker: f.ID, Target: t.ID, Weapon: w.ID, Charge: true}
	b, err := f.Budget.useFull("a charge", false)
	if err != nil {
		return err
	}
	b.Moved = true
	text := fmt.Sprintf("%s charges %s: %d ft to %s (full round; %+d Defense until their next turn).", st.NameOf(f.ID), st.NameOf(t.ID), r.Feet, r.To.Name(), kit.OptInt(&st.Base, OptChargeDefense))
	if err := declare(tx, f, ModeCharge, b, text); err != nil {
		return err
	}
	return tx.Run(engine.NewStep(stepMoveLeg, moveLeg{Fighter: f.ID, From: cell(f), Path: r.Path, Mode: ModeCharge}),
		engine.NewStep(stepReadyCheck, readyCheck{By: f.ID, Trigger: TriggerMove}),
		engine.NewStep(stepReadyCheck, readyCheck{By: f.ID, Trigger: TriggerAttack}),
		engine.NewStep(stepAttack, spec),
		engine.NewStep(stepAfter, afterAction{Fighter: f.ID, Strenuous: true}))
}

func sqDist(a, b Cell) int { return (a.X-b.X)*(a.X-b.X) + (a.Y-b.Y)*(a.Y-b.Y) }
