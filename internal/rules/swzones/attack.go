package swzones

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Attacks:
//   - fight: Fighting against the target's Parry, only at an opponent in
//     the same melee, with the gang-up bonus; damage Strength die + weapon
//     dice.
//   - shoot: Shooting (or Athletics/Throwing for thrown weapons) against 4,
//     with 0/−2/−4 at Short/Medium/Long range and −8 at Extreme (up to 4×
//     Long, SWADE), ranges counted in zones; a zone's cover adds its
//     penalty; damage is the weapon's dice.
//   - a raise on the attack adds a d6 to damage; every damage die aces.
//   - free attacks on a fighter who disengages, see movement.go.
// Up to three actions a turn, −2 to each per extra action (see the
// multi-action option); a Shaken fighter may take no action.

// MaxActions is the most actions a fighter may take in a turn.
const MaxActions = 3

// Attack is the data of an attack event: the roll, what it was against, and
// the harm done.
type Attack struct {
	Attacker string `json:"attacker"`
	Target   string `json:"target"`
	Weapon   string `json:"weapon"`
	Kind     string `json:"kind"` // "fight", "shoot" or "free attack"
	// Action is set when the attack is one of the attacker's actions this
	// turn (free attacks are not); Declared is the number of actions the
	// first action of the turn declared.
	Action   bool `json:"action,omitempty"`
	Declared int  `json:"declared,omitempty"`

	Mods     []Mod  `json:"mods"`           // every modifier to the attack roll
	Against  []Mod  `json:"against"`        // what makes up the target number: Parry, Defend, or 4
	TN       int    `json:"tn"`             // the target number
	Total    int    `json:"total"`          // the attack roll's total
	Result   string `json:"result"`         // "hit", "raise", "2 raises", "miss", "critical failure", "cover"
	Raises   int    `json:"raises"`         // raises on the attack roll
	Distance int    `json:"distance"`       // zones between attacker and target
	Band     string `json:"band,omitempty"` // range band of a shot
	Cover    string `json:"cover,omitempty"`
	CoverHit bool   `json:"coverHit,omitempty"` // missed only because of the cover: the cover was hit
	GangUp   int    `json:"gangUp,omitempty"`
	Drop     bool   `json:"drop,omitempty"`   // The Drop: +4 to hit and damage
	Reroll   bool   `json:"reroll,omitempty"` // a Benny reroll of the attack before it
	Skill    string `json:"skill,omitempty"`  // a power's skill (cast)
	Why      string `json:"why,omitempty"`    // a free attack's trigger: "disengages", "joins the melee", …
	Damage   *Harm  `json:"damage,omitempty"`
}

// flexInt reads a JSON number or a numeric string; absent is 0.
type flexInt int

func (n *flexInt) UnmarshalJSON(b []byte) error {
	var s string
	if bytes.HasPrefix(b, []byte(`"`)) {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s == "" {
			*n = 0
			return nil
		}
		v, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("%q is not a whole number", s)
		}
		*n = flexInt(v)
		return nil
	}
	var v int
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*n = flexInt(v)
	return nil
}

// flexBool reads a JSON boolean or "true"/"false"/"on"/""; absent is false.
type flexBool bool

func (f *flexBool) UnmarshalJSON(b []byte) error {
	if bytes.HasPrefix(b, []byte(`"`)) {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		switch s {
		case "true", "on", "yes", "1":
			*f = true
		case "false", "off", "no", "0", "":
			*f = false
		default:
			return fmt.Errorf("%q is not true or false", s)
		}
		return nil
	}
	var v bool
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = flexBool(v)
	return nil
}

// canAct reports whether f may take an action (attack, Defend) now. An
// escape from a grapple is the one action a Bound fighter may take.
func canAct(st *State, f *Fighter, escape bool) error {
	switch {
	case f.Shaken:
		return fray.Errorf(fray.EILLEGAL, "%s is Shaken: only free actions such as moving", st.NameOf(f.ID))
	case f.Defend > 0:
		return fray.Errorf(fray.EILLEGAL, "%s is defending: no other action this turn", st.NameOf(f.ID))
	case f.Grip != nil && f.Grip.Level == Bound && !escape:
		return fray.Errorf(fray.EILLEGAL, "%s is Bound: the only action left is to try to break free", st.NameOf(f.ID))
	}
	return nil
}

