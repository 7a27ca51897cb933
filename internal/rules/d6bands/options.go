package d6bands

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Option names. The seed assumes an Eon-style base game it does not
// restate; the spec reconstructs it, and every number or reading that
// reconstruction is unsure of is one of these options, its default the
// spec's reading, so a GM can switch it. docs/rules/d6-bands.md explains
// each for GMs.
const (
	// The check (check.go).
	OptCritMargin    = "crit-margin"     // a success by at least this much is critical
	OptFumbleMargin  = "fumble-margin"   // a miss by at least this much is a fumble
	OptUntrained     = "untrained-skill" // the value of a skill a combatant lacks
	OptActions       = "actions-per-round"
	OptInitiative    = "initiative"  // rolled every round or once
	OptBandMetric    = "band-metric" // how cells become range bands
	OptWoundLight    = "light-wound-penalty"
	OptWoundSerious  = "serious-wound-penalty"
	OptWoundLethal   = "lethal-wound-penalty"
	OptBleedSerious  = "serious-bleeding"
	OptBleedLethal   = "lethal-bleeding"
	OptLethalFactor  = "lethal-threshold"
	OptLethalOut     = "lethal-wounds-out"
	OptDeathFactor   = "death-blood-loss"
	OptMarginDamage  = "margin-damage"
	OptDamageDice    = "damage-dice"
	OptCalledShot    = "called-shot"
	OptMeleeDice     = "melee-difficulty"
	OptMeleeActions  = "melee-actions"
	OptNPCDefense    = "npc-defense"
	OptDashDefense   = "dash-defense"
	OptDashTerrain   = "dash-terrain"
	OptTerrainSkill  = "terrain-skill"
	OptImpassableOut = "impassable-exit"
	OptDashBleed     = "dash-bleeding"
	OptBulk          = "bulk-penalties"
	OptProneMelee    = "prone-melee-bonus"
	OptProneRanged   = "prone-ranged-penalty"
	OptRiseActions   = "rise-actions"
	OptStealthDice   = "stealth-difficulty"
	OptPerceiveDice  = "perception-difficulty"
	OptStealthCost   = "stealth-actions"
	OptAmbushDice    = "ambush-bonus"
	OptHeavyLOS      = "heavy-cover-los"
	OptStrayRuling   = "stray-ruling"
	OptWrestling     = "wrestling-size"
	OptTerrorOnMiss  = "terror-on-miss"
	OptTerrorLoss    = "terror-actions"
	OptQuickBase     = "quick-load-base"
	OptReliability   = "reliability-failure"
	OptDuelDice      = "extreme-duel-difficulty"
	OptAidDice       = "first-aid-difficulty"
	OptAidActions    = "first-aid-actions"
)

// Option values.
const (
	On  = "on"
	Off = "off"

	InitEachRound = "each-round"
	InitOnce      = "once"

	MetricChebyshev = "chebyshev"
	MetricManhattan = "manhattan"

	DamageOpen  = "open-ended"
	DamagePlain = "plain"

	CalledIgnoreArmor = "ignore-armor"
	CalledExtraDie    = "extra-die"

	DefenseAsk  = "ask"
	DefenseAll  = "all"
	DefenseNone = "none"

	DashUntilNextTurn = "next-turn"
	DashThisRound     = "end-of-round"

	TerrainWorst = "worst"
	TerrainLast  = "destination"

	SkillBetter     = "better"
	SkillAthletics  = "athletics"
	SkillAcrobatics = "acrobatics"

	BleedWorstWound = "worst-wound"
	BleedAllWounds  = "all-wounds"

	StrayAsk  = "ask"
	StrayAuto = "auto"

	QuickSkill     = "skill"
	QuickAttribute = "attribute"

	ReliabilityJam    = "jam"
	ReliabilityBroken = "broken"
)

