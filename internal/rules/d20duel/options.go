package d20duel

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Option names. The seed is the advanced chapter of a game whose basic rules
// are lost; the spec reconstructs them ([I] there). Every number of that
// reconstruction and every reading of an unclear sentence is one of these,
// with the spec's reading as the default, so a GM can switch it.
const (
	// OptAutomaticAttacks [I]: whether the black die's automatic results
	// (1 always succeeds, 20 always fails, seed "Automatic results") apply
	// to attack rolls too, and against a Defensive Guard. "guard": black 1
	// hits with the white die and black 20 misses, but a black 1 within a
	// Defensive target's Guard misses — the Defensive rule's words for that
	// situation: "If either one of the opponent's dice are within your
	// Guard, the attack misses"; "on": a black 1 hits through the Guard too
	// ("the roll is always a success"); "off": only tests have them.
	OptAutomaticAttacks = "automatic-attacks"
	// OptWoundLight, OptWoundSerious, OptWoundGrave, OptWoundKill [I]: the
	// wound table. Damage (weapon damage + Damage Modifier − armour) of at
	// least the number is a −1, −2, −3 or would-kill wound.
	OptWoundLight   = "wound-light"
	OptWoundSerious = "wound-serious"
	OptWoundGrave   = "wound-grave"
	OptWoundKill    = "wound-kill"
	// OptWoundStacking [I]: several wounds' penalties add up ("sum") or
	// only the worst counts ("worst").
	OptWoundStacking = "wound-stacking"
	// OptCollapseAt [I]: a fighter whose wound penalties add up to this
	// many collapses and is out of the fight (0: never).
	OptCollapseAt = "collapse-at"
	// OptWoundsLowerGuard [I]: whether wound penalties lower Guard and
	// Defense as well as Strike, Grapple and tests ("yes") or not ("no").
	OptWoundsLowerGuard = "wounds-lower-guard"
	// OptFallenPenalty [I]: what a fighter on the ground (Immobilize)
	// loses from Strike, Grapple, Guard and Defense.
	OptFallenPenalty = "fallen-penalty"
	// OptLimbWouldKill [I]: a Disarm or Immobilize wound that would kill
	// cripples the limb instead and the fighter fights on ("crippled"), or
	// cripples it and takes the fighter out of the fight ("crippled-out").
	OptLimbWouldKill = "limb-would-kill"
	// OptRangedGuard [I]: whether a target's Guard stops shots ("guard":
	// a die hits if Guard < die ≤ Strike) or not ("none": die ≤ Strike).
	OptRangedGuard = "ranged-guard"
	// OptCompleteMiss [I, spec c8]: the seed's "missed completely: both
	// dice in her attack roll were above Guard/Defense", which lets the
	// opponent maneuver, read as written: a miss with both dice above the
	// defender's Guard (Defense when grappling) — not parried ("guard"); or as both dice above the
	// attacker's own Strike ("strike"); or as neither die hitting
	// ("no-hit"). The Defensive counter-attack needs what its own sentence
	// says: "higher than her Strike with both dice", whatever this is.
	OptCompleteMiss = "complete-miss"
	// OptManeuverTie [I, spec c8]: when two fighters disagree about the
	// distance and both pass their Agility tests, the higher degree wins
	// (equal degrees keep the distance: "degree"), or the distance stays
	// ("stay").
	OptManeuverTie = "maneuver-tie"
	// OptHurtOrDistracted [GM]: after each exchange the GM rules who was
	// hurt or distracted ("ask", the default answer being whoever took a
	// wound), or Fray counts whoever took a wound as hurt ("wounds").
	OptHurtOrDistracted = "hurt-or-distracted"
	// OptVeto [GM]: a player's test waits for the GM to allow it or veto
	// it without a roll ("ask"), or is rolled at once ("off").
	OptVeto = "veto"
	// OptCinematic: the cinematic option — the GM secretly sets how many
	// successful blows only drive a fighter back ("on"), or not ("off").
	OptCinematic = "cinematic"
	// OptFistsStrike … OptFistsDamage [I]: the unarmed attack every
	// fighter has unless its sheet lists its own.
	OptFistsStrike  = "fists-strike"
	OptFistsGuard   = "fists-guard"
	OptFistsGrapple = "fists-grapple"
	OptFistsDefense = "fists-defense"
	OptFistsDamage  = "fists-damage"
)

// Option values.
const (
	On  = "on"
	Off = "off"
	Yes = "yes"
	No  = "no"

	StackSum   = "sum"
	StackWorst = "worst"

	LimbCrippled    = "crippled"
	LimbCrippledOut = "crippled-out"

	GuardNone = "none"
	GuardUse  = "guard"

	MissGuard  = "guard"
	MissStrike = "strike"
	MissNoHit  = "no-hit"

	AutomaticGuarded = "guard"

	TieDegree = "degree"
	TieStay   = "stay"

	HurtAsk    = "ask"
	HurtWounds = "wounds"

	VetoAsk = "ask"
)