// actionReq is what an action command says about the turn: the number of
// actions declared with the first one, and the unspent Movement given up to
// cancel the Running penalty.
type actionReq struct {
	Declared int
	Spare    int
	Escape   bool // the action is an escape from a grapple
}

// actionMods checks that f may take one more action and returns its
// modifiers (multi-action, Shaken recovery, Running, grappled) and, for the
// first action of a declared turn, the number of actions declared.
func actionMods(st *State, f *Fighter, req actionReq) ([]Mod, int, error) {
	if err := canAct(st, f, req.Escape); err != nil {
		return nil, 0, err
	}
	declared := req.Declared
	var mods []Mod
	declare := 0
	extra := 0
	if kit.Opt(&st.Base, OptMultiAction) == MultiProgressive {
		if declared != 0 {
			return nil, 0, fray.Errorf(fray.EINVALID, "actions is only declared when the multi-action option is %q", MultiDeclare)
		}
		if f.Actions >= MaxActions {
			return nil, 0, fray.Errorf(fray.EILLEGAL, "%s has taken %d actions this turn, the most there can be", st.NameOf(f.ID), MaxActions)
		}
		extra = f.Actions
	} else {
		switch {
		case f.Actions == 0:
			if declared == 0 {
				declared = 1
			}
			if declared < 1 || declared > MaxActions {
				return nil, 0, fray.Errorf(fray.EINVALID, "actions must be 1 to %d", MaxActions)
			}
			declare = declared
			extra = declared - 1
		case declared != 0 && declared != f.Declared:
			return nil, 0, fray.Errorf(fray.EILLEGAL, "%s declared %d actions this turn", st.NameOf(f.ID), f.Declared)
		case f.Actions >= f.Declared:
			return nil, 0, fray.Errorf(fray.EILLEGAL, "%s has taken the %d action(s) declared this turn", st.NameOf(f.ID), f.Declared)
		default:
			extra = f.Declared - 1
		}
	}
	if err := checkSpare(st, f, req.Spare); err != nil {
		return nil, 0, err
	}
	if extra > 0 {
		mods = append(mods, Mod{Source: "multi-action", Value: -2 * extra})
	}
	if f.RecoveryPenalty != 0 {
		mods = append(mods, Mod{Source: "Shaken recovery", Value: f.RecoveryPenalty})
	}
	if p := min(f.RunPenalty+f.Refund+req.Spare, 0); f.Ran && p != 0 {
		mods = append(mods, Mod{Source: "running", Value: p})
	}
	if f.Grip != nil && !req.Escape {
		mods = append(mods, Mod{Source: f.Grip.Level, Value: -2})
	}
	return mods, declare, nil
}

// checkSpare checks the unspent Movement f gives up against the Running
// penalty with this action.
func checkSpare(st *State, f *Fighter, spare int) error {
	switch {
	case spare == 0:
		return nil
	case spare < 0:
		return fray.Errorf(fray.EINVALID, "spare must be 0 or more")
	case !f.Ran:
		return fray.Errorf(fray.EILLEGAL, "only a fighter who ran this turn gives up Movement against the Running penalty")
	case !refundOpen(st, f):
		return fray.Errorf(fray.EILLEGAL, "unspent Movement must be given up with the first action roll after Running")
	case spare > f.MP:
		return fray.Errorf(fray.EILLEGAL, "%s has %s", st.NameOf(f.ID), mpLeft(f.MP))
	case f.Refund+spare > 2:
		return fray.Errorf(fray.EILLEGAL, "unspent Movement cancels at most 2 points of the Running penalty")
	}
	return nil
}

// refundOpen reports whether f may still give up Movement to cancel the
// Running penalty.
func refundOpen(st *State, f *Fighter) bool {
	if !f.Ran || f.Refund >= 2 {
		return false
	}
	return kit.Opt(&st.Base, OptRunRefund) == RefundAnyRoll || f.Actions == 0
}

// Refund is the data of a run-refund event.
type Refund struct {
	Fighter string `json:"fighter"`
	MP      int    `json:"mp"`
}