var optionSpecs = []engine.OptionSpec{
	kit.IntOption(OptActions, "Actions per round",
		"Actions every combatant has each round (spec: 3, a round being about 10 seconds). A move is 1, a dash 2, an aimed shot 2, a snapshot 1.", 3, 1, 6),
	{Name: OptInitiative, Label: "Initiative", Default: InitEachRound,
		Help:    "Each combatant rolls 1d6 + Initiative: every round, or once at the start and kept.",
		Choices: []engine.Choice{{Value: InitEachRound, Label: "Rolled every round"}, {Value: InitOnce, Label: "Rolled once"}}},
	kit.IntOption(OptCritMargin, "Critical success margin",
		"A check that succeeds by at least this much (skill − sum) is a critical success.", 6, 1, 30),
	kit.IntOption(OptFumbleMargin, "Fumble margin",
		"A check that misses by at least this much (sum − skill) is a critical failure (a fumble).", 7, 1, 30),
	kit.IntOption(OptUntrained, "Untrained skill value",
		"The value of a skill a combatant's sheet does not list.", 5, 0, 30),
	{Name: OptBandMetric, Label: "Range band between cells", Default: MetricChebyshev,
		Help:    "Range bands count squares: the larger of the column and row distance (diagonals count 1), or their sum.",
		Choices: []engine.Choice{{Value: MetricChebyshev, Label: "Larger of the two (Chebyshev)"}, {Value: MetricManhattan, Label: "Sum of the two"}}},

	// Harm.
	{Name: OptMarginDamage, Label: "Damage adds the hit margin", Default: On,
		Help: "Damage is the weapon's dice plus the margin the attack succeeded by (area fire counts as a margin of 3), less armour.", Choices: kit.Choices(On, "On", Off, "Off")},
	{Name: OptDamageDice, Label: "Damage dice", Default: DamageOpen,
		Help:    "Damage dice are open-ended like checks (a 6 is replaced by two new dice), or plain.",
		Choices: []engine.Choice{{Value: DamageOpen, Label: "Open-ended"}, {Value: DamagePlain, Label: "Plain"}}},
	kit.IntOption(OptLethalFactor, "Lethal wound threshold",
		"Damage of at least Toughness is a Serious wound; at least this many times Toughness a Lethal one. Less is a Light wound.", 2, 2, 5),
	kit.IntOption(OptWoundLight, "Light wound penalty", "Skill values are lowered by this much per Light wound.", 1, 0, 5),
	kit.IntOption(OptWoundSerious, "Serious wound penalty", "Skill values are lowered by this much per Serious wound.", 2, 0, 6),
	kit.IntOption(OptWoundLethal, "Lethal wound penalty", "Skill values are lowered by this much per Lethal wound.", 3, 0, 8),
	kit.IntOption(OptBleedSerious, "Serious wound bleeding", "Blood lost each round per Serious wound not yet bandaged.", 1, 0, 5),
	kit.IntOption(OptBleedLethal, "Lethal wound bleeding", "Blood lost each round per Lethal wound not yet bandaged.", 3, 0, 10),
	kit.IntOption(OptLethalOut, "Lethal wounds that kill", "A combatant with this many Lethal wounds dies.", 2, 1, 5),
	kit.IntOption(OptDeathFactor, "Blood loss that kills",
		"Blood loss of at least Blood knocks a combatant out (down, still bleeding); this many times Blood kills.", 2, 2, 4),
	{Name: OptCalledShot, Label: "Called shot", Default: CalledIgnoreArmor,
		Help:    "A called shot (+2D) aims at a hit location the target's armour does not cover, or adds a damage die.",
		Choices: []engine.Choice{{Value: CalledIgnoreArmor, Label: "Ignores armour"}, {Value: CalledExtraDie, Label: "+1 damage die"}}},

	// Melee and the Defense Pool.
	kit.IntOption(OptMeleeDice, "Melee difficulty", "The difficulty of a melee attack before the defender's Defense Pool dice.", 3, 1, 6),
	kit.IntOption(OptMeleeActions, "Melee attack actions", "Actions a melee attack takes.", 1, 1, 3),
	{Name: OptNPCDefense, Label: "GM combatants' Defense Pool", Default: DefenseAsk,
		Help:    "Players are always asked how many Defense Pool dice to spend against a melee attack or a shot in close contact. The GM is asked for its own combatants, or they spend every die, or none.",
		Choices: []engine.Choice{{Value: DefenseAsk, Label: "Ask the GM"}, {Value: DefenseAll, Label: "Spend every die"}, {Value: DefenseNone, Label: "Never spend"}}},

	// Movement.
	{Name: OptDashDefense, Label: "How long a dash exposes", Default: DashUntilNextTurn,
		Help:    "A dasher loses cover and the Defense Pool until its next turn starts, or until the round ends.",
		Choices: []engine.Choice{{Value: DashUntilNextTurn, Label: "Until its next turn"}, {Value: DashThisRound, Label: "Until the end of the round"}}},
	{Name: OptDashTerrain, Label: "Dash terrain check", Default: TerrainWorst,
		Help:    "The dash check's difficulty is the worst square entered, or the destination square's.",
		Choices: []engine.Choice{{Value: TerrainWorst, Label: "Worst square entered"}, {Value: TerrainLast, Label: "Destination square"}}},
	{Name: OptTerrainSkill, Label: "Terrain check skill", Default: SkillBetter,
		Help:    "Dashing over difficult terrain and crossing impassable terrain check Acrobatics or Athletics \"as most applicable\": the better of the two, or always one (water always uses Swimming).",
		Choices: []engine.Choice{{Value: SkillBetter, Label: "The better of the two"}, {Value: SkillAthletics, Label: "Athletics"}, {Value: SkillAcrobatics, Label: "Acrobatics"}}},
	{Name: OptImpassableOut, Label: "Leaving impassable terrain", Default: On,
		Help: "Moving out of an impassable square is as slow and uncertain as moving into one (on), or only entering counts (off).", Choices: kit.Choices(On, "On", Off, "Off")},
	{Name: OptDashBleed, Label: "A wounded dasher bleeds", Default: BleedWorstWound,
		Help:    "A Seriously or Lethally wounded dasher \"bleeds one wound\": its worst wound bleeds once, or every wound does.",
		Choices: []engine.Choice{{Value: BleedWorstWound, Label: "The worst wound, once"}, {Value: BleedAllWounds, Label: "Every wound, once"}}},
	{Name: OptBulk, Label: "Bulk penalties", Default: On,
		Help: "A combatant's Bulk lowers its skill for terrain checks in impassable terrain or medium and heavy cover, and for Stealth in medium and heavy cover.", Choices: kit.Choices(On, "On", Off, "Off")},
	kit.IntOption(OptRiseActions, "Standing up", "Actions it takes to stand up from prone.", 1, 0, 3),
	kit.IntOption(OptProneMelee, "Melee against the prone", "Skill bonus of a melee attack against a prone target.", 2, 0, 6),
	kit.IntOption(OptProneRanged, "Shots at the prone", "Extra dice of difficulty for a shot at a prone target from outside close contact.", 1, 0, 3),

	// Stealth and line of sight.
	kit.IntOption(OptStealthDice, "Stealth difficulty", "Dice the hider rolls against its Stealth.", 3, 1, 6),
	kit.IntOption(OptPerceiveDice, "Perception difficulty", "Dice each opponent rolls against its Perception, plus the hider's cover.", 3, 1, 6),
	kit.IntOption(OptStealthCost, "Stealth actions", "Actions a Stealth check takes (0: it comes with a move or staying put).", 1, 0, 3),
	kit.IntOption(OptAmbushDice, "Ambush bonus", "Dice fewer for an attack on an opponent unaware of the attacker; that opponent cannot spend its Defense Pool either.", 1, 0, 3),
	kit.IntOption(OptHeavyLOS, "Heavy cover that blocks sight",
		"Squares of heavy cover between a shooter and its target (the target's own square included) that block line of sight; 0 turns it off. Squares marked as blocking always do.", 2, 0, 5),

	// Shooting.
	{Name: OptStrayRuling, Label: "Stray shots", Default: StrayAsk,
		Help:    "When a miss could hit someone else, a die picks the body and the GM confirms the effect (a bystander, nothing), or it simply hits.",
		Choices: []engine.Choice{{Value: StrayAsk, Label: "The GM rules on each"}, {Value: StrayAuto, Label: "It hits"}}},
	kit.IntOption(OptWrestling, "Wrestling match", "A contact group of at least this many bodies is a wrestling match: a miss by 6 or less hits a random one.", 3, 2, 10),
	{Name: OptTerrorOnMiss, Label: "Terror when area fire misses", Default: On,
		Help: "Everyone in a raked square takes the Terror check even when the area fire misses (on), or only when it hits.", Choices: kit.Choices(On, "On", Off, "Off")},
	kit.IntOption(OptTerrorLoss, "Terror failure", "Actions a failed Terror check costs on the victim's next turn (a fumble costs the whole turn).", 1, 0, 6),
	{Name: OptQuickBase, Label: "Quick loading skill", Default: QuickSkill,
		Help:    "Quick loading checks the weapon's skill, or the attribute it is based on: Agility for archery and firearms, Vigor for crossbows.",
		Choices: []engine.Choice{{Value: QuickSkill, Label: "The weapon's skill"}, {Value: QuickAttribute, Label: "Agility (Vigor for crossbows)"}}},
	{Name: OptReliability, Label: "Reliability failure", Default: ReliabilityJam,
		Help:    "A fumbled quick loading fouls the weapon: it is jammed until a full, normal reload clears it, or broken for the rest of the fight.",
		Choices: []engine.Choice{{Value: ReliabilityJam, Label: "Jammed until a full reload"}, {Value: ReliabilityBroken, Label: "Broken for the fight"}}},
	kit.IntOption(OptDuelDice, "Extreme range duel", "Dice each side rolls in the opposed check of an Extreme range duel.", 3, 1, 6),
	kit.IntOption(OptAidDice, "First aid difficulty", "Dice of a Medicine check to stop a wound bleeding.", 3, 1, 6),
	kit.IntOption(OptAidActions, "First aid actions", "Actions first aid takes.", 2, 1, 3),
}
