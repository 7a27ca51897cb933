package d20under

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Option names. Every interpretation ([I] in the spec) is one of these,
// with the spec's reading as its default, so a GM can switch it; so are the
// optional rules the seed adopts and the reconstructions of base-game
// numbers the seed relies on without stating them.
const (
	// OptNPCvsNPC [I]: who rolls when an NPC attacks an NPC: the attacker
	// rolls its attack test ("attacker") or the defender its defence test
	// ("defender"). Damage and armour stay flat either way.
	OptNPCvsNPC = "npc-vs-npc"
	// OptPainEffect [B/I]: what damage ≥ the Pain Threshold does: the
	// victim falls prone ("prone", the Foundry system's reading), the
	// attacker chooses prone or a free attack ("choose"), or nothing
	// ("none").
	OptPainEffect = "pain-effect"
	// OptCriticals: the optional Perfect Hits & Fumbled Defence rule (seed
	// 8): "on" or "off".
	OptCriticals = "criticals"
	// OptCriticalDamage: the optional Critical Damage rule (seed 9): "on"
	// or "off".
	OptCriticalDamage = "critical-damage"
	// OptCriticalEnds [I, seed 9]: Critical Damage ends when the creature
	// is healed, or at the end of the scene too ("healed-or-scene": it does
	// not outlive the encounter), or only when healed ("healed": it carries
	// over to the next encounter).
	OptCriticalEnds = "critical-damage-ends"
	// OptKojTrigger [I, seed 10]: what "once hit" means for Koj: took at
	// least 1 damage ("damage") or any hit, even one the armour stopped
	// ("hit").
	OptKojTrigger = "koj-trigger"
	// OptKojTest [I, seed 10]: the Quick test that unlocks Adept/Master
	// Rapid Fire while Roused is rolled once per turn ("turn") or for each
	// such shot ("shot").
	OptKojTest = "koj-quick-test"
	// OptFreeAttackLimit [I, seed 3]: the "turn" in "one free attack per
	// triggering factor and turn": the Symbaroum turn, Fray's round
	// ("round"), or each combatant's own turn ("turn").
	OptFreeAttackLimit = "free-attack-limit"
	// OptFreeAttackOffers: who is asked before a free attack is made:
	// players for their characters, NPCs attack at once ("pcs"); the GM
	// too ("all"); or nobody, every free attack is made ("auto").
	OptFreeAttackOffers = "free-attack-offers"
	// OptFeatOffers: who is offered the reactive feats (Perfect Defence,
	// Resilience, Fearless) when they could use them: players only
	// ("pcs"), the GM for NPCs too ("all"), or nobody ("off").
	OptFeatOffers = "feat-offers"
	// OptNPCFeats [S, seed 13]: NPCs may use feats, paying in permanent
	// Corruption ("corruption"), or never ("never").
	OptNPCFeats = "npc-feats"
	// OptPushBackSquares [I, seed 14]: on the grid, how many 2 m squares a
	// Push Back moves the target ("five metres").
	OptPushBackSquares = "push-back-squares"
	// OptTraitValues [I, seed 19]: monstrous-trait values are rolled, a
	// flat N becoming 1d(2N) ("rolled"), or used flat ("flat").
	OptTraitValues = "trait-values"
	// OptReclaim [I, seed 7]: when there is time to search after the
	// fight, each spent projectile is rolled for by its quality
	// ("roll"), or the counters simply reset to 3 ("reset").
	OptReclaim = "ammo-reclaim"
	// OptCorruptionTests [I, seed 13]: how accumulated Corruption weighs
	// on success tests — the thing Ignore Corruption ignores: −1 per point
	// of total Corruption above the Corruption Threshold
	// ("over-threshold") or not at all ("none").
	OptCorruptionTests = "corruption-tests"
	// OptHitLocations [I, seed 17]: only aimed attacks have a hit location
	// ("aimed"), or every hit rolls one on the body-part d10
	// ("every-hit").
	OptHitLocations = "hit-locations"
	// OptAimEffects [I, seed 17]: the body-part effects at damage ≥ PT
	// follow an Aim at Body Part only ("body-part") or any located hit,
	// Aim High/Low included ("located").
	OptAimEffects = "aim-effects"
	// OptUnlocatedArmour [I, seed 18]: armour segments protect a hit
	// without a location when they include the cuirass ("cuirass") or when
	// any segment is worn ("any").
	OptUnlocatedArmour = "unlocated-armour"
	// OptStanceDuration [I, seed 14]: Full Defence and Full Offense last
	// from the combatant's turn until its next turn ("next-turn") or until
	// the end of the round ("round").
	OptStanceDuration = "stance-duration"
	// OptDyingDamage [I]: damage to a dying character counts as a failed
	// death test ("failed-test") or kills it ("dies").
	OptDyingDamage = "dying-damage"
	// OptMedicusCure [I, seed 19]: Toughness a herbal cure adds to a
	// Medicus' 1d4 ("even more when combined with herbal cures").
	OptMedicusCure = "medicus-cure-bonus"
	// Rapid Fire's shots per combat action at each level [B].
	OptRapidNovice = "rapid-fire-novice"
	OptRapidAdept  = "rapid-fire-adept"
	OptRapidMaster = "rapid-fire-master"
	// OptGridFlanking [I, seed 6]: on the grid, two attackers flank when
	// they stand on opposite sides of the target ("opposite") or whenever
	// two are engaged with it ("any").
	OptGridFlanking = "grid-flanking"
	// OptLameSquares [I, seed 17]: a movement action's squares with a leg
	// wound ("half movement": half of 5).
	OptLameSquares = "lame-squares"
	// OptFamiliarSplit [I, seed 19]: damage to a creature bonded to a
	// familiar or companion is split half and half after its Pain
	// Threshold counted the whole ("half"), or not split ("off").
	OptFamiliarSplit = "familiar-split"
	// OptRowOne [I, seed 17]: the hit-location tables' garbled first row
	// "1 Right Left" is the right leg ("right-leg") or the left leg
	// ("left-leg").
	OptRowOne = "table-row-one"
	// OptUntrainedTraps [I, seed 15]: an untrained character sets a
	// mechanical trap with its whole turn ("turn") or a combat action
	// ("action"); trappers always use a combat action.
	OptUntrainedTraps = "untrained-trap-setting"
)

