package d20under

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Feats (seed: Feats; spec c13). A feat costs 1 Experience or 1 permanent
// Corruption (NPCs: Corruption only, option npc-feats). What they are
// spent on outlives the fight (XPSpent, CorruptionGained): the campaign's
// character keeps it.
//
//   - Clean Hit: an attack whose hits deal maximum damage (attack, shoot).
//   - Fearless: ignores horror effects such as Terrify, for the scene.
//   - Ignore Corruption: for the rest of the round, tests are made as if
//     the hero had no Corruption; Corruption gained counts from its next
//     turn.
//   - Perfect Defence: a hit that would land is parried — once per round;
//     offered when hit.
//   - Quick Strike: acting first in the round (initiative.go).
//   - Resilience: +1d4 Armour for the rest of the round; offered when hit.
//   - Steely Gaze: an enemy refrains from attacking the hero [GM].
//   - Whirlwind: one attack on every enemy engaged, with the combat action.
//   - Prepared: +1 on non-combat tests for the scene [GM].

// Feats.
const (
	FeatCleanHit         = "clean-hit"
	FeatFearless         = "fearless"
	FeatIgnoreCorruption = "ignore-corruption"
	FeatPerfectDefence   = "perfect-defence"
	FeatQuickStrike      = "quick-strike"
	FeatResilience       = "resilience"
	FeatSteelyGaze       = "steely-gaze"
	FeatWhirlwind        = "whirlwind"
	FeatPrepared         = "prepared"
)

// canPay checks that id may pay for a feat that way.
func (s *State) canPay(id, pay string) error {
	if pay != PayXP && pay != PayCorruption {
		return fray.Errorf(fray.EINVALID, "pay %q must be %s or %s", pay, PayXP, PayCorruption)
	}
	if !slices.Contains(s.budget(id), pay) {
		if pay == PayXP && s.pc(id) {
			return fray.Errorf(fray.EILLEGAL, "%s has no Experience left", s.NameOf(id))
		}
		return fray.Errorf(fray.EILLEGAL, "%s cannot pay for feats with %s", s.NameOf(id), payLabel(pay))
	}
	return nil
}

// spendFeat pays for a feat and makes its changes.
func spendFeat(tx *Tx, id, feat, pay, text string, more ...Change) error {
	st := tx.State
	f := st.Fighters[id]
	var set []Change
	if pay == PayXP {
		set = []Change{change.XP.To(id, f.XP-1), change.XPSpent.To(id, f.XPSpent+1)}
	} else {
		set = []Change{change.Permanent.To(id, f.Permanent+1), change.CorruptionGained.To(id, f.CorruptionGained+1)}
	}
	set = append(set, more...)
	return note(tx, KindFeat, id, fmt.Sprintf("%s (%s: %s).", strings.TrimSuffix(text, "."), label(feat), payLabel(pay)),
		Note{Fighter: id, What: feat + ":" + pay, Set: set})
}

// payClean pays for Clean Hit.
func payClean(tx *Tx, f *Fighter, pay string) error {
	st := tx.State
	if err := st.canPay(f.ID, pay); err != nil {
		return err
	}
	return spendFeat(tx, f.ID, FeatCleanHit, pay, st.NameOf(f.ID)+" aims a clean hit: maximum damage")
}

// featOffered says whether id is offered reactive feats.
func (s *State) featOffered(id string) bool {
	switch kit.Opt(&s.Base, OptFeatOffers) {
	case OffersOff:
		return false
	case OffersAll:
		return len(s.budget(id)) > 0
	}
	return s.pc(id) && len(s.budget(id)) > 0
}

// offerHitFeats asks someone hit whether to parry with Perfect Defence or
// brace with Resilience, then the damage follows.
func offerHitFeats(tx *Tx, h hitCtx) error {
	st := tx.State
	t := st.Fighters[h.At]
	dmg := engine.NewStep(stepDamage, h)
	if !st.featOffered(h.At) || !st.fighting(h.At) {
		return tx.Run(dmg)
	}
	opts := []engine.Choice{{Value: "take", Label: "Take the hit"}}
	for _, p := range st.budget(h.At) {
		if !t.PerfectDefence {
			opts = append(opts, engine.Choice{Value: FeatPerfectDefence + ":" + p, Label: "Perfect Defence: parry it (" + payLabel(p) + ")"})
		}
	}
	for _, p := range st.budget(h.At) {
		if t.Resilience == 0 {
			opts = append(opts, engine.Choice{Value: FeatResilience + ":" + p, Label: "Resilience: +1d4 Armour this round (" + payLabel(p) + ")"})
		}
	}
	if len(opts) == 1 {
		return tx.Run(dmg)
	}
	return tx.AskWith(engine.Decision{For: h.At, Kind: DecHit,
		Prompt:  fmt.Sprintf("%s hits %s. Use a feat?", st.PublicNameOf(h.By), st.PublicNameOf(h.At)),
		Options: opts, Default: "take"}, Cont{Hit: &h})
}