// commitRefund gives up spare Movement against the Running penalty.
func commitRefund(tx *Tx, f *Fighter, spare int) error {
	if spare <= 0 {
		return nil
	}
	st := tx.State
	text := fmt.Sprintf("%s gives up %d unspent Movement: the Running penalty is now %d (%s).", st.NameOf(f.ID), spare,
		min(f.RunPenalty+f.Refund+spare, 0), mpLeft(f.MP-spare))
	return tx.Emits(KindRefund, f.ID, text, Refund{Fighter: f.ID, MP: spare})
}

type attackArgs struct {
	Target  string  `json:"target"`
	Weapon  string  `json:"weapon"`
	Actions flexInt `json:"actions"`
	Spare   flexInt `json:"spare"`
	Cover   string  `json:"cover"` // shoot only
}

func (a attackArgs) req() actionReq { return actionReq{Declared: int(a.Actions), Spare: int(a.Spare)} }

func decideFight(tx *Tx, cmd engine.Command) error {
	var args attackArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	if args.Cover != "" {
		return fray.Errorf(fray.EINVALID, "cover applies to shooting only")
	}
	st := tx.State
	t, err := tx.Target(args.Target)
	if err != nil {
		return err
	}
	if f.Melee == "" {
		return fray.Errorf(fray.EILLEGAL, "%s is not in a melee: engage first", st.NameOf(f.ID))
	}
	if t.Melee != f.Melee {
		return fray.Errorf(fray.EILLEGAL, "%s is not in %s's melee", st.NameOf(t.ID), st.NameOf(f.ID))
	}
	if !st.opponents(f.ID, t.ID) {
		return kit.OwnSide(st.NameOf(t.ID), st.NameOf(f.ID), t.ID == f.ID)
	}
	w, err := meleeWeapon(st, f, args.Weapon)
	if err != nil {
		return err
	}
	mods, declare, err := actionMods(st, f, args.req())
	if err != nil {
		return err
	}
	if err := commitRefund(tx, f, int(args.Spare)); err != nil {
		return err
	}
	s := meleeStrike(st, f, t, w, Attack{Kind: "fight", Action: true, Declared: declare}, mods, 0)
	s.Offer = true
	return s.roll(tx)
}

// meleeStrike prepares Fighting against Parry with gang-up, The Drop, prone
// fighters and a Bound target.
func meleeStrike(st *State, a, t *Fighter, w Weapon, at Attack, mods []Mod, retreat int) strike {
	s := strike{Attacker: a.ID, Target: t.ID, Weapon: w}
	gang, _, _ := st.gangUp(a.ID, t.ID)
	if gang > 0 {
		mods = append(mods, Mod{Source: "gang-up", Value: gang})
		at.GangUp = gang
	}
	if a.Prone {
		mods = append(mods, Mod{Source: "prone", Value: -2})
	}
	mods, s.DmgBonus = dropMods(a, t, &at, mods)
	at.Against = []Mod{{Source: "Parry", Value: t.Parry()}}
	if t.Defend > 0 {
		at.Against = append(at.Against, Mod{Source: "defend", Value: t.Defend})
	}
	if retreat > 0 {
		at.Against = append(at.Against, Mod{Source: "defending while retreating", Value: retreat})
	}
	if t.Prone {
		at.Against = append(at.Against, Mod{Source: "prone", Value: -2})
	}
	at.TN = sumMods(at.Against)
	s.Check = check(a, skillFighting, at.TN, mods...)
	s.Check.Attack = true
	s.At = at
	return s
}

// dropMods adds The Drop (+4 to hit and damage) and a Bound target (+2).
func dropMods(a, t *Fighter, at *Attack, mods []Mod) ([]Mod, int) {
	bonus := 0
	if a.Drop != "" && a.Drop == t.ID {
		mods = append(mods, Mod{Source: "The Drop", Value: 4})
		at.Drop, bonus = true, 4
	}
	if t.Grip != nil && t.Grip.Level == Bound {
		mods = append(mods, Mod{Source: "bound target", Value: 2})
	}
	return mods, bonus
}

