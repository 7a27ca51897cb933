package d20tactical

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Option names. Every interpretation ([I] in the spec) is one of these, the
// spec's reading its default, so a GM can switch it; every number is a
// typed int option with bounds. docs/rules/d20-tactical.md explains each.
const (
	// Melee modifiers [I, seed "Melee": the table lost its numbers; d20 values].
	OptMeleeVsCrouched   = "melee-vs-crouched"
	OptMeleeFromCrouched = "melee-from-crouched"
	OptMeleeVsProne      = "melee-vs-prone"
	OptMeleeFromProne    = "melee-from-prone"
	OptChargeAttack      = "charge-attack"
	OptChargeDefense     = "charge-defense"
	// OptChargeTolerance [I, seed "Charge": "using the exact speed value"]:
	// how far from exactly your speed a charge may be, in feet (0, the
	// seed's words, by default).
	OptChargeTolerance = "charge-tolerance"
	// OptChargeLine [I]: a charge runs in a straight line ("straight") or
	// along any clear path ("path").
	OptChargeLine = "charge-line"

	// OptEndurance [I]/[GM], seed "Run": the Endurance check of a second and
	// later round of running is a Constitution check ("roll") or the GM's
	// ruling ("gm").
	OptEndurance     = "endurance"
	OptEnduranceDC   = "endurance-dc"
	OptEnduranceStep = "endurance-step"
	// OptWindedRounds [I]: rounds a runner who failed Endurance may not run.
	OptWindedRounds = "winded-rounds"

	// OptBandMedium, OptBandLong [I, seed "Distance"]: Medium and Long range
	// end at this many range increments (Short at one; Extreme goes on to
	// the weapon's maximum).
	OptBandMedium = "band-medium"
	OptBandLong   = "band-long"

	// OptAimedDamage [I, seed "Aimed Shots"]: aimed shots at the head or
	// the back torso do standard damage and the rest half ("seed"), or all
	// do half ("half").
	OptAimedDamage = "aimed-damage"
	// OptEffectDuration [I]/[GM]: aimed-shot effects on arms and legs last
	// until the GM clears them ("healed"), or the GM is asked how many
	// rounds each lasts ("ask").
	OptEffectDuration = "effect-duration"

	// OptDodgeDirection [I, seed "Dodge" against "Defense"]: a Dodge roll
	// negates a hit when the d20 is over the Dodge value ("over", the seed's
	// words: a low Dodge is good) or under it ("under": a high Dodge is good).
	OptDodgeDirection = "dodge-direction"
	// OptDodgeAttacks [I]: Dodge works against "incoming shots" only
	// ("ranged") or against every attack ("all").
	OptDodgeAttacks = "dodge-attacks"

	// OptRangedFumbles [I, seed "Fumbles" says "at long range"]: the d6
	// table applies only at Long and Extreme range ("long", the seed's
	// words; nearer, a fumble simply misses) or to every ranged fumble
	// ("all").
	OptRangedFumbles = "ranged-fumbles"
	// OptStrayShots [I]: a shot that goes astray hits whoever stands where
	// it lands ("hit") or hits no one ("miss").
	OptStrayShots = "stray-shots"
	// OptStrayOffBoard [I, the seed says nothing of the battlefield's
	// edge]: a stray shot whose 10 or 20 ft go past the edge of the board
	// is lost ("lost"), or stops on the last square of the board that way
	// ("edge"), where it hits whoever stands there as stray-shots says.
	OptStrayOffBoard = "stray-off-board"
	// OptFumbleChains [I, seed "Fumbles": "all opponents within range of
	// the fumbling attacker get an immediate single attack"]: one such
	// attack per opponent for each fumbler and turn, so a fumbler who
	// fumbles again inside the chain of attacks its fumble caused gives
	// no second one ("once"), or one for every fumble, even inside a chain
	// ("again").
	OptFumbleChains = "fumble-chains"

	// OptCritConfirm [I, seed "Critical Hits"]: a threat is a critical when
	// it hits ("none") or needs a second attack roll that hits ("roll").
	OptCritConfirm = "crit-confirm"
	// OptCritFortDC [I]: the Fortitude save a player character makes to keep
	// a Life Point a critical would take.
	OptCritFortDC = "crit-fort-dc"
	// OptCritFloor [I, "extra damage cannot kill"]: the lowest hit points a
	// critical's extra damage can bring a target to.
	OptCritFloor = "crit-floor"

	// OptLifePoints [GM, seed "Life Points": no starting value]: the Life
	// Points of a combatant whose stats give none.
	OptLifePoints = "life-points"
	// OptLifePointSpend [I]: spending a Life Point against massive damage
	// avoids the hit's damage ("damage") or only the massive-damage save
	// ("save").
	OptLifePointSpend = "life-point-spend"
	// OptMassiveThreshold [B]: massive damage is a hit of at least the
	// target's Constitution score ("con", d20 Modern) or of 50 ("50", the
	// d20 System).
	OptMassiveThreshold = "massive-threshold"
	// OptMassiveFailure [B]: a failed massive-damage save drops the target
	// to −1 hit points ("dying", d20 Modern) or kills ("dead").
	OptMassiveFailure = "massive-failure"
	// OptStabilize [B]: the d% chance a dying combatant stabilises each round.
	OptStabilize = "stabilize-chance"

	// OptDiagonals [B]: diagonal squares cost 5 and 10 feet alternately
	// ("alternate", d20) or always 5 ("five").
	OptDiagonals = "diagonals"
	// OptCrouchedSpeed [I]: a crouched combatant moves at half speed
	// ("half") or full speed ("full").
	OptCrouchedSpeed = "crouched-speed"
	// OptReactionPrompts: who is asked before taking an attack of
	// opportunity or a fumble's free attack: players ("pcs", the GM's
	// fighters attack at once), everyone ("all"), or no one ("auto").
	OptReactionPrompts = "reaction-prompts"
	// OptCoverRuling [GM, seed "Cover"]: cover comes from the board and the
	// GM's set-cover rulings ("board"), or the GM confirms the percentage of
	// every ranged attack at a target with cover ("ask").
	OptCoverRuling = "cover-ruling"
	// OptShootIntoMelee [B]: the modifier to shoot at a target in melee with
	// one of the shooter's allies.
	OptShootIntoMelee = "shoot-into-melee"
	// OptHiddenAttacks [I]: a hidden combatant who attacks is revealed
	// ("reveal") or stays hidden until the GM reveals it ("stay").
	OptHiddenAttacks = "hidden-attacks"
	// OptSurpriseRounds [GM, seed "assign surprise rounds"]: surprise rounds
	// before the first full round when someone starts surprised.
	OptSurpriseRounds = "surprise-rounds"
	// OptObjectDefense [GM, seed "Object Attack"]: the Defense the GM's
	// question about an object's Defense offers first.
	OptObjectDefense = "object-defense"
	// OptJumpDC, OptJumpFoeDC [I, seed "Jump"]: the Jump check to clear a
	// pit or an obstacle (unless the square sets its own) and to leap over
	// a foe.
	OptJumpDC    = "jump-dc"
	OptJumpFoeDC = "jump-foe-dc"
)

