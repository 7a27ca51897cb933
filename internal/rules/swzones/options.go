package swzones

import "github.com/fray-vtt/fray/internal/engine"

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
)

var optionSpecs = []engine.OptionSpec{
	{
		Name: OptEdition, Label: "Edition", Default: EditionSWADE,
		Help: "Base values that differ between editions: cover −2/−4/−6/−8 (SWADE) or −1/−2/−4 (SWD); Defend +4 or +2 Parry; Extreme range (SWADE only).",
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
}

// edition returns the encounter's edition.
func edition(b *engine.Base) string { return b.Option(OptEdition, EditionSWADE) }

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
