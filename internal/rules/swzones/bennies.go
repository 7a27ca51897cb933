package swzones

import (
	"fmt"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Bennies. Every Wild Card has its own (PCs 3, NPCs 2 unless the sheet
// says), and the GM has a pool (the gm-bennies option: one per player
// character by default) spent for NPCs once their own are gone — for Extras
// only when extras-bennies allows. A Benny may:
//   - reroll a failed action roll (never a Critical Failure): the fighter's
//     controller is asked after the roll (reroll-offers);
//   - Soak: after damage that would wound, the victim's controller is asked;
//     Vigor is rolled and each success and raise cancels a wound; a Soak roll
//     may itself be rerolled with another Benny, keeping the best; soaking
//     every wound also cancels the Shaken the hit caused (soak-offers);
//   - remove Shaken at any moment (the unshake command).
// The GM may not spend Bennies against a player's Critical Success: an NPC
// is never offered a Soak against a PC's attack with a raise (gm-benny-limit).

// Benny pools.
const (
	PoolOwn = "own"
	PoolGM  = "gm"
)

// BennySpent is the data of a benny-spent event (rerolls; Soak and unshake
// record their own spending).
type BennySpent struct {
	Fighter string `json:"fighter"`
	Pool    string `json:"pool"`
	For     string `json:"for"`
}

// Soak is the data of a soak event: one Soak roll.
type Soak struct {
	Fighter string `json:"fighter"`
	Pool    string `json:"pool"`
	Mods    []Mod  `json:"mods"`
	Total   int    `json:"total"`
	Soaked  int    `json:"soaked"` // wounds this roll cancels
	Best    int    `json:"best"`   // the best of this and earlier Soak rolls on the same hit
	Wounds  int    `json:"wounds"` // wounds the hit inflicts before any Soak
}

// HarmDone is the data of a harm event: a hit's harm applied after Soak
// was considered.
type HarmDone struct {
	Fighter string `json:"fighter"`
	Harm    Harm   `json:"harm"`
}

// isPC reports whether id is a player character.
func (s *State) isPC(id string) bool {
	c := s.Combatant(id)
	return c != nil && c.PC
}

// gmPoolFor reports whether the GM's Bennies may be spent for fighter id.
func (s *State) gmPoolFor(id string) bool {
	if s.isPC(id) {
		return false
	}
	f := s.Fighters[id]
	return f != nil && (f.WildCard || kit.Opt(&s.Base, OptExtrasBennies) == Yes)
}

// bennies is how many Bennies may be spent for fighter id.
func (s *State) bennies(id string) int {
	f := s.Fighters[id]
	if f == nil {
		return 0
	}
	n := f.Bennies
	if s.gmPoolFor(id) {
		n += s.GMBennies
	}
	return n
}

// pool is the pool the next Benny for id comes from: their own first.
func (s *State) pool(id string) string {
	if f := s.Fighters[id]; f != nil && f.Bennies > 0 {
		return PoolOwn
	}
	return PoolGM
}

func spend(s *State, id, pool string) error {
	if pool == PoolGM {
		if s.GMBennies < 1 {
			return fmt.Errorf("sw-zones: the GM has no Benny left")
		}
		s.GMBennies--
		return nil
	}
	f, err := kit.Found(s.Fighter(id), id)
	if err != nil {
		return err
	}
	if f.Bennies < 1 {
		return fmt.Errorf("sw-zones: %s has no Benny left", id)
	}
	f.Bennies--
	return nil
}

// offers reports whether the option named lets fighter id be asked.
func (s *State) offers(name, id string) bool {
	switch kit.Opt(&s.Base, name) {
	case OffersOff:
		return false
	case OffersPCs:
		return s.isPC(id) && s.bennies(id) > 0
	}
	return s.bennies(id) > 0
}

// critLimit is the number of raises that make a player's attack a Critical
// Success the GM may not spend Bennies against.
func (s *State) critLimit() int {
	if kit.Opt(&s.Base, OptGMBennyLimit) == LimitTwoRaises {
		return 2
	}
	return 1
}

// canSoak reports whether victim is offered a Soak against harm h from an
// attack by attacker with raises.
func (s *State) canSoak(victim, attacker string, raises int, h Harm) bool {
	if h.Wounds == 0 || !s.offers(OptSoakOffers, victim) {
		return false
	}
	if !s.isPC(victim) && s.isPC(attacker) && raises >= s.critLimit() {
		return false // the GM does not water down a player's Critical Success
	}
	return true
}

func leftText(n int) string { return strconv.Itoa(n) + " left" }

// --- Soak ---

// soakCtx is a Soak decision's context: the hit, not yet applied.
type soakCtx struct {
	Victim   string `json:"victim"`
	Attacker string `json:"attacker,omitempty"`
	Harm     Harm   `json:"harm"` // as rolled, before any Soak
	Best     int    `json:"best"` // wounds cancelled by the best Soak roll so far
	Tries    int    `json:"tries"`
}

// offerSoak asks the victim's controller whether to Soak h.
func offerSoak(tx *Tx, c soakCtx) error {
	st := tx.State
	left := c.Harm.Wounds - c.Best
	what := woundWord(left)
	if c.Harm.Incapacitated {
		what += " (incapacitating)"
	}
	prompt := fmt.Sprintf("Soak %s with a Benny? (%s)", what, leftText(st.bennies(c.Victim)))
	yes := "Soak (roll Vigor)"
	if c.Tries > 0 {
		prompt = fmt.Sprintf("Still %s: reroll the Soak with another Benny? (%s)", what, leftText(st.bennies(c.Victim)))
		yes = "Reroll the Soak"
	}
	return tx.AskWith(engine.Decision{For: c.Victim, Kind: DecSoak, Prompt: prompt, Default: "soak",
		Options: yesNo("soak", yes, "take", "Take the wounds")}, Cont{Soak: &c})
}

func woundWord(n int) string {
	if n == 1 {
		return "1 wound"
	}
	return fmt.Sprintf("%d wounds", n)
}

func answerSoak(tx *Tx, c Cont, ans engine.Answered) error {
	ctx := *c.Soak
	st := tx.State
	t := st.Fighters[ctx.Victim]
	if ans.Choice == "soak" && st.bennies(t.ID) > 0 {
		pool := st.pool(t.ID)
		o := rollTrait(tx.Dice, check(t, "vigor", TargetNumber))
		soaked := 0
		if o.Success {
			soaked = 1 + o.Raises
		}
		ctx.Best, ctx.Tries = max(ctx.Best, soaked), ctx.Tries+1
		who := st.NameOf(t.ID)
		if pool == PoolGM {
			who += " (a GM Benny)"
		}
		text := fmt.Sprintf("%s soaks: Vigor %d (%s) — cancels %s.", who, o.Total, o.Roll.Result, woundWord(min(soaked, ctx.Harm.Wounds)))
		if err := tx.Emits(KindSoak, t.ID, text, Soak{Fighter: t.ID, Pool: pool, Mods: nonNil(o.Mods), Total: o.Total,
			Soaked: soaked, Best: ctx.Best, Wounds: ctx.Harm.Wounds}, o.Roll); err != nil {
			return err
		}
		if ctx.Best < ctx.Harm.Wounds && !o.CritFail && st.bennies(t.ID) > 0 {
			return offerSoak(tx, ctx)
		}
	}
	return finishHarm(tx, ctx)
}

// finishHarm applies a deferred hit less the wounds soaked, then follows
// up an incapacitation.
func finishHarm(tx *Tx, ctx soakCtx) error {
	st := tx.State
	t := st.Fighters[ctx.Victim]
	h := soakHarm(t, ctx.Harm, ctx.Best)
	text := fmt.Sprintf("%s takes the hit: %s.", st.NameOf(t.ID), harmResult(h))
	if h.Soaked > 0 {
		text = fmt.Sprintf("%s soaks %s: %s.", st.NameOf(t.ID), woundWord(h.Soaked), harmResult(h))
	}
	if err := tx.Emits(KindHarm, t.ID, text, HarmDone{Fighter: t.ID, Harm: h}); err != nil {
		return err
	}
	if h.Incapacitated {
		return incapacitate(tx, t)
	}
	return nil
}

// --- rerolls ---

// rerollCtx is a reroll decision's context: the roll to make again.
type rerollCtx struct {
	Strike  *strike        `json:"strike,omitempty"`
	Area    *areaShot      `json:"area,omitempty"`
	Run     *runStep       `json:"run,omitempty"`
	Opposed *opposedAction `json:"opposed,omitempty"`
}

func (r rerollCtx) fighter() string {
	switch {
	case r.Strike != nil:
		return r.Strike.Attacker
	case r.Area != nil:
		return r.Area.Attacker
	case r.Run != nil:
		return r.Run.Fighter
	case r.Opposed != nil:
		return r.Opposed.Actor
	}
	return ""
}

// offerReroll asks whether to reroll a failed roll, described by what
// ("missed", "failed to push": the roll itself shows the numbers).
func offerReroll(tx *Tx, what string, r rerollCtx) error {
	st := tx.State
	id := r.fighter()
	prompt := fmt.Sprintf("%s %s. Reroll with a Benny? (%s)", st.PublicNameOf(id), what, leftText(st.bennies(id)))
	return tx.AskWith(engine.Decision{For: id, Kind: DecReroll, Prompt: prompt, Default: "reroll",
		Options: yesNo("reroll", "Reroll (spend a Benny)", "keep", "Keep the roll")}, Cont{Reroll: &r})
}

func answerReroll(tx *Tx, c Cont, ans engine.Answered) error {
	r := *c.Reroll
	st := tx.State
	id := r.fighter()
	if ans.Choice == "reroll" && st.bennies(id) > 0 {
		pool := st.pool(id)
		text := fmt.Sprintf("%s spends a Benny to reroll (%s).", st.NameOf(id), leftText(st.bennies(id)-1))
		if pool == PoolGM {
			text = fmt.Sprintf("The GM spends a Benny for %s to reroll (%s).", st.NameOf(id), leftText(st.bennies(id)-1))
		}
		if err := tx.Emits(KindBennySpent, id, text, BennySpent{Fighter: id, Pool: pool, For: "reroll"}); err != nil {
			return err
		}
		switch {
		case r.Strike != nil:
			s := *r.Strike
			s.At.Reroll, s.At.Action, s.At.Declared = true, false, 0
			return s.roll(tx)
		case r.Area != nil:
			a := *r.Area
			a.Reroll = true
			return a.roll(tx)
		case r.Run != nil:
			s := *r.Run
			s.Reroll = true
			return runRoll(tx, s)
		case r.Opposed != nil:
			o := *r.Opposed
			o.Reroll = true
			return o.roll(tx)
		}
	}
	// Keeping a failed roll: only an area attack still has something to do
	// (a missed blast deviates).
	if r.Area != nil {
		return r.Area.miss(tx)
	}
	return nil
}

// --- unshake ---

// Unshaken is the data of a benny-unshaken event.
type Unshaken struct {
	Fighter string `json:"fighter"`
	Pool    string `json:"pool,omitempty"` // "" is the fighter's own (older logs)
}

// decideUnshake spends a Benny to remove Shaken. It is allowed at any
// moment, not only on the fighter's turn.
func decideUnshake(tx *Tx, cmd engine.Command) error {
	f, err := tx.Reactor(cmd, nil)
	if err != nil {
		return err
	}
	st := tx.State
	if !f.Shaken {
		return fray.Errorf(fray.EILLEGAL, "%s is not Shaken", st.NameOf(f.ID))
	}
	if st.bennies(f.ID) < 1 {
		return fray.Errorf(fray.EILLEGAL, "%s has no Benny left", st.NameOf(f.ID))
	}
	pool := st.pool(f.ID)
	text := fmt.Sprintf("%s spends a Benny and is no longer Shaken (%s).", st.NameOf(f.ID), leftText(st.bennies(f.ID)-1))
	if pool == PoolGM {
		text = fmt.Sprintf("The GM spends a Benny: %s is no longer Shaken (%s).", st.NameOf(f.ID), leftText(st.bennies(f.ID)-1))
	}
	return tx.Emits(KindUnshaken, f.ID, text, Unshaken{Fighter: f.ID, Pool: pool})
}

func applyUnshaken(st *State, d Unshaken) error {
	f, err := kit.Found(st.Fighter(d.Fighter), d.Fighter)
	if err != nil {
		return err
	}
	f.Shaken = false
	pool := d.Pool
	if pool == "" {
		pool = PoolOwn
	}
	return spend(st, f.ID, pool)
}