// Option values.
const (
	Straight = "straight"
	AnyPath  = "path"

	Roll  = "roll"
	AskGM = "gm"

	AimedSeed = "seed"
	AimedHalf = "half"

	UntilHealed = "healed"
	AskRounds   = "ask"

	Over  = "over"
	Under = "under"

	RangedOnly = "ranged"
	AllAttacks = "all"

	AllRanges  = "all"
	LongRanges = "long"

	StrayHit  = "hit"
	StrayMiss = "miss"

	StrayLost = "lost"
	StrayEdge = "edge"

	ChainOnce  = "once"
	ChainAgain = "again"

	NoConfirm = "none"

	SpendDamage = "damage"
	SpendSave   = "save"

	ThresholdCon = "con"
	Threshold50  = "50"

	FailDying = "dying"
	FailDead  = "dead"

	Alternate = "alternate"
	Five      = "five"

	HalfSpeed = "half"
	FullSpeed = "full"

	PromptPCs  = "pcs"
	PromptAll  = "all"
	PromptAuto = "auto"

	CoverBoard = "board"
	CoverAsk   = "ask"

	Reveal = "reveal"
	Stay   = "stay"
)

var optionSpecs = []engine.OptionSpec{
	kit.IntOption(OptMeleeVsCrouched, "Melee: hitting a crouched target", "Added to a melee attack on a crouched target (the seed lost its number; d20's +2).", 2, -10, 10),
	kit.IntOption(OptMeleeFromCrouched, "Melee: attacking from a crouch", "Added to a melee attack made while crouched.", -2, -10, 10),
	kit.IntOption(OptMeleeVsProne, "Melee: hitting a prone target", "Added to a melee attack on a prone target.", 4, -10, 10),
	kit.IntOption(OptMeleeFromProne, "Melee: attacking from prone", "Added to a melee attack made while prone.", -4, -10, 10),
	kit.IntOption(OptChargeAttack, "Charge: to hit", "Added to the attack at the end of a charge.", 2, -10, 10),
	kit.IntOption(OptChargeDefense, "Charge: Defense", "Added to the charger's Defense until their next turn.", -2, -10, 0),
	kit.IntOption(OptChargeTolerance, "Charge: distance tolerance (ft)", "The seed: a charge covers exactly the charger's speed. A looser table lets it be off by this many feet.", 0, 0, 30),
	kit.ChoiceOption(OptChargeLine, "Charge: path", "Whether a charge must run in a straight line.", Straight,
		engine.Choice{Value: Straight, Label: "A straight line"}, engine.Choice{Value: AnyPath, Label: "Any clear path"}),
	kit.ChoiceOption(OptEndurance, "Running: Endurance", "A second and later round of running needs an Endurance check: a Constitution check, or the GM's ruling.", Roll,
		engine.Choice{Value: Roll, Label: "Constitution check"}, engine.Choice{Value: AskGM, Label: "The GM decides"}),
	kit.IntOption(OptEnduranceDC, "Running: Endurance DC", "The Constitution check's DC for the second round of running.", 10, 1, 40),
	kit.IntOption(OptEnduranceStep, "Running: Endurance DC per extra round", "Added to the DC for each further round of running.", 1, 0, 10),
	kit.IntOption(OptWindedRounds, "Running: winded rounds", "Rounds a runner who failed Endurance may not run.", 10, 0, 100),
	kit.IntOption(OptBandMedium, "Range: Medium ends at (increments)", "Short range is one range increment; Medium ends at this many.", 2, 2, 10),
	kit.IntOption(OptBandLong, "Range: Long ends at (increments)", "Long ends at this many increments; Extreme goes on to the weapon's maximum.", 4, 3, 20),
	kit.ChoiceOption(OptAimedDamage, "Aimed shots: damage", "The seed lists head and back torso hits as standard damage; other aimed shots do half.", AimedSeed,
		engine.Choice{Value: AimedSeed, Label: "Head and back torso standard, others half"}, engine.Choice{Value: AimedHalf, Label: "Half for every location"}),
	kit.ChoiceOption(OptEffectDuration, "Aimed shots: arm and leg effects", "How long a hit arm or leg hampers its owner: until the GM clears it, or the GM sets rounds each time.", UntilHealed,
		engine.Choice{Value: UntilHealed, Label: "Until healed (the GM clears it)"}, engine.Choice{Value: AskRounds, Label: "The GM sets rounds each time"}),
	kit.ChoiceOption(OptDodgeDirection, "Dodge: direction", "The seed: a d20 over the Dodge value dodges (a low Dodge is good); its Defense text suggests the reverse.", Over,
		engine.Choice{Value: Over, Label: "d20 over Dodge dodges"}, engine.Choice{Value: Under, Label: "d20 under Dodge dodges"}),
	kit.ChoiceOption(OptDodgeAttacks, "Dodge: against", "The seed's Dodge is against incoming shots.", RangedOnly,
		engine.Choice{Value: RangedOnly, Label: "Ranged attacks"}, engine.Choice{Value: AllAttacks, Label: "Every attack"}),
	kit.ChoiceOption(OptRangedFumbles, "Ranged fumbles", "The seed rolls its d6 table for a fumble at long range (Long and Extreme; nearer, the shot simply misses); a harsher table rolls it for every ranged fumble.", LongRanges,
		engine.Choice{Value: LongRanges, Label: "Long and Extreme range only"}, engine.Choice{Value: AllRanges, Label: "Every ranged fumble"}),
	kit.ChoiceOption(OptStrayShots, "Stray shots", "A fumbled shot that goes 10 or 20 ft astray hits whoever stands where it lands, or no one.", StrayHit,
		engine.Choice{Value: StrayHit, Label: "Hits whoever is there"}, engine.Choice{Value: StrayMiss, Label: "Hits no one"}),
	kit.ChoiceOption(OptStrayOffBoard, "Stray shots off the board", "A stray shot whose 10 or 20 ft run past the edge of the board leaves the battlefield, or stops on the board's last square that way and hits whoever stands there (as stray shots say).", StrayLost,
		engine.Choice{Value: StrayLost, Label: "Lost off the battlefield"}, engine.Choice{Value: StrayEdge, Label: "Stops at the edge"}),
	kit.ChoiceOption(OptFumbleChains, "Melee fumbles in a chain", "A melee fumble gives every opponent in reach an immediate attack. When a fumbler fumbles again inside the chain of attacks its fumble caused (or again that turn), each opponent has had its attack on it: none again; or every fumble gives them another.", ChainOnce,
		engine.Choice{Value: ChainOnce, Label: "One attack per fumbler and turn"}, engine.Choice{Value: ChainAgain, Label: "An attack for every fumble"}),
	kit.ChoiceOption(OptCritConfirm, "Criticals: confirmation", "A roll in the weapon's critical range is a critical when it hits, or needs a second roll that hits.", NoConfirm,
		engine.Choice{Value: NoConfirm, Label: "No confirmation roll"}, engine.Choice{Value: Roll, Label: "Confirmation roll"}),
	kit.IntOption(OptCritFortDC, "Criticals: Fortitude DC to keep a Life Point", "Player characters save against losing a Life Point to a critical.", 15, 1, 40),
	kit.IntOption(OptCritFloor, "Criticals: lowest hit points from extra damage", "A critical's extra damage cannot kill: it brings a target no lower than this.", -9, -9, 0),
	kit.IntOption(OptLifePoints, "Life Points when the stats give none", "The seed gives no starting value; set each character's in its stats or here.", 3, 1, 20),
	kit.ChoiceOption(OptLifePointSpend, "Life Points against massive damage", "Spending a Life Point avoids a massive-damage event: the hit's damage, or only the save.", SpendDamage,
		engine.Choice{Value: SpendDamage, Label: "Avoids the damage"}, engine.Choice{Value: SpendSave, Label: "Avoids the save only"}),
	kit.ChoiceOption(OptMassiveThreshold, "Massive damage threshold", "A single hit of at least this forces a DC 15 Fortitude save.", ThresholdCon,
		engine.Choice{Value: ThresholdCon, Label: "The target's Constitution score (d20 Modern)"}, engine.Choice{Value: Threshold50, Label: "50 (d20 System)"}),
	kit.ChoiceOption(OptMassiveFailure, "Massive damage: failed save", "What a failed massive-damage save does.", FailDying,
		engine.Choice{Value: FailDying, Label: "Drop to −1 hit points (d20 Modern)"}, engine.Choice{Value: FailDead, Label: "Death (d20 System)"}),
	kit.IntOption(OptStabilize, "Dying: chance to stabilise (%)", "Each round a dying combatant rolls d%: this or less stabilises, else it loses 1 hit point.", 10, 0, 100),
	kit.ChoiceOption(OptDiagonals, "Diagonal squares", "d20 counts diagonals 5 ft and 10 ft alternately.", Alternate,
		engine.Choice{Value: Alternate, Label: "5 ft, 10 ft alternately"}, engine.Choice{Value: Five, Label: "Always 5 ft"}),
	kit.ChoiceOption(OptCrouchedSpeed, "Moving while crouched", "A crouched combatant moves at half speed, or full speed.", HalfSpeed,
		engine.Choice{Value: HalfSpeed, Label: "Half speed"}, engine.Choice{Value: FullSpeed, Label: "Full speed"}),
	kit.ChoiceOption(OptReactionPrompts, "Attacks of opportunity: prompts", "Who is asked before an attack of opportunity or a fumble's free attack; the others attack at once.", PromptPCs,
		engine.Choice{Value: PromptPCs, Label: "Players (the GM's fighters attack at once)"}, engine.Choice{Value: PromptAll, Label: "Players and the GM"}, engine.Choice{Value: PromptAuto, Label: "No one: always attack"}),
	kit.ChoiceOption(OptCoverRuling, "Cover rulings", "Cover comes from the board's obstacles and the GM's set-cover rulings, or the GM confirms the cover of every ranged attack at a covered target.", CoverBoard,
		engine.Choice{Value: CoverBoard, Label: "From the board and set-cover"}, engine.Choice{Value: CoverAsk, Label: "The GM confirms each shot"}),
	kit.IntOption(OptShootIntoMelee, "Shooting into melee", "Added to a ranged attack at a target adjacent to one of the shooter's allies.", -4, -10, 0),
	kit.ChoiceOption(OptHiddenAttacks, "Hidden attackers", "A hidden combatant who attacks is revealed, or stays hidden until the GM reveals it.", Reveal,
		engine.Choice{Value: Reveal, Label: "Revealed by attacking"}, engine.Choice{Value: Stay, Label: "Stay hidden"}),
	kit.IntOption(OptSurpriseRounds, "Surprise rounds", "When someone starts surprised, the others get this many surprise rounds (one action each) first.", 1, 1, 3),
	kit.IntOption(OptObjectDefense, "Object Defense (first offer)", "The Defense the GM is offered when a combatant attacks an object.", 5, 0, 40),
	kit.IntOption(OptJumpDC, "Jump DC over a pit or obstacle", "Unless the square sets its own.", 10, 1, 40),
	kit.IntOption(OptJumpFoeDC, "Jump DC over a foe", "Leaping over a standing combatant.", 15, 1, 40),
}
