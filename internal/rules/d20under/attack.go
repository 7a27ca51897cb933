package d20under

import (
	"fmt"
	"slices"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Attacks (seed: Combat Action, Defence). An attack is [Accurate←Defense]
// — rolled by a player attacking, or turned around as the player's
// defence [Defense←Accurate] when an NPC attacks (spec b: who rolls). A
// hit deals the weapon's damage less the armour's roll. Advantage gives
// +2 and +1d4 damage (seed 6). With the optional criticals (seed 8) an
// attack roll of 1 adds 1d6 damage and a 20 gives the target a free
// attack; a defence roll of 1 gives the defender a free attack and a 20
// adds 3 damage.

// Attack modes.
const (
	ModeAttack    = "attack"
	ModeFree      = "free"
	ModeSurprise  = "surprise"
	ModeCharge    = "charge"
	ModeWhirlwind = "whirlwind"
	ModeKnockOut  = "knock-out"
	ModePushBack  = "push-back"
	ModeQuake     = "quake"
)

// Attack is the data of an attack event.
type Attack struct {
	Attacker       string   `json:"attacker"`
	Target         string   `json:"target"`
	Weapon         string   `json:"weapon"`
	Ranged         bool     `json:"ranged,omitempty"`
	Mode           string   `json:"mode"`
	RolledBy       string   `json:"rolledBy"`
	Hit            bool     `json:"hit"`
	PerfectHit     bool     `json:"perfectHit,omitempty"`
	Fumble         bool     `json:"fumble,omitempty"`
	PerfectDefence bool     `json:"perfectDefence,omitempty"`
	FumbledDefence bool     `json:"fumbledDefence,omitempty"`
	Set            []Change `json:"set,omitempty"`
}

// strikeCtx is one attack to make.
type strikeCtx struct {
	By      string `json:"by"`
	At      string `json:"at"`
	Weapon  string `json:"weapon"`
	Mode    string `json:"mode"`
	Trigger string `json:"trigger,omitempty"` // a free attack's trigger, spent by the attack
	Aim     string `json:"aim,omitempty"`
	Clean   bool   `json:"clean,omitempty"`
	Careful bool   `json:"careful,omitempty"`
	Special bool   `json:"special,omitempty"`
}

// hitCtx is a hit on its way to damage.
type hitCtx struct {
	strikeCtx
	PerfectHit     bool   `json:"perfectHit,omitempty"`
	FumbledDefence bool   `json:"fumbledDefence,omitempty"`
	Location       string `json:"location,omitempty"`
	Effects        bool   `json:"effects,omitempty"`
	Half           bool   `json:"half,omitempty"`
	Poison         int    `json:"poison,omitempty"` // the dose on the weapon, spent by the hit
}

func strikeStep(k strikeCtx) engine.Step { return engine.NewStep(stepStrike, k) }

// advantage says why a has an Advantage over t, "" when it has none:
// the GM's ruling, a prone target in melee, or flanking (seed 6).
func (s *State) advantage(a, t string) string {
	fa, ft := s.Fighters[a], s.Fighters[t]
	if fa == nil || ft == nil || !s.enemies(a, t) {
		return ""
	}
	if fa.Edge[t] > 0 {
		return "the GM's ruling"
	}
	if !s.inMelee(a, t) {
		return ""
	}
	if ft.Prone && !fa.Prone {
		return "prone target"
	}
	if s.Model == board.Grid {
		if s.flankingOnGrid(a, t) {
			return "flanking"
		}
		return ""
	}
	for _, b := range s.alliesOf(a) {
		if s.inMelee(b, t) {
			return "flanking"
		}
	}
	return ""
}

// attackWeapon finds the weapon an attack uses: one named, or the one in
// hand.
func (s *State) attackWeapon(f *Fighter, id string, ranged bool) (Weapon, error) {
	w := f.weapon()
	if id != "" {
		var ok bool
		if w, ok = f.Sheet.Weapon(id); !ok {
			return Weapon{}, fray.Errorf(fray.EINVALID, "%s has no weapon %q", s.NameOf(f.ID), id)
		}
	}
	if err := f.ready(w); err != nil {
		return Weapon{}, fray.Errorf(fray.EILLEGAL, "%v: switching weapons is a movement action", err)
	}
	if w.kind().Ranged != ranged {
		if ranged {
			return Weapon{}, fray.Errorf(fray.EILLEGAL, "%s is not a ranged weapon", w.Name)
		}
		return Weapon{}, fray.Errorf(fray.EILLEGAL, "%s is a ranged weapon: shoot with it", w.Name)
	}
	return w, nil
}

// meleeWeapons lists the melee weapons f can strike with now.
func (f *Fighter) meleeWeapons() []Weapon {
	var out []Weapon
	in := f.weapon()
	if !in.kind().Ranged {
		out = append(out, in)
	}
	for _, w := range f.Weapons {
		if w.kind().Natural && w.ID != in.ID {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		out = append(out, unarmedWeapon)
	}
	return out
}

// canAttack checks that f may attack t in melee now.
func (s *State) canMelee(f *Fighter, t *Fighter) error {
	if f.FullDefence {
		return fray.Errorf(fray.EILLEGAL, "%s is in Full Defence: no attacks", s.NameOf(f.ID))
	}
	if f.cowedBy(t.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s's Steely Gaze keeps %s from attacking them", s.NameOf(t.ID), s.NameOf(f.ID))
	}
	if f.Holding != "" {
		return fray.Errorf(fray.EILLEGAL, "%s is holding %s and can do nothing else", s.NameOf(f.ID), s.NameOf(f.Holding))
	}
	if !s.inMelee(f.ID, t.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s is not engaged with %s", s.NameOf(f.ID), s.NameOf(t.ID))
	}
	return nil
}

// canShoot checks that f may shoot t with w now: not engaged in melee,
// with ammunition, in sight and, on the ladder, not at Close distance
// unless first in the first round.
func (s *State) canShoot(f *Fighter, t *Fighter, w Weapon, special bool) error {
	if f.FullDefence {
		return fray.Errorf(fray.EILLEGAL, "%s is in Full Defence: no attacks", s.NameOf(f.ID))
	}
	if f.cowedBy(t.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s's Steely Gaze keeps %s from attacking them", s.NameOf(t.ID), s.NameOf(f.ID))
	}
	if f.Holding != "" {
		return fray.Errorf(fray.EILLEGAL, "%s is holding %s and can do nothing else", s.NameOf(f.ID), s.NameOf(f.Holding))
	}
	if s.engaged(f.ID) || s.inMelee(f.ID, t.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s is engaged in melee: no ranged attacks", s.NameOf(f.ID))
	}
	if err := s.ammoReady(f, w, special); err != nil {
		return err
	}
	if s.Model == board.Grid {
		if !s.lineOfSight(f.ID, t.ID) {
			return fray.Errorf(fray.EILLEGAL, "no line of sight to %s: someone or something is in the way", s.NameOf(t.ID))
		}
		return nil
	}
	if _, err := s.ladderShot(f.ID, t.ID); err != nil {
		return fray.Errorf(fray.EILLEGAL, "%v", err)
	}
	return nil
}

type attackArgs struct {
	Target string `json:"target"`
	Weapon string `json:"weapon"`
	Aim    string `json:"aim"`
	Clean  string `json:"clean"` // "" or a way to pay for Clean Hit
}

// decideAttack is a melee attack with the combat action.
func decideAttack(tx *Tx, cmd engine.Command) error {
	var args attackArgs
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	if err := checkAim(args.Aim); err != nil {
		return err
	}
	st := tx.State
	t, err := tx.Opponent(f.ID, args.Target)
	if err != nil {
		return err
	}
	w, err := st.attackWeapon(f, args.Weapon, false)
	if err != nil {
		return err
	}
	if err := st.canMelee(f, t); err != nil {
		return err
	}
	set, err := st.spend(f, true, 0)
	if err != nil {
		return err
	}
	k := strikeCtx{By: f.ID, At: t.ID, Weapon: w.ID, Mode: ModeAttack, Aim: args.Aim}
	text := fmt.Sprintf("%s attacks %s with %s.", st.NameOf(f.ID), st.PublicNameOf(t.ID), w.Name)
	if err := note(tx, KindAction, f.ID, text, Note{Fighter: f.ID, Target: t.ID, What: CmdAttack, Set: set}); err != nil {
		return err
	}
	if args.Clean != "" {
		if err := payClean(tx, f, args.Clean); err != nil {
			return err
		}
		k.Clean = true
	}
	return tx.Run(strikeStep(k))
}

// decideShoot is a ranged attack: one shot, Careful Aim (the movement
// action, a second chance), or a Rapid Fire volley.
func decideShoot(tx *Tx, cmd engine.Command) error {
	var args struct {
		attackArgs
		// Volley is "" (one shot), "careful" (Careful Aim) or a Rapid
		// Fire level.
		Volley  string `json:"volley"`
		Special bool   `json:"special"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	if err := checkAim(args.Aim); err != nil {
		return err
	}
	st := tx.State
	t, err := tx.Opponent(f.ID, args.Target)
	if err != nil {
		return err
	}
	w, err := st.attackWeapon(f, args.Weapon, true)
	if err != nil {
		return err
	}
	if err := st.canShoot(f, t, w, args.Special); err != nil {
		return err
	}
	gate := alchemyGate(&f.Sheet, w.Type)
	if gate == gateForbidden {
		return fray.Errorf(fray.EILLEGAL, "%s needs %s to be used at all", w.Name, gateNeeds(w.Type))
	}
	shots, careful, rapid := 1, args.Volley == VolleyCareful, ""
	switch {
	case args.Volley == "" || careful:
	case slices.Contains(levels, args.Volley):
		rapid = args.Volley
		if shots, err = st.rapidShots(f, w, rapid); err != nil {
			return err
		}
	default:
		return fray.Errorf(fray.EINVALID, "volley %q must be empty (one shot), careful, or a Rapid Fire level", args.Volley)
	}
	set, err := st.spend(f, true, boolInt(careful))
	if err != nil {
		return err
	}
	what := "shoots at"
	if w.kind().Units {
		what = "throws " + w.Name + " at"
	}
	text := fmt.Sprintf("%s %s %s.", st.NameOf(f.ID), what, st.PublicNameOf(t.ID))
	if careful {
		text = fmt.Sprintf("%s takes careful aim (the movement action) and %s %s.", st.NameOf(f.ID), what, st.PublicNameOf(t.ID))
	}
	if err := note(tx, KindAction, f.ID, text, Note{Fighter: f.ID, Target: t.ID, What: CmdShoot, Set: set}); err != nil {
		return err
	}
	if rapid != "" {
		text := fmt.Sprintf("%s looses %s Rapid Fire volley.", st.NameOf(f.ID), aOrAn(rapid))
		if err := note(tx, KindRapidFire, f.ID, text, Note{Fighter: f.ID, What: rapid, Value: shots}); err != nil {
			return err
		}
		if shots, err = kojCheck(tx, f, rapid, shots); err != nil {
			return err
		}
	}
	clean := false
	if args.Clean != "" {
		if err := payClean(tx, f, args.Clean); err != nil {
			return err
		}
		clean = true
	}
	var steps []engine.Step
	for i := 0; i < shots; i++ {
		steps = append(steps, strikeStep(strikeCtx{By: f.ID, At: t.ID, Weapon: w.ID, Mode: ModeAttack, Aim: args.Aim,
			Clean: clean, Careful: careful, Special: args.Special && i == 0}))
	}
	return tx.Run(steps...)
}

// VolleyCareful is a single shot with Careful Aim.
const VolleyCareful = "careful"

// runStrike makes one attack: the test, ammunition, and what a hit or a
// miss leads to.
func runStrike(tx *Tx, k strikeCtx) error {
	st := tx.State
	a, t := st.Fighters[k.By], st.Fighters[k.At]
	if a == nil || t == nil || !st.fighting(k.By) || st.Combatant(k.At).Out {
		return nil // the attacker fell, or the target is gone
	}
	w, ok := a.Sheet.Weapon(k.Weapon)
	if !ok {
		w = a.weapon()
	}
	ranged := w.kind().Ranged
	if k.Mode == ModeQuake {
		ranged = false
	}
	if ranged {
		if err := st.ammoReady(a, w, k.Special); err != nil {
			return note(tx, KindAction, k.By, fmt.Sprintf("%s cannot shoot again: %v.", st.NameOf(k.By), err), Note{Fighter: k.By, What: "out of ammunition"})
		}
	}
	attr, aKind := Accurate, testMelee
	if ranged {
		aKind = testRanged
	}
	if k.Mode == ModeQuake {
		attr, aKind = Resolute, testOther
	}
	var aMods, aChances []dice.Mod
	if w.Has(QualPrecise) && k.Mode != ModeQuake {
		aMods = append(aMods, dice.Mod{Label: w.Name + " (precise)", Value: 1})
	}
	if m, ok := aimMod(k.Aim); ok {
		aMods = append(aMods, m)
	}
	if ranged && st.Model == board.Ladder {
		if r := rungs[st.rung(k.By, k.At)]; r.Hit != 0 {
			aMods = append(aMods, dice.Mod{Label: r.Name + " distance", Value: r.Hit})
		}
	}
	if k.Careful {
		aChances = append(aChances, dice.Mod{Label: "Careful Aim", Value: 1, Unit: chanceUnit})
	}
	what := "Attack"
	if k.Mode == ModeQuake {
		what = "Quake"
	}
	// A helpless target — dying or unconscious — is hit without a test.
	if st.Combatant(k.At).Down {
		return helplessHit(tx, k, w, ranged)
	}
	tt, attackerRolls := st.opposedTest(what, k.By, attr, aKind, aMods, aChances, k.At, Defense, testDefence, nil)
	if !attackerRolls {
		tt.Label = testLabel("Defence", tt)
	}
	o := rollTest(tx, tt)
	hit := o.Pass == attackerRolls
	d := Attack{Attacker: k.By, Target: k.At, Weapon: w.ID, Ranged: ranged, Mode: k.Mode, RolledBy: tt.Roller.ID, Hit: hit}
	if kit.Opt(&st.Base, OptCriticals) == On {
		if attackerRolls {
			d.PerfectHit, d.Fumble = o.one(), o.twenty()
		} else {
			d.PerfectDefence, d.FumbledDefence = o.one(), o.twenty()
		}
	}
	if ranged {
		d.Set = append(d.Set, st.ammoUsed(a, w, k.Special, hit, attackerRolls && o.twenty())...)
	}
	poison := a.WeaponPoison[w.ID]
	if hit && poison > 0 {
		d.Set = append(d.Set, change.WeaponPoison.To(a.ID, w.ID, 0))
	}
	ev := engine.NewEvent(KindAttack, k.By, attackText(st, d, w, k), d, o.Roll).With(k.At)
	if k.Trigger != "" {
		ev = ev.Using(st.trigger(k.By, k.Trigger))
	}
	if err := tx.Emit(ev); err != nil {
		return err
	}
	if !hit {
		return missed(tx, k, d, w)
	}
	h := hitCtx{strikeCtx: k, PerfectHit: d.PerfectHit, FumbledDefence: d.FumbledDefence, Poison: poison}
	if err := locate(tx, &h); err != nil {
		return err
	}
	return offerHitFeats(tx, h)
}

// helplessHit is an attack on a combatant who is down: it lands.
func helplessHit(tx *Tx, k strikeCtx, w Weapon, ranged bool) error {
	st := tx.State
	a := st.Fighters[k.By]
	d := Attack{Attacker: k.By, Target: k.At, Weapon: w.ID, Ranged: ranged, Mode: k.Mode, RolledBy: "", Hit: true}
	if ranged {
		d.Set = append(d.Set, st.ammoUsed(a, w, k.Special, true, false)...)
	}
	poison := a.WeaponPoison[w.ID]
	if poison > 0 {
		d.Set = append(d.Set, change.WeaponPoison.To(a.ID, w.ID, 0))
	}
	text := fmt.Sprintf("%s strikes the helpless %s.", st.NameOf(k.By), st.PublicNameOf(k.At))
	ev := engine.NewEvent(KindAttack, k.By, text, d).With(k.At)
	if k.Trigger != "" {
		ev = ev.Using(st.trigger(k.By, k.Trigger))
	}
	if err := tx.Emit(ev); err != nil {
		return err
	}
	h := hitCtx{strikeCtx: k, Poison: poison}
	if err := locate(tx, &h); err != nil {
		return err
	}
	return tx.Run(engine.NewStep(stepDamage, h))
}

func attackText(st *State, d Attack, w Weapon, k strikeCtx) string {
	who, whom := st.NameOf(d.Attacker), st.PublicNameOf(d.Target)
	kind := ""
	switch k.Mode {
	case ModeFree:
		kind = "free attack"
	case ModeSurprise:
		kind = "surprise attack"
	case ModeCharge:
		kind = "charge"
	case ModeKnockOut:
		kind = "knock-out blow"
	case ModePushBack:
		kind = "push"
	case ModeQuake:
		kind = "quake"
	}
	s := ""
	switch {
	case d.Hit && kind != "":
		s = fmt.Sprintf("%s's %s hits %s.", who, kind, whom)
	case d.Hit:
		s = fmt.Sprintf("%s hits %s with %s.", who, whom, w.Name)
	case kind != "":
		s = fmt.Sprintf("%s's %s misses %s.", who, kind, whom)
	default:
		s = fmt.Sprintf("%s misses %s.", who, whom)
	}
	// A fumble or a perfect defence promises the free attack only when one
	// can follow (missed): the target must be in reach, its free attack
	// for the trigger not yet spent, and so on.
	free := func(trigger string) string {
		if st.mayFreeAttack(freeCtx{Reactor: d.Target, Target: d.Attacker, Trigger: trigger}) {
			return ": " + whom + " gets a free attack."
		}
		return "."
	}
	switch {
	case d.PerfectHit:
		s += " A perfect hit: +1d6 damage."
	case d.Fumble:
		s += " A fumble" + free(TrigFumble)
	case d.PerfectDefence:
		s += " A perfect defence" + free(TrigPerfectDefence)
	case d.FumbledDefence:
		s += " A fumbled defence: +3 damage."
	}
	return s
}

// missed is what a miss leads to: free attacks for the target after a
// fumble, a perfect defence or a failed manoeuvre, a lost Advantage, an
// alchemical mishap, Quake's half damage.
func missed(tx *Tx, k strikeCtx, d Attack, w Weapon) error {
	st := tx.State
	var steps []engine.Step
	switch k.Mode {
	case ModeKnockOut:
		if st.Fighters[k.By].Edge[k.At] > 0 {
			if err := note(tx, KindAdvantage, k.By, st.NameOf(k.By)+" loses the Advantage over "+st.PublicNameOf(k.At)+".",
				Note{Fighter: k.By, Target: k.At, What: "lost", Set: []Change{change.Edge.To(k.By, k.At, 0)}}); err != nil {
				return err
			}
		}
	case ModeCharge, ModePushBack:
		steps = append(steps, freeAttackStep(k.At, k.By, TrigMiss))
	case ModeQuake:
		h := hitCtx{strikeCtx: k, Half: true}
		return tx.Run(engine.NewStep(stepDamage, h))
	}
	if d.Fumble {
		steps = append(steps, freeAttackStep(k.At, k.By, TrigFumble))
	}
	if d.PerfectDefence {
		steps = append(steps, freeAttackStep(k.At, k.By, TrigPerfectDefence))
	}
	if alchemyGate(&st.Fighters[k.By].Sheet, w.Type) == gateRisky {
		if err := askMishap(tx, k.By, w); err != nil {
			return err
		}
	}
	return tx.Run(steps...)
}

// runDamage deals a hit's damage (or, for a knock-out blow, tries to
// knock the target out), then what follows it.
func runDamage(tx *Tx, h hitCtx) error {
	st := tx.State
	a, t := st.Fighters[h.By], st.Fighters[h.At]
	if a == nil || t == nil || st.Combatant(h.At).Out {
		return nil
	}
	b := st.blowOf(h)
	if h.Mode == ModeKnockOut {
		return knockOut(tx, h, b)
	}
	if err := strikeHome(tx, b); err != nil {
		return err
	}
	if h.Mode == ModePushBack {
		return tx.Run(engine.NewStep(stepAfter, afterCtx{Mover: h.By, Push: h.At}))
	}
	return nil
}

// blowOf is a hit's damage: the weapon, Advantage +1d4, a perfect hit
// +1d6, Short distance +1d4, a fumbled defence +3, a natural weapon's
// trait.
func (s *State) blowOf(h hitCtx) blow {
	a := s.Fighters[h.By]
	w, ok := a.Sheet.Weapon(h.Weapon)
	if !ok {
		w = a.weapon()
	}
	b := blow{From: h.By, To: h.At, Source: w.Name, Die: w.Die, Bonus: w.Bonus + boolInt(w.Has(QualDeepImpact)),
		Rolled: s.rolls(h.By), Clean: h.Clean, Half: h.Half || h.Mode == ModePushBack, Location: h.Location, Effects: h.Effects,
		Weapon: w.ID, Poison: h.Poison}
	if h.Mode == ModeQuake {
		b.Source, b.Die, b.Bonus, b.Weapon, b.Poison = "Quake", QuakeDie, 0, "", 0
	}
	if w.kind().Natural && h.Mode != ModeQuake {
		b.Trait = a.Trait(TrNaturalWeapon)
	}
	if why := s.advantage(h.By, h.At); why != "" && h.Mode != ModeQuake {
		b.Extra = append(b.Extra, extraDie{"Advantage", 4})
	}
	if h.PerfectHit {
		b.Extra = append(b.Extra, extraDie{"perfect hit", 6})
	}
	if w.kind().Ranged && h.Mode != ModeQuake && s.Model == board.Ladder {
		if r := rungs[s.rung(h.By, h.At)]; r.Damage > 0 {
			b.Extra = append(b.Extra, extraDie{r.Name + " distance", r.Damage})
		}
	}
	if h.FumbledDefence {
		b.Plus = append(b.Plus, dice.Mod{Label: "fumbled defence", Value: 3})
	}
	return b
}

// QuakeDie is Quake's "standard weapon damage" [I]: a one-handed weapon's
// die.
const QuakeDie = 8

// spend takes a combat action and/or movement actions from f's turn. A
// movement action that is not left is taken from the combat action
// (seed: a combat action can be replaced by a movement action).
func (s *State) spend(f *Fighter, combat bool, moves int) ([]Change, error) {
	c, m := f.Combat, f.Moves
	if combat {
		if !c {
			return nil, fray.Errorf(fray.EILLEGAL, "%s has used the combat action this turn", s.NameOf(f.ID))
		}
		c = false
	}
	for i := 0; i < moves; i++ {
		switch {
		case m > 0:
			m--
		case c:
			c = false
		default:
			return nil, fray.Errorf(fray.EILLEGAL, "%s has no movement action left this turn", s.NameOf(f.ID))
		}
	}
	return []Change{change.Combat.To(f.ID, c), change.Moves.To(f.ID, m), change.Acted.To(f.ID, true)}, nil
}

// movesLeft is how many movement actions f can still take, the combat
// action traded.
func (f *Fighter) movesLeft() int { return f.Moves + boolInt(f.Combat) }

// meleeTargets lists the enemies f can attack in melee, as v sees them.
func (s *State) meleeTargets(f *Fighter, v engine.Viewer) []engine.Choice {
	var out []engine.Choice
	for _, id := range s.ids(func(x string) bool { return s.enemies(f.ID, x) && !s.Combatant(x).Out }) {
		if engine.Visible(s, v, id) && s.canMelee(f, s.Fighters[id]) == nil {
			label := s.NameOf(id)
			if why := s.advantage(f.ID, id); why != "" {
				label += " (Advantage: " + why + ")"
			}
			out = append(out, engine.Choice{Value: id, Label: label})
		}
	}
	return out
}

// rangedTargets lists the enemies f can shoot with w.
func (s *State) rangedTargets(f *Fighter, w Weapon, v engine.Viewer) []engine.Choice {
	var out []engine.Choice
	for _, id := range s.ids(func(x string) bool { return s.enemies(f.ID, x) && !s.Combatant(x).Out }) {
		if !engine.Visible(s, v, id) || s.canShoot(f, s.Fighters[id], w, false) != nil {
			continue
		}
		label := s.NameOf(id)
		if s.Model == board.Ladder {
			r := rungs[s.rung(f.ID, id)]
			label += " (" + r.Name + ")"
		} else {
			g := s.Fighters[id]
			label += fmt.Sprintf(" (%d squares)", chebyshev(f.X, f.Y, g.X, g.Y))
		}
		out = append(out, engine.Choice{Value: id, Label: label})
	}
	return out
}

// aimMod is the attack modifier of an aim.
func aimMod(aim string) (dice.Mod, bool) {
	switch {
	case aim == "":
		return dice.Mod{}, false
	case aim == AimHigh || aim == AimLow:
		return dice.Mod{Label: "aiming " + aim, Value: -2}, true
	}
	return dice.Mod{Label: "aiming at the " + partWords(aim), Value: -5}, true
}

func checkAim(aim string) error {
	if aim == "" || aim == AimHigh || aim == AimLow || slices.Contains(bodyParts, aim) {
		return nil
	}
	return fray.Errorf(fray.EINVALID, "aim %q must be high, low or a body part (%v)", aim, bodyParts)
}