func decideShoot(tx *Tx, cmd engine.Command) error {
	var args attackArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	t, err := tx.Target(args.Target)
	if err != nil {
		return err
	}
	w, at, band, err := shotRefusal(st, f, t, args.Weapon)
	if err != nil {
		return err
	}
	inMelee := f.Melee != ""
	cover, err := shotCover(st, t, args.Cover)
	if err != nil {
		return err
	}
	mods, declare, err := actionMods(st, f, args.req())
	if err != nil {
		return err
	}
	at.Declared = declare
	if band.Penalty != 0 {
		mods = append(mods, Mod{Source: band.Name + " range", Value: band.Penalty})
	}
	if err := commitRefund(tx, f, int(args.Spare)); err != nil {
		return err
	}
	s := rangedStrike(st, f, t, w, at, mods, cover, inMelee, shootingSkill(st, w))
	return s.roll(tx)
}

// shotRefusal is what the rules refuse of f's shot at t with weapon: the
// handler's check, and the one the shoot form's targets and weapons are
// narrowed with (kit.Narrow), so the form never offers a weapon that
// cannot reach a target it offers. It returns the weapon, the attack so
// far and its range band.
func shotRefusal(st *State, f, t *Fighter, weapon string) (Weapon, Attack, Band, error) {
	if !st.opponents(f.ID, t.ID) {
		return Weapon{}, Attack{}, Band{}, kit.OwnSide(st.NameOf(t.ID), st.NameOf(f.ID), t.ID == f.ID)
	}
	w, err := rangedWeapon(st, f, weapon)
	if err != nil {
		return w, Attack{}, Band{}, err
	}
	if f.Melee != "" {
		if kit.Opt(&st.Base, OptShootInMelee) != ShootAdjacent {
			return w, Attack{}, Band{}, fray.Errorf(fray.EILLEGAL, "%s is in a melee: disengage before shooting", st.NameOf(f.ID))
		}
		if t.Melee != f.Melee {
			return w, Attack{}, Band{}, fray.Errorf(fray.EILLEGAL, "from inside a melee %s may only shoot an opponent in it", st.NameOf(f.ID))
		}
	}
	at := Attack{Kind: "shoot", Action: true, Distance: st.Distance(f.Zone, t.Zone)}
	band, ok := RangeBand(at.Distance, w.Range, extremeRange(&st.Base))
	if !ok {
		return w, at, band, fray.Errorf(fray.EILLEGAL, "%s is out of range: %d zones away, %s reaches %d", st.NameOf(t.ID), at.Distance, w.Name, maxReach(&st.Base, w))
	}
	at.Band = band.Name
	return w, at, band, nil
}

// rangedStrike prepares a shot (or a bolt): against 4 with the target's
// cover, or against Parry from inside the target's melee; a prone target
// counts as Medium cover (prone-shots).
func rangedStrike(st *State, f, t *Fighter, w Weapon, at Attack, mods []Mod, cover string, inMelee bool, skill string) strike {
	s := strike{Attacker: f.ID, Target: t.ID, Weapon: w, Offer: true}
	if inMelee {
		// The base game's ranged attack in melee: against Parry, no cover.
		at.Against = []Mod{{Source: "Parry", Value: t.Parry()}}
		if t.Defend > 0 {
			at.Against = append(at.Against, Mod{Source: "defend", Value: t.Defend})
		}
	} else {
		at.Against = []Mod{{Source: "target number", Value: TargetNumber}}
		coverMod := coverPenalty(&st.Base, cover)
		if t.Prone && (at.Distance > 0 || kit.Opt(&st.Base, OptProneShots) == ProneAlways) {
			if p := coverPenalty(&st.Base, "medium"); p < coverMod {
				mods = append(mods, Mod{Source: "prone target (as Medium cover)", Value: p})
				coverMod = 0
			}
		}
		if coverMod != 0 {
			at.Cover = cover
			s.CoverMod = coverMod
			mods = append(mods, Mod{Source: cover + " cover", Value: coverMod})
		}
	}
	mods, s.DmgBonus = dropMods(f, t, &at, mods)
	at.TN = sumMods(at.Against)
	s.Check = check(f, skill, at.TN, mods...)
	s.Check.Attack = true
	s.At = at
	return s
}