func answerHit(tx *Tx, h hitCtx, ans engine.Answered) error {
	st := tx.State
	dmg := engine.NewStep(stepDamage, h)
	feat, pay, _ := strings.Cut(ans.Choice, ":")
	if feat == "take" || st.canPay(h.At, pay) != nil {
		return tx.Run(dmg)
	}
	switch feat {
	case FeatPerfectDefence:
		return spendFeat(tx, h.At, FeatPerfectDefence, pay, st.PublicNameOf(h.At)+" parries the blow that would have landed",
			change.PerfectDefence.To(h.At, true))
	case FeatResilience:
		t := st.Fighters[h.At]
		if err := spendFeat(tx, h.At, FeatResilience, pay, st.PublicNameOf(h.At)+" braces: +1d4 Armour this round",
			change.Resilience.To(h.At, t.Resilience+1)); err != nil {
			return err
		}
	}
	return tx.Run(dmg)
}

// Free feats a combatant may use on its turn.
var turnFeats = []string{FeatIgnoreCorruption, FeatResilience, FeatFearless, FeatPrepared}

// decideFeat uses a feat on one's turn, without an action.
func decideFeat(tx *Tx, cmd engine.Command) error {
	var args struct {
		Feat string `json:"feat"`
		Pay  string `json:"pay"`
		What string `json:"what"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	if !slices.Contains(turnFeats, args.Feat) {
		return fray.Errorf(fray.EINVALID, "feat %q must be one of %s (Clean Hit, Whirlwind, Steely Gaze and Quick Strike have their own actions)", args.Feat, strings.Join(turnFeats, ", "))
	}
	if err := st.canPay(f.ID, args.Pay); err != nil {
		return err
	}
	name := st.NameOf(f.ID)
	switch args.Feat {
	case FeatIgnoreCorruption:
		if f.IgnoreCorruption {
			return fray.Errorf(fray.EILLEGAL, "%s ignores Corruption this round already", name)
		}
		return spendFeat(tx, f.ID, args.Feat, args.Pay, name+" ignores the Corruption for the rest of the round", change.IgnoreCorruption.To(f.ID, true))
	case FeatResilience:
		if f.Resilience > 0 {
			return fray.Errorf(fray.EILLEGAL, "%s is braced this round already", name)
		}
		return spendFeat(tx, f.ID, args.Feat, args.Pay, name+" braces: +1d4 Armour this round", change.Resilience.To(f.ID, 1))
	case FeatFearless:
		if f.Fearless {
			return fray.Errorf(fray.EILLEGAL, "%s is fearless already", name)
		}
		return spendFeat(tx, f.ID, args.Feat, args.Pay, name+" is fearless: horror has no hold for the rest of the scene",
			change.Fearless.To(f.ID, true), change.Terrified.To(f.ID, false))
	}
	what := strings.TrimSpace(args.What)
	if what == "" {
		what = preparedDefault // a form left empty: the field's own default
	}
	if utf8.RuneCountInString(what) > 80 {
		return fray.Errorf(fray.EINVALID, "Prepared: say what item or lore (up to 80 characters)")
	}
	if f.Prepared != "" {
		return fray.Errorf(fray.EILLEGAL, "%s is prepared already (%s)", name, f.Prepared)
	}
	return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecPrepared,
		Prompt:  fmt.Sprintf("%s is Prepared: %q (+1 on relevant non-combat tests for the scene). Allow it?", name, what),
		Options: []engine.Choice{{Value: "allow", Label: "Allow"}, {Value: "refuse", Label: "Refuse (no cost)"}}, Default: "allow"},
		Cont{Prepared: &preparedCtx{Fighter: f.ID, Pay: args.Pay, What: what}})
}

type preparedCtx struct {
	Fighter string `json:"fighter"`
	Pay     string `json:"pay"`
	What    string `json:"what"`
}

func answerPrepared(tx *Tx, c preparedCtx, ans engine.Answered) error {
	st := tx.State
	if ans.Choice != "allow" || st.canPay(c.Fighter, c.Pay) != nil {
		return note(tx, KindFeat, "", "The GM refuses the preparation.", Note{Fighter: c.Fighter, What: "refused"})
	}
	return spendFeat(tx, c.Fighter, FeatPrepared, c.Pay, st.NameOf(c.Fighter)+" is prepared: "+c.What, change.Prepared.To(c.Fighter, c.What))
}

// decideSteelyGaze stares an enemy down: the GM rules whether and how
// long it refrains from attacking the hero.
func decideSteelyGaze(tx *Tx, cmd engine.Command) error {
	var args struct {
		Target string `json:"target"`
		Pay    string `json:"pay"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	t, err := tx.Opponent(f.ID, args.Target)
	if err != nil {
		return err
	}
	if err := st.canPay(f.ID, args.Pay); err != nil {
		return err
	}
	if t.cowedBy(f.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s already refrains from attacking %s", st.NameOf(t.ID), st.NameOf(f.ID))
	}
	if err := spendFeat(tx, f.ID, FeatSteelyGaze, args.Pay, st.NameOf(f.ID)+" fixes "+st.PublicNameOf(t.ID)+" with a steely gaze"); err != nil {
		return err
	}
	return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecGaze,
		Prompt:  fmt.Sprintf("Steely Gaze: does %s step back and refrain from attacking %s?", st.NameOf(t.ID), st.NameOf(f.ID)),
		Options: []engine.Choice{{Value: "refrains", Label: "It refrains"}, {Value: "unmoved", Label: "It is unmoved"}}, Default: "refrains",
		Fields: []engine.Field{{Name: "rounds", Label: "For how many rounds (this one included)", Type: engine.FieldNumber, Default: "1", Min: 1, Max: 10}}},
		Cont{Gaze: &gazeCtx{Hero: f.ID, Enemy: t.ID}})
}