// Option values.
const (
	On  = "on"
	Off = "off"

	RollerAttacker = "attacker"
	RollerDefender = "defender"

	PainProne  = "prone"
	PainChoose = "choose"
	PainNone   = "none"

	EndsHealedOrScene = "healed-or-scene"
	EndsHealed        = "healed"

	KojDamage = "damage"
	KojHit    = "hit"

	PerTurn = "turn"
	PerShot = "shot"

	LimitRound = "round"
	LimitTurn  = "turn"

	OffersPCs  = "pcs"
	OffersAll  = "all"
	OffersAuto = "auto"
	OffersOff  = "off"

	FeatsCorruption = "corruption"
	FeatsNever      = "never"

	TraitsRolled = "rolled"
	TraitsFlat   = "flat"

	ReclaimRoll  = "roll"
	ReclaimReset = "reset"

	CorruptionOverThreshold = "over-threshold"
	CorruptionNone          = "none"

	LocationsAimed = "aimed"
	LocationsEvery = "every-hit"

	AimBodyPart = "body-part"
	AimLocated  = "located"

	UnlocatedCuirass = "cuirass"
	UnlocatedAny     = "any"

	StanceNextTurn = "next-turn"
	StanceRound    = "round"

	DyingFailedTest = "failed-test"
	DyingDies       = "dies"

	FlankOpposite = "opposite"
	FlankAny      = "any"

	SplitHalf = "half"
	SplitOff  = "off"

	TrapsTurn   = "turn"
	TrapsAction = "action"

	RowOneRight = "right-leg"
	RowOneLeft  = "left-leg"
)

var onOff = kit.Choices(On, "On", Off, "Off")