var optionSpecs = []engine.OptionSpec{
	kit.ChoiceOption(OptAutomaticAttacks, "Automatic results in attacks", "Black 1 always hits (the white die is the hitting die), black 20 always misses — but a Defensive Guard stops a black 1 within it (the seed's Defensive rule), or not. Off: only tests have automatic results.", AutomaticGuarded,
		kit.Choices(AutomaticGuarded, "On; a Defensive Guard stops a black 1", On, "On, even through a Defensive Guard", Off, "Off")...),
	kit.IntOption(OptWoundLight, "Damage for a −1 wound", "Damage below this leaves no wound.", 1, 1, 40),
	kit.IntOption(OptWoundSerious, "Damage for a −2 wound", "", 4, 1, 40),
	kit.IntOption(OptWoundGrave, "Damage for a −3 wound", "A −3 wound is what Disarm and Immobilize need.", 7, 1, 40),
	kit.IntOption(OptWoundKill, "Damage for a would-kill wound", "A would-kill wound ends the fighter's duel.", 10, 1, 40),
	kit.ChoiceOption(OptWoundStacking, "Several wounds", "Whether the penalties of several wounds add up or only the worst counts.", StackSum,
		kit.Choices(StackSum, "Penalties add up", StackWorst, "Only the worst counts")...),
	kit.IntOption(OptCollapseAt, "Collapse at wound penalties", "A fighter whose wound penalties add up to this many is out of the fight (0: never).", 6, 0, 40),
	kit.ChoiceOption(OptWoundsLowerGuard, "Wounds lower Guard", "Whether wound penalties lower Guard and Defense as well as Strike, Grapple and tests.", Yes,
		kit.Choices(Yes, "Yes", No, "No")...),
	kit.IntOption(OptFallenPenalty, "Penalty on the ground", "What a fighter brought down by Immobilize loses from Strike, Grapple, Guard and Defense.", 2, 0, 10),
	kit.ChoiceOption(OptLimbWouldKill, "Would-kill Disarm or Immobilize", "A Disarm or Immobilize wound that would kill cripples the limb (a Trait) instead; the fighter may fight on, or is out.", LimbCrippled,
		kit.Choices(LimbCrippled, "Crippled, fights on", LimbCrippledOut, "Crippled and out of the fight")...),
	kit.ChoiceOption(OptRangedGuard, "Guard against shots", "Whether the target's Guard stops shots: a die hits if Guard < die ≤ Strike, or simply if die ≤ Strike.", GuardNone,
		kit.Choices(GuardNone, "No: die ≤ Strike hits", GuardUse, "Yes: Guard < die ≤ Strike")...),
	kit.ChoiceOption(OptCompleteMiss, "Complete miss", "What “missed completely” means for maneuvering: the seed's “both dice above Guard/Defense” (the defender's), both dice above the attacker's Strike, or neither die hit.", MissGuard,
		kit.Choices(MissGuard, "Both dice above the defender's Guard/Defense", MissStrike, "Both dice above the attacker's Strike", MissNoHit, "Neither die hit")...),
	kit.ChoiceOption(OptManeuverTie, "Both pass, disagreeing", "When one fighter tries to change the distance and the other resists, and both pass their Agility tests.", TieDegree,
		kit.Choices(TieDegree, "Higher degree wins (a tie keeps the distance)", TieStay, "The distance stays")...),
	kit.ChoiceOption(OptHurtOrDistracted, "Hurt or distracted", "Who was hurt or distracted after an exchange (it lets the opponent maneuver): the GM rules each time, or whoever took a wound.", HurtAsk,
		kit.Choices(HurtAsk, "The GM rules", HurtWounds, "Whoever took a wound")...),
	kit.ChoiceOption(OptVeto, "GM veto of tests", "A player's test waits for the GM to allow it or veto it without a roll.", VetoAsk,
		kit.Choices(VetoAsk, "Ask the GM", Off, "Roll at once")...),
	kit.ChoiceOption(OptCinematic, "Cinematic duels", "The GM may secretly set how many successful blows only drive a fighter back.", Off,
		kit.Choices(Off, "Off", On, "On")...),
	kit.IntOption(OptFistsStrike, "Fists: Strike", "The unarmed attack of a fighter whose sheet lists none.", 8, 0, 30),
	kit.IntOption(OptFistsGuard, "Fists: Guard", "", 2, 0, 30),
	kit.IntOption(OptFistsGrapple, "Fists: Grapple", "", 10, 0, 30),
	kit.IntOption(OptFistsDefense, "Fists: Defense", "", 6, 0, 30),
	kit.IntOption(OptFistsDamage, "Fists: Damage", "", 1, 0, 30),
}

// checkOptions checks what the engine cannot: the wound table's steps must
// rise.
func checkOptions(b *engine.Base) error {
	l, s, g, k := kit.OptInt(b, OptWoundLight), kit.OptInt(b, OptWoundSerious), kit.OptInt(b, OptWoundGrave), kit.OptInt(b, OptWoundKill)
	if !(l <= s && s <= g && g <= k) {
		return fray.Errorf(fray.EINVALID, "the wound table must rise: %s %d ≤ %s %d ≤ %s %d ≤ %s %d",
			OptWoundLight, l, OptWoundSerious, s, OptWoundGrave, g, OptWoundKill, k)
	}
	return nil
}