type gazeCtx struct {
	Hero  string `json:"hero"`
	Enemy string `json:"enemy"`
}

func answerGaze(tx *Tx, c gazeCtx, ans engine.Answered) error {
	st := tx.State
	if ans.Choice != "refrains" || st.Combatant(c.Enemy).Out {
		return note(tx, KindGaze, c.Enemy, st.PublicNameOf(c.Enemy)+" is unmoved.", Note{Fighter: c.Enemy, Target: c.Hero, What: "unmoved"})
	}
	n := max(1, ans.Values.Int("rounds"))
	text := fmt.Sprintf("%s steps back and will not attack %s (%d round(s)).", st.PublicNameOf(c.Enemy), st.NameOf(c.Hero), n)
	return note(tx, KindGaze, c.Enemy, text, Note{Fighter: c.Enemy, Target: c.Hero, What: "refrains", Value: n,
		Set: []Change{change.Cowed.To(c.Enemy, c.Hero, n)}})
}

// decideWhirlwind attacks every enemy engaged, with the combat action.
func decideWhirlwind(tx *Tx, cmd engine.Command) error {
	var args struct {
		Pay string `json:"pay"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	targets := st.whirlwindTargets(f, tx.Viewer())
	if len(targets) < 1 {
		return fray.Errorf(fray.EILLEGAL, "%s has no enemy engaged to whirl at", st.NameOf(f.ID))
	}
	if err := st.canPay(f.ID, args.Pay); err != nil {
		return err
	}
	set, err := st.spend(f, true, 0)
	if err != nil {
		return err
	}
	if err := note(tx, KindAction, f.ID, st.NameOf(f.ID)+" whirls into every enemy around.", Note{Fighter: f.ID, What: CmdWhirlwind, Set: set}); err != nil {
		return err
	}
	if err := spendFeat(tx, f.ID, FeatWhirlwind, args.Pay, st.NameOf(f.ID)+" performs a Whirlwind Attack"); err != nil {
		return err
	}
	w := f.meleeWeapons()[0]
	var steps []engine.Step
	for _, id := range targets {
		steps = append(steps, strikeStep(strikeCtx{By: f.ID, At: id, Weapon: w.ID, Mode: ModeWhirlwind}))
	}
	return tx.Run(steps...)
}

// whirlwindTargets are the enemies a Whirlwind reaches, as v sees them.
func (s *State) whirlwindTargets(f *Fighter, v engine.Viewer) []string {
	return s.ids(func(x string) bool {
		return s.enemies(f.ID, x) && !s.Combatant(x).Out && engine.Visible(s, v, x) && s.canMelee(f, s.Fighters[x]) == nil
	})
}

// preparedDefault is what a Prepared hero turns out to carry when the
// player names nothing.
const preparedDefault = "the right tool for it"
