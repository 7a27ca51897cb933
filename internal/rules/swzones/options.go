package swzones

import (
	"encoding/json"
	"strconv"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Option names. Every interpretation ([I] in the spec) the core relies on is
// one of these, with the spec's reading as its default, so a GM can switch it.
const (
	// OptEdition picks the base game: the values that differ between
	// Savage Worlds Adventure Edition and Deluxe (cover, Defend, Extreme range).
	OptEdition = "edition"
	// OptRecoveryPenalty [I, seed 11]: after recovering from Shaken without a
	// raise, the −2 applies to every action this turn ("all") or only the
	// first one ("first").
	OptRecoveryPenalty = "shaken-recovery-penalty"
	// OptRangeRounding [I, seed 7]: how inches become zones, range/6 rounded
	// to the nearest zone (halves up), down or up.
	OptRangeRounding = "range-rounding"
	// OptCoverObstacle [I, seed 10]: a shot that hits the cover instead of
	// the target goes on through it when the zone's cover has an Armour
	// value ("armor": the target adds it to Toughness), or is always stopped
	// ("stops").
	OptCoverObstacle = "cover-obstacle"
	// OptShootInMelee [I]: a fighter in a melee may not shoot ("no"), or may
	// shoot only an opponent in the same melee, against its Parry
	// ("adjacent", the base game's rule for pistols in melee).
	OptShootInMelee = "shoot-in-melee"
	// OptMultiAction [I]: the first action of a turn declares how many
	// actions the fighter takes and every one of them suffers −2 per extra
	// ("declare"), or each action is at −2 per action already taken
	// ("progressive").
	OptMultiAction = "multi-action"

	// OptRunRefund [I, seed 3]: unspent Movement cancels the Running penalty
	// (1 point per MP, at most 2), committed with the first other action roll
	// of the turn ("first-roll"), or given up at any action roll that turn
	// ("any-roll").
	OptRunRefund = "run-refund"
	// OptRiseCost [I, seed 3]: Movement it costs to rise from prone.
	OptRiseCost = "rise-cost"
	// OptEngageFreeAttacks [I, seed 5]: the "normal opportunities" of
	// entering a melee are Edge reactions only, which Fray does not automate
	// ("edges"), or a free attack from every non-Shaken opponent there
	// ("all").
	OptEngageFreeAttacks = "engage-free-attacks"
	// OptPowerRangeGaps [I, seed 7]: the Smarts dice the seed's power range
	// table skips are interpolated ("interpolate") or take the value of the
	// die below ("lower").
	OptPowerRangeGaps = "power-range-gaps"
	// OptConeJet [I]/[GM], seed 8: a Cone or Jet covers the union of its two
	// optional parts ("union") or only one of them ("either").
	OptConeJet = "cone-jet"
	// OptScatterDodge [I, seed 9]: the modifier to the Agility roll of the
	// victims of a blast that deviated.
	OptScatterDodge = "scatter-dodge"
	// OptScatterPlacement [GM, seed 9]: where in the zone a deviated Small or
	// Large Burst lands: the GM decides ("gm") or a recorded die ("random").
	OptScatterPlacement = "scatter-placement"
	// OptScatterThrower [GM, seed 9]: a blast that deviates into its
	// thrower's own zone catches the thrower like anyone there, who gets the
	// usual Agility roll to get out ("caught", the seed's words: the burst
	// applies where it lands), or never catches the thrower ("spared").
	OptScatterThrower = "scatter-thrower"
	// OptNPCDive: the dive-out rolls of the GM's fighters are rolled at once
	// ("auto") or the GM is asked ("ask"). Players are always asked.
	OptNPCDive = "npc-dive"
	// OptGMBennyLimit [I, seed 12]: a player's "Critical Success" the GM may
	// not spend Bennies against: an attack with at least one raise ("raise")
	// or two ("two-raises"). NPCs may not Soak such an attack.
	OptGMBennyLimit = "gm-benny-limit"
	// OptPushFreeAttacks [I, seed 14]: a fighter pushed out of a melee
	// provokes no free attacks ("none") or is attacked as if withdrawing
	// ("withdraw").
	OptPushFreeAttacks = "push-free-attacks"
	// OptSoakOffers: who is asked whether to Soak wounds with a Benny.
	OptSoakOffers = "soak-offers"
	// OptRerollOffers: who is asked whether to reroll a failed action with a
	// Benny.
	OptRerollOffers = "reroll-offers"
	// OptExtrasBennies: whether the GM's Bennies may be spent on Extras
	// (Soak, recovering from Shaken).
	OptExtrasBennies = "extras-bennies"
	// OptGMBennies: the GM's own pool of Bennies.
	OptGMBennies = "gm-bennies"
	// OptBleedingOut: what a Bleeding Out fighter's Vigor roll at the start
	// of each round needs to stabilise.
	OptBleedingOut = "bleeding-out"
	// OptInterruptWindows: whether each Movement step asks opponents on Hold
	// if they interrupt it.
	OptInterruptWindows = "interrupt-windows"
	// OptInterruptContest: when a fighter on Hold interrupts a mover, both
	// roll Agility and the higher goes first ("agility"), or the holder always
	// goes first ("holder").
	OptInterruptContest = "interrupt-contest"
	// OptProneShots: a prone target counts as Medium cover against shots
	// from another zone only ("other-zones") or from anywhere ("always").
	OptProneShots = "prone-shots"
)

// Option values.
const (
	EditionSWADE = "swade"
	EditionSWD   = "swd"

	PenaltyAll   = "all"
	PenaltyFirst = "first"

	RoundNearest = "nearest"
	RoundDown    = "down"
	RoundUp      = "up"

	CoverArmor = "armor"
	CoverStops = "stops"

	ShootNo       = "no"
	ShootAdjacent = "adjacent"

	MultiDeclare     = "declare"
	MultiProgressive = "progressive"

	RefundFirstRoll = "first-roll"
	RefundAnyRoll   = "any-roll"

	EngageEdges = "edges"
	EngageAll   = "all"

	GapsInterpolate = "interpolate"
	GapsLower       = "lower"

	ConeUnion  = "union"
	ConeEither = "either"

	PlaceGM     = "gm"
	PlaceRandom = "random"

	ThrowerCaught = "caught"
	ThrowerSpared = "spared"

	DiveAuto = "auto"
	DiveAsk  = "ask"

	LimitRaise     = "raise"
	LimitTwoRaises = "two-raises"

	PushNone     = "none"
	PushWithdraw = "withdraw"

	OffersAll = "all"
	OffersPCs = "pcs"
	OffersOff = "off"

	No  = "no"
	Yes = "yes"

	GMBenniesPerPC = "per-pc"

	BleedSuccess = "success"
	BleedRaise   = "raise"

	On  = "on"
	Off = "off"

	ContestAgility = "agility"
	ContestHolder  = "holder"

	ProneOtherZones = "other-zones"
	ProneAlways     = "always"
)

var optionSpecs = []engine.OptionSpec{
	{
		Name: OptEdition, Label: "Edition", Default: EditionSWADE,
		Help: "Base values that differ between editions: cover −2/−4/−6/−8 (SWADE) or −1/−2/−4 (SWD); Defend +4 or +2 Parry; Extreme range (SWADE only); thrown weapons and grapples use Athletics (SWADE) or Throwing and Fighting (SWD).",
		Choices: []engine.Choice{
			{Value: EditionSWADE, Label: "Savage Worlds Adventure Edition"},
			{Value: EditionSWD, Label: "Savage Worlds Deluxe"},
		},
	},
	{
		Name: OptRecoveryPenalty, Label: "Shaken recovery penalty", Default: PenaltyAll,
		Help: "A fighter who recovers from Shaken without a raise acts at −2: on every action this turn, or on the first action only.",
		Choices: []engine.Choice{
			{Value: PenaltyAll, Label: "All actions this turn"},
			{Value: PenaltyFirst, Label: "First action only"},
		},
	},
	{
		Name: OptRangeRounding, Label: "Range conversion", Default: RoundNearest,
		Help: "Weapon ranges in inches become zones as range ÷ 6, rounded (below 6\" is always 0).",
		Choices: []engine.Choice{
			{Value: RoundNearest, Label: "Round to nearest (halves up)"},
			{Value: RoundDown, Label: "Round down"},
			{Value: RoundUp, Label: "Round up"},
		},
	},
	{
		Name: OptCoverObstacle, Label: "Shots that hit cover", Default: CoverArmor,
		Help: "A shot that would hit but for the cover penalty hits the cover. With \"armour\" it goes through when the zone gives its cover an Armour value, which the target adds to Toughness.",
		Choices: []engine.Choice{
			{Value: CoverArmor, Label: "Go through cover with an Armour value"},
			{Value: CoverStops, Label: "Are always stopped"},
		},
	},
	{
		Name: OptShootInMelee, Label: "Shooting while in a melee", Default: ShootNo,
		Help: "Whether a fighter engaged in a melee may shoot without disengaging first.",
		Choices: []engine.Choice{
			{Value: ShootNo, Label: "Not allowed: disengage first"},
			{Value: ShootAdjacent, Label: "Only at opponents in the same melee, against Parry"},
		},
	},
	{
		Name: OptMultiAction, Label: "Multi-action penalty", Default: MultiDeclare,
		Help: "Up to three actions a turn at −2 per extra action: declared with the first action and applied to all of them, or growing with each action taken.",
		Choices: []engine.Choice{
			{Value: MultiDeclare, Label: "Declared with the first action, applies to all"},
			{Value: MultiProgressive, Label: "Grows with each action taken"},
		},
	},
	{
		Name: OptRunRefund, Label: "Running: unspent Movement", Default: RefundFirstRoll,
		Help: "Each unspent Movement point cancels 1 point of the −2 Running penalty (at most 2). The points are given up with the first other action roll of the turn, or at any action roll that turn.",
		Choices: []engine.Choice{
			{Value: RefundFirstRoll, Label: "Committed with the first other roll"},
			{Value: RefundAnyRoll, Label: "At any action roll this turn"},
		},
	},
	{
		Name: OptRiseCost, Label: "Rising from prone", Default: "0",
		Help:    "Movement points it costs to stand up. Rising always gives −2 to Running rolls that turn.",
		Choices: []engine.Choice{{Value: "0", Label: "Free (0 MP)"}, {Value: "1", Label: "1 MP"}},
	},
	{
		Name: OptEngageFreeAttacks, Label: "Entering a melee", Default: EngageEdges,
		Help: "The seed's \"normal opportunities\" when getting into a melee: Edge reactions only (not automated), or a free attack from every non-Shaken opponent in the melee.",
		Choices: []engine.Choice{
			{Value: EngageEdges, Label: "Edge reactions only"},
			{Value: EngageAll, Label: "Free attacks from every opponent there"},
		},
	},
	{
		Name: OptPowerRangeGaps, Label: "Power ranges the seed skips", Default: GapsInterpolate,
		Help: "Smarts d8, Smarts×2 d10, Smarts×3 d6 and d10 are missing from the seed's table: interpolate them (1, 3, 3, 5), or use the die below (0, 3, 2, 4).",
		Choices: []engine.Choice{
			{Value: GapsInterpolate, Label: "Interpolate"},
			{Value: GapsLower, Label: "Use the die below"},
		},
	},
	{
		Name: OptConeJet, Label: "Cone and Jet templates", Default: ConeUnion,
		Help: "A Cone is one target in the caster's zone plus a Small Burst in the same or a neighbouring zone; a Jet the other way round. Both parts (each optional), or only one of them.",
		Choices: []engine.Choice{
			{Value: ConeUnion, Label: "Both parts"},
			{Value: ConeEither, Label: "One part or the other"},
		},
	},
	{
		Name: OptScatterDodge, Label: "Diving out of a deviated blast", Default: "-2",
		Help:    "Everyone caught where a missed grenade or blast lands may roll Agility to dive out, at this modifier.",
		Choices: []engine.Choice{{Value: "-2", Label: "−2"}, {Value: "0", Label: "No modifier"}},
	},
	{
		Name: OptScatterPlacement, Label: "Where a deviated burst lands", Default: PlaceGM,
		Help: "A Small Burst that deviates lands on one character or melee of the new zone, a Large Burst also covers one of its neighbours: the GM decides, or a die does.",
		Choices: []engine.Choice{
			{Value: PlaceGM, Label: "The GM decides"},
			{Value: PlaceRandom, Label: "A die decides"},
		},
	},
	{
		Name: OptScatterThrower, Label: "A deviated blast in the thrower's zone", Default: ThrowerCaught,
		Help: "A missed grenade or blast that deviates into the thrower's own zone catches the thrower like anyone it covers (with the usual Agility roll to get out), or always spares the thrower.",
		Choices: []engine.Choice{
			{Value: ThrowerCaught, Label: "Catches the thrower too"},
			{Value: ThrowerSpared, Label: "Spares the thrower"},
		},
	},
	{
		Name: OptNPCDive, Label: "GM fighters diving out of areas", Default: DiveAuto,
		Help: "Players are always asked. The GM's fighters roll at once, or the GM is asked each time.",
		Choices: []engine.Choice{
			{Value: DiveAuto, Label: "Roll at once"},
			{Value: DiveAsk, Label: "Ask the GM"},
		},
	},
	{
		Name: OptGMBennyLimit, Label: "Players' Critical Successes", Default: LimitRaise,
		Help: "The GM may not spend Bennies against a player's Critical Success: an NPC may not Soak damage from a player's attack that scored this.",
		Choices: []engine.Choice{
			{Value: LimitRaise, Label: "An attack with a raise"},
			{Value: LimitTwoRaises, Label: "An attack with two raises"},
		},
	},
	{
		Name: OptPushFreeAttacks, Label: "Pushed out of a melee", Default: PushNone,
		Help: "Whether a fighter pushed out of a melee suffers free attacks as if withdrawing.",
		Choices: []engine.Choice{
			{Value: PushNone, Label: "No free attacks"},
			{Value: PushWithdraw, Label: "Free attacks as when withdrawing"},
		},
	},
	{
		Name: OptSoakOffers, Label: "Soak prompts", Default: OffersAll,
		Help: "Who is asked to Soak wounds with a Benny: every fighter with a Benny to spend (the GM answers for NPCs), players only, or nobody.",
		Choices: []engine.Choice{
			{Value: OffersAll, Label: "Players and the GM"},
			{Value: OffersPCs, Label: "Players only"},
			{Value: OffersOff, Label: "Nobody"},
		},
	},
	{
		Name: OptRerollOffers, Label: "Reroll prompts", Default: OffersPCs,
		Help: "Who is asked to reroll a failed action roll with a Benny (never a Critical Failure).",
		Choices: []engine.Choice{
			{Value: OffersPCs, Label: "Players only"},
			{Value: OffersAll, Label: "Players and the GM"},
			{Value: OffersOff, Label: "Nobody"},
		},
	},
	{
		Name: OptExtrasBennies, Label: "GM Bennies for Extras", Default: No,
		Help:    "Whether the GM's Bennies may be spent on Extras (to Soak or recover from Shaken).",
		Choices: []engine.Choice{{Value: No, Label: "No"}, {Value: Yes, Label: "Yes"}},
	},
	{
		Name: OptGMBennies, Label: "GM's Bennies", Default: GMBenniesPerPC,
		Help:    "The GM's pool, spent for NPCs once their own Bennies are gone: one per player character, or a number.",
		Choices: gmBennyChoices(),
	},
	{
		Name: OptBleedingOut, Label: "Bleeding Out", Default: BleedSuccess,
		Help: "A Bleeding Out fighter rolls Vigor at the start of every round: failure dies; success stabilises, or only a raise does (a plain success rolls again next round).",
		Choices: []engine.Choice{
			{Value: BleedSuccess, Label: "A success stabilises"},
			{Value: BleedRaise, Label: "A raise stabilises"},
		},
	},
	{
		Name: OptInterruptWindows, Label: "Interrupting movement", Default: On,
		Help:    "Each Movement step (crossing a border, engaging, disengaging) asks every opponent on Hold whether to interrupt it. Off: holders interrupt only between commands.",
		Choices: []engine.Choice{{Value: On, Label: "Ask holders at each step"}, {Value: Off, Label: "Off"}},
	},
	{
		Name: OptInterruptContest, Label: "Who goes first on an interrupt", Default: ContestAgility,
		Help: "When a fighter on Hold interrupts a move: opposed Agility rolls, the higher goes first (ties to the holder), or the holder always goes first.",
		Choices: []engine.Choice{
			{Value: ContestAgility, Label: "Opposed Agility"},
			{Value: ContestHolder, Label: "The holder"},
		},
	},
	{
		Name: OptProneShots, Label: "Shooting at prone targets", Default: ProneOtherZones,
		Help: "A prone target counts as Medium cover against shots from another zone (the base game's \"beyond 3 inches\"), or from anywhere.",
		Choices: []engine.Choice{
			{Value: ProneOtherZones, Label: "From another zone"},
			{Value: ProneAlways, Label: "From anywhere"},
		},
	},
}

func gmBennyChoices() []engine.Choice {
	out := []engine.Choice{{Value: GMBenniesPerPC, Label: "One per player character"}}
	for n := 0; n <= 10; n++ {
		out = append(out, engine.Choice{Value: strconv.Itoa(n), Label: strconv.Itoa(n)})
	}
	return out
}

// edition returns the encounter's edition.
func edition(b *engine.Base) string { return kit.Opt(b, OptEdition) }

// coverPenalty is the ranged-attack penalty of a cover level.
func coverPenalty(b *engine.Base, cover string) int {
	swd := edition(b) == EditionSWD
	switch cover {
	case "light":
		if swd {
			return -1
		}
		return -2
	case "medium":
		if swd {
			return -2
		}
		return -4
	case "heavy":
		if swd {
			return -4
		}
		return -6
	case "near-total":
		if swd {
			return -4 // SWD has no near-total cover; heavy is its largest
		}
		return -8
	}
	return 0
}

// defendBonus is the Parry bonus of the Defend action.
func defendBonus(b *engine.Base) int {
	if edition(b) == EditionSWD {
		return 2
	}
	return 4
}

// retreatDefendBonus is the Parry bonus for defending while disengaging: the
// seed's +2 in either edition.
const retreatDefendBonus = 2

// extremeRange reports whether the edition has Extreme range (up to 4× Long,
// −8).
func extremeRange(b *engine.Base) bool { return edition(b) == EditionSWADE }

// Decode reads a snapshot like the kit does, except that an encounter
// begun before scatter-thrower existed keeps the reading it began with:
// a deviated blast spares its thrower.
func (r Ruleset) Decode(snapshot []byte) (engine.State, error) {
	var head struct {
		Options map[string]string `json:"options"`
	}
	if err := json.Unmarshal(snapshot, &head); err != nil {
		return nil, err
	}
	st, err := r.Ruleset.Decode(snapshot)
	if err != nil {
		return nil, err
	}
	if _, ok := head.Options[OptScatterThrower]; !ok {
		st.Core().Options[OptScatterThrower] = ThrowerSpared
	}
	return st, nil
}