var optionSpecs = []engine.OptionSpec{
	{Name: OptNPCvsNPC, Label: "NPC against NPC", Default: RollerAttacker,
		Help:    "Who rolls when an NPC attacks another NPC (damage and armour stay flat).",
		Choices: kit.Choices(RollerAttacker, "The attacker rolls its attack", RollerDefender, "The defender rolls its defence")},
	{Name: OptPainEffect, Label: "Damage at the Pain Threshold", Default: PainProne,
		Help:    "What damage equal to or above the victim's Pain Threshold does.",
		Choices: kit.Choices(PainProne, "The victim falls prone", PainChoose, "The attacker chooses: prone or a free attack", PainNone, "Nothing")},
	{Name: OptCriticals, Label: "Perfect hits and fumbles", Default: On,
		Help: "Attack 1: +1d6 damage; attack 20: the enemy gets a free attack; defence 1: a free attack on the attacker; defence 20: +3 damage.", Choices: onOff},
	{Name: OptCriticalDamage, Label: "Critical Damage", Default: On,
		Help: "Damage above the Pain Threshold gives a second chance to fail every test until healed.", Choices: onOff},
	{Name: OptCriticalEnds, Label: "Critical Damage ends", Default: EndsHealedOrScene,
		Choices: kit.Choices(EndsHealedOrScene, "When healed, or at the end of the scene", EndsHealed, "Only when healed (carried to the next encounter)")},
	{Name: OptKojTrigger, Label: "Koj: roused when", Default: KojDamage,
		Choices: kit.Choices(KojDamage, "The character took at least 1 damage", KojHit, "The character was hit, even without damage")},
	{Name: OptKojTest, Label: "Koj: Quick test for Rapid Fire", Default: PerTurn,
		Choices: kit.Choices(PerTurn, "Once per turn", PerShot, "For every Adept or Master volley")},
	{Name: OptFreeAttackLimit, Label: "One free attack per trigger and", Default: LimitRound,
		Help:    "Symbaroum's \"turn\" is Fray's round.",
		Choices: kit.Choices(LimitRound, "Round", LimitTurn, "Combatant's turn")},
	{Name: OptFreeAttackOffers, Label: "Ask before free attacks", Default: OffersPCs,
		Choices: kit.Choices(OffersPCs, "Players; NPCs attack at once", OffersAll, "Players and the GM", OffersAuto, "Nobody: every free attack is made")},
	{Name: OptFeatOffers, Label: "Offer reactive feats", Default: OffersPCs,
		Help:    "Perfect Defence, Resilience and Fearless, offered when they could be used.",
		Choices: kit.Choices(OffersPCs, "To players", OffersAll, "To players and the GM (NPCs)", OffersOff, "To nobody")},
	{Name: OptNPCFeats, Label: "NPC feats", Default: FeatsCorruption,
		Choices: kit.Choices(FeatsCorruption, "Paid in permanent Corruption", FeatsNever, "Never")},
	{Name: OptPushBackSquares, Label: "Push Back distance (squares)", Type: engine.OptionInt, Default: "3", Min: 1, Max: 5},
	{Name: OptTraitValues, Label: "Monstrous-trait values", Default: TraitsRolled,
		Choices: kit.Choices(TraitsRolled, "Rolled: a flat N becomes 1d(2N)", TraitsFlat, "Flat")},
	{Name: OptReclaim, Label: "Searching for arrows and bolts", Default: ReclaimRoll,
		Choices: kit.Choices(ReclaimRoll, "Roll for each spent projectile", ReclaimReset, "Counters reset to 3")},
	{Name: OptCorruptionTests, Label: "Corruption and tests", Default: CorruptionOverThreshold,
		Help:    "What Ignore Corruption ignores.",
		Choices: kit.Choices(CorruptionOverThreshold, "−1 per point of Corruption above the threshold", CorruptionNone, "No effect")},
	{Name: OptHitLocations, Label: "Hit locations", Default: LocationsAimed,
		Choices: kit.Choices(LocationsAimed, "Only aimed attacks", LocationsEvery, "Every hit rolls a body part")},
	{Name: OptAimEffects, Label: "Body-part effects", Default: AimBodyPart,
		Choices: kit.Choices(AimBodyPart, "Only when aiming at a body part", AimLocated, "Every located hit")},
	{Name: OptUnlocatedArmour, Label: "Armour segments against unlocated hits", Default: UnlocatedCuirass,
		Choices: kit.Choices(UnlocatedCuirass, "Protect when the cuirass is worn", UnlocatedAny, "Protect when any segment is worn")},
	{Name: OptStanceDuration, Label: "Full Defence and Full Offense last", Default: StanceNextTurn,
		Choices: kit.Choices(StanceNextTurn, "Until the combatant's next turn", StanceRound, "Until the end of the round")},
	{Name: OptDyingDamage, Label: "Damage to the dying", Default: DyingFailedTest,
		Choices: kit.Choices(DyingFailedTest, "Counts as a failed death test", DyingDies, "Kills")},
	{Name: OptMedicusCure, Label: "Herbal cure bonus to Medicus", Type: engine.OptionInt, Default: "1", Min: 0, Max: 4},
	{Name: OptRapidNovice, Label: "Rapid Fire shots (Novice)", Type: engine.OptionInt, Default: "2", Min: 1, Max: 6},
	{Name: OptRapidAdept, Label: "Rapid Fire shots (Adept)", Type: engine.OptionInt, Default: "3", Min: 1, Max: 6},
	{Name: OptRapidMaster, Label: "Rapid Fire shots (Master)", Type: engine.OptionInt, Default: "4", Min: 1, Max: 6},
	{Name: OptGridFlanking, Label: "Flanking on the grid", Default: FlankOpposite,
		Choices: kit.Choices(FlankOpposite, "Attackers on opposite sides", FlankAny, "Any two attackers engaged")},
	{Name: OptLameSquares, Label: "Squares per movement with a leg wound", Type: engine.OptionInt, Default: "2", Min: 1, Max: 5},
	{Name: OptFamiliarSplit, Label: "Familiars and companions share damage", Default: SplitHalf,
		Choices: kit.Choices(SplitHalf, "Half each, after the Pain Threshold", SplitOff, "No")},
	{Name: OptRowOne, Label: "Hit locations: a 1 on the d10", Default: RowOneRight,
		Help:    "The seed's first row reads \"1 Right Left\".",
		Choices: kit.Choices(RowOneRight, "The right leg", RowOneLeft, "The left leg")},
	{Name: OptUntrainedTraps, Label: "Untrained trap setting takes", Default: TrapsTurn,
		Choices: kit.Choices(TrapsTurn, "The whole turn", TrapsAction, "A combat action")},
}
