package simulate

import (
	"fmt"
	"math"
)

// How long a fight takes at the table, estimated from its rounds: every
// combatant takes a turn each round, a player's character PlayerTurn
// (a person reads the table, decides, rolls), each of the GM's own
// characters GMTurn (the GM plays several, quickly). The figures are a
// rule of thumb for an evening's planning, said beside every estimate.
const (
	PlayerTurnSeconds = 90
	GMTurnSeconds     = 30
)

// Length is a fight's expected length: its median rounds by the engine's
// own odds, and about how many minutes that takes at the table.
type Length struct {
	Rounds  float64 `json:"rounds"`
	Minutes int     `json:"minutes"`
	// Players counts the player characters, a player each.
	Players int `json:"players"`
}

// LengthOf estimates the length of a fight of rounds rounds between
// players player characters and others characters the GM runs: rounds ×
// (players × PlayerTurnSeconds + others × GMTurnSeconds), in whole minutes
// (at least one).
func LengthOf(rounds float64, players, others int) Length {
	sec := rounds * float64(players*PlayerTurnSeconds+others*GMTurnSeconds)
	return Length{Rounds: rounds, Minutes: max(1, int(math.Round(sec/60))), Players: players}
}

// String reads "≈ 7 rounds, about 25 minutes at 2 players".
func (l Length) String() string {
	rounds := fmt.Sprintf("%g", l.Rounds)
	players := "players"
	if l.Players == 1 {
		players = "player"
	}
	return fmt.Sprintf("≈ %s rounds, about %d minutes at %d %s", rounds, l.Minutes, l.Players, players)
}

// LengthHow says how the minutes are estimated, for the page beside them.
func LengthHow() string {
	return fmt.Sprintf("Minutes are estimated as rounds × turns: %d seconds for each player character's turn, %d for each of the GM's characters'.",
		PlayerTurnSeconds, GMTurnSeconds)
}
