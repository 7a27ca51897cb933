package d20duel

// A round is a chain of decisions: the sealed stances of every engaged
// set, a weapon to knock away, a retreat, the GM's "hurt or distracted",
// the maneuvers. Each is an engine.Decision whose Data is its context;
// the work still to do behind it (the next blows, who falls, the next
// pair's maneuvering, the next round) is written as engine steps run with
// Tx.Run, which the engine parks behind a question and resumes after the
// answer — so a round can be saved, reloaded and replayed at any point.

// Decision kinds of this ruleset.
const (
	DecStance   = "stance"
	DecDrop     = "drop"
	DecRetreat  = "retreat"
	DecHurt     = "hurt-or-distracted"
	DecManeuver = "maneuver"
	DecVeto     = "veto"
)

// Step kinds.
const (
	stepExchange = "exchange"  // open the round's exchange: ask the stances
	stepRoundEnd = "round-end" // after the exchange: the next round
	stepAttack   = "attack"    // one attack roll
	stepCounter  = "counter"   // a Defensive fighter's counter-attack, if the opening came
	stepFallout  = "fallout"   // who the blows took out of the fight
	stepManeuver = "maneuver"  // a pair's distance after its exchange
	stepOffer    = "offer"     // ask who maneuvers, knowing who was hurt
	stepTest     = "test"      // roll a test
	stepVeto     = "veto"      // ask the GM to allow a player's test
	stepActed    = "acted"     // a fighter's approach action is done
)

// falloutStep names the fighters the last blows may have finished.
type falloutStep struct {
	Fighters []string `json:"fighters"`
}