// shootingSkill is the skill a ranged weapon uses.
func shootingSkill(st *State, w Weapon) string {
	switch {
	case !w.Thrown:
		return skillShooting
	case edition(&st.Base) == EditionSWD:
		return skillThrowing
	}
	return skillAthletics
}

// shotCover is the cover protecting t from a shot: the zone's unless the
// shooter names one ("none" for none).
func shotCover(st *State, t *Fighter, named string) (string, error) {
	switch {
	case named == "":
		return st.zone(t.Zone).Cover, nil
	case named == "none":
		return "", nil
	}
	for _, c := range coverLevels {
		if c == named {
			return c, nil
		}
	}
	return "", fray.Errorf(fray.EINVALID, "cover %q must be none, light, medium, heavy or near-total", named)
}

func meleeWeapon(st *State, f *Fighter, id string) (Weapon, error) {
	if id == "" {
		return f.MeleeWeapons()[0], nil
	}
	w, ok := f.Weapon(id)
	if !ok {
		return Weapon{}, fray.Errorf(fray.ENOTFOUND, "%s has no weapon %q", st.NameOf(f.ID), id)
	}
	if w.Ranged() || w.Area() {
		return Weapon{}, fray.Errorf(fray.EILLEGAL, "%s is not a melee weapon", w.Name)
	}
	return w, nil
}

func rangedWeapon(st *State, f *Fighter, id string) (Weapon, error) {
	if id == "" {
		r := f.RangedWeapons()
		if len(r) == 0 {
			return Weapon{}, fray.Errorf(fray.EILLEGAL, "%s has no ranged weapon", st.NameOf(f.ID))
		}
		return r[0], nil
	}
	w, ok := f.Weapon(id)
	if !ok {
		return Weapon{}, fray.Errorf(fray.ENOTFOUND, "%s has no weapon %q", st.NameOf(f.ID), id)
	}
	if w.Area() {
		return Weapon{}, fray.Errorf(fray.EILLEGAL, "%s covers an area: use it with the area action", w.Name)
	}
	if !w.Ranged() {
		return Weapon{}, fray.Errorf(fray.EILLEGAL, "%s is not a ranged weapon", w.Name)
	}
	return w, nil
}

// strike is an attack on one target, ready to roll: everything the roll and
// its resolution need, kept in a reroll decision while a Benny is weighed.
type strike struct {
	Attacker string `json:"attacker"`
	Target   string `json:"target"`
	Weapon   Weapon `json:"weapon"`
	At       Attack `json:"at"`
	Check    Check  `json:"check"`
	CoverMod int    `json:"coverMod,omitempty"`
	DmgBonus int    `json:"dmgBonus,omitempty"` // The Drop's +4
	Offer    bool   `json:"offer,omitempty"`    // a failed roll may be rerolled with a Benny
}

func (s strike) roll(tx *Tx) error {
	return resolveAttack(tx, s, rollTrait(tx.Dice, s.Check))
}

// resolveAttack turns a rolled attack into its event: on a hit (or a hit on
// cover the shot goes through) it rolls damage. A failed roll may be offered
// a reroll; a wounding hit may be offered a Soak, in which case the harm
// waits for the answer. Otherwise the harm applies with the event and an
// incapacitation follows.
func resolveAttack(tx *Tx, s strike, o Outcome) error {
	st := tx.State
	a, t := st.Fighters[s.Attacker], st.Fighters[s.Target]
	w := s.Weapon
	at := s.At
	at.Attacker, at.Target, at.Weapon = a.ID, t.ID, w.ID
	at.Mods, at.Total, at.Result, at.Raises = nonNil(o.Mods), o.Total, o.Roll.Result, o.Raises
	rolls := []dice.Roll{o.Roll}
	hit := o.Success
	obstacle := 0
	if !o.Success && !o.CritFail && s.CoverMod != 0 {
		if ok, _ := grade(o.Total-s.CoverMod, at.TN); ok {
			at.CoverHit, at.Result = true, "cover"
			armor := st.zone(t.Zone).CoverArmor
			if kit.Opt(&st.Base, OptCoverObstacle) == CoverArmor && armor > 0 {
				hit, obstacle = true, armor
			}
		}
	}
	offer := !hit && !o.CritFail && s.Offer && st.offers(OptRerollOffers, a.ID)
	if hit {
		dmgRoll, h := rollDamage(tx.Dice, a, t, w, at.Raises > 0 && !at.CoverHit, obstacle, s.DmgBonus)
		if st.canSoak(t.ID, a.ID, at.Raises, h) {
			h.Deferred = true
		}
		at.Damage = &h
		rolls = append(rolls, dmgRoll)
	}
	if err := tx.Emit(engine.NewEvent(KindAttack, a.ID, attackText(st, a, t, w, at), at, rolls...).With(t.ID)); err != nil {
		return err
	}
	if offer {
		return offerReroll(tx, "missed", rerollCtx{Strike: &s})
	}
	if at.Damage != nil && at.Damage.Deferred {
		return offerSoak(tx, soakCtx{Victim: t.ID, Attacker: a.ID, Harm: *at.Damage})
	}
	if at.Damage != nil && at.Damage.Incapacitated {
		return incapacitate(tx, t)
	}
	return nil
}

func attackText(st *State, a, t *Fighter, w Weapon, at Attack) string {
	var verb string
	switch at.Kind {
	case "free attack":
		verb = fmt.Sprintf("As %s %s, %s gets a free attack with %s", st.NameOf(t.ID), at.Why, st.NameOf(a.ID), w.Name)
		if at.Why == "" {
			verb = fmt.Sprintf("As %s disengages, %s gets a free attack with %s", st.NameOf(t.ID), st.NameOf(a.ID), w.Name)
		}
	case "shoot":
		verb = fmt.Sprintf("%s shoots at %s with %s", st.NameOf(a.ID), st.NameOf(t.ID), w.Name)
	case "cast":
		verb = fmt.Sprintf("%s casts %s at %s", st.NameOf(a.ID), w.Name, st.NameOf(t.ID))
	default:
		verb = fmt.Sprintf("%s attacks %s with %s", st.NameOf(a.ID), st.NameOf(t.ID), w.Name)
	}
	if at.Reroll {
		verb = "Reroll: " + verb
	}
	// What happened; the roll shows the numbers.
	text := verb
	if at.Band != "" {
		text += " (" + at.Band + " range)"
	}
	text += ": " + at.Result
	if at.CoverHit {
		text = fmt.Sprintf("%s — the shot hits the %s cover", text, at.Cover)
		if at.Damage == nil {
			text += " and is stopped"
		}
	}
	if at.Damage != nil {
		text += "; " + harmText(st, t, *at.Damage)
	}
	return text + "."
}

// Defended is the data of a defended event.
type Defended struct {
	Fighter string `json:"fighter"`
	Bonus   int    `json:"bonus"`
}

// decideDefend: the Defend action takes the whole turn's actions and adds
// +4 Parry (SWD +2) until the fighter's next turn.
func decideDefend(tx *Tx, cmd engine.Command) error {
	f, err := tx.Actor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	if err := canAct(st, f, false); err != nil {
		return err
	}
	if f.Actions > 0 {
		return fray.Errorf(fray.EILLEGAL, "Defend takes the whole turn: %s has already acted", st.NameOf(f.ID))
	}
	bonus := defendBonus(&st.Base)
	text := fmt.Sprintf("%s defends (+%d Parry until their next turn).", st.NameOf(f.ID), bonus)
	return tx.Emits(KindDefended, f.ID, text, Defended{Fighter: f.ID, Bonus: bonus})
}

func applyDefended(st *State, d Defended) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Defend = d.Bonus
	return nil
}

func applyAttack(st *State, d Attack) error {
	a, err := kit.Found(st.Fighter(d.Attacker), d.Attacker)
	if err != nil {
		return err
	}
	t, err := kit.Found(st.Fighter(d.Target), d.Target)
	if err != nil {
		return err
	}
	if d.Action {
		a.Actions++
		if d.Declared > 0 {
			a.Declared = d.Declared
		}
		if kit.Opt(&st.Base, OptRecoveryPenalty) == PenaltyFirst {
			a.RecoveryPenalty = 0
		}
	}
	if d.Damage != nil {
		applyHarm(t, *d.Damage)
	}
	return nil
}

func applyRefund(st *State, d Refund) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.MP -= d.MP
	f.Refund += d.MP
	return nil
}
