package swzones

import (
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

func TestStartDealsAndOrdersByCard(t *testing.T) {
	st := newState(t, skirmishSetup(nil))
	// Combatant order: brak, lyra, gob1, gob2, gob3.
	events, st := startWith(t, st, []string{"K♥", "K♠", "2♣", "A♦", RedJoker})
	if got, want := kinds(events), []string{engine.KindStarted, engine.KindRoundStarted, KindCardsDealt, engine.KindTurnStarted}; !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	// Red Joker first, then A♦, K♠ before K♥ (spades beat hearts), 2♣.
	if want := []string{"gob3", "gob2", "lyra", "brak", "gob1"}; !slices.Equal(st.Order, want) {
		t.Fatalf("order = %v, want %v", st.Order, want)
	}
	eq(t, "round", st.Round, 1)
	eq(t, "current", st.Current(), "gob3")
	eq(t, "gob3 card", st.Fighters["gob3"].Card, RedJoker)
	eq(t, "deck left", len(st.Deck.Remaining), 49)
	eq(t, "joker dealt", st.Deck.JokerDealt, true)
	deal := events[2]
	eq(t, "deal rolls", len(deal.Rolls), 5)
	// Rolls in dealing order: brak's first from 54 cards, gob3's last from 50.
	eq(t, "first deal label", deal.Rolls[0].Label, "Deal: K♥")
	eq(t, "first deal who", deal.Rolls[0].Who, "brak")
	eq(t, "first deal die", deal.Rolls[0].Dice[0].Sides, 54)
	eq(t, "last deal label", deal.Rolls[4].Label, "Deal: "+RedJoker)
	eq(t, "last deal die", deal.Rolls[4].Dice[0].Sides, 50)
	eq(t, "last deal face", deal.Rolls[4].Dice[0].Faces[0], 50) // the Red Joker is last in the remaining deck
	eq(t, "gob3 movement", st.Fighters["gob3"].MP, 2)
}

func TestCardOrderJokersAndSuits(t *testing.T) {
	cards := []string{"2♣", "2♦", "2♥", "2♠", "10♣", "J♦", "Q♥", "K♠", "A♣", BlackJoker, RedJoker}
	for i := 1; i < len(cards); i++ {
		if cardValue(cards[i]) <= cardValue(cards[i-1]) {
			t.Errorf("%s should beat %s", cards[i], cards[i-1])
		}
	}
	eq(t, "deck size", len(fullDeck()), DeckSize)
}

func TestEndTurnNextCardThenNewRound(t *testing.T) {
	st := skirmish(t, nil)
	events, st := do(t, st, gm, cmd(CmdEndTurn, "brak"))
	if got, want := kinds(events), []string{KindTurnEnded, engine.KindTurnStarted}; !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	eq(t, "current", st.Current(), "lyra")
	eq(t, "brak movement after his turn", st.Fighters["brak"].MP, 0)
	eq(t, "lyra movement", st.Fighters["lyra"].MP, 2)
	st = endTurns(t, st, "gob3")

	// gob3 is last: ending the turn deals round 2. No Joker was dealt, so no
	// shuffle; 5 cards left the deck in round 1.
	deck := st.Deck.Remaining
	eq(t, "deck before round 2", len(deck), 49)
	faces := dealFaces(deck, "2♠", "3♠", "4♠", "5♠", "6♠")
	events, st = do(t, st, gm, cmd(CmdEndTurn, "gob3"), faces...)
	if got, want := kinds(events), []string{KindTurnEnded, engine.KindRoundStarted, KindCardsDealt, engine.KindTurnStarted}; !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	eq(t, "round", st.Round, 2)
	if want := []string{"gob3", "gob2", "gob1", "lyra", "brak"}; !slices.Equal(st.Order, want) {
		t.Fatalf("order = %v, want %v", st.Order, want)
	}
	eq(t, "current", st.Current(), "gob3")
	eq(t, "deck after round 2", len(st.Deck.Remaining), 44)
	eq(t, "brak's new card", st.Fighters["brak"].Card, "2♠")
}

func TestJokerBonusAndReshuffle(t *testing.T) {
	st := newState(t, skirmishSetup(nil))
	_, st = startWith(t, st, []string{RedJoker, "K♠", "Q♠", "J♠", "10♠"})
	// Brak (Joker): Fighting d8 3, Wild Die 2 → 3 + 2 = 5 vs Parry 5: hit.
	// Damage Str d8 2 + sword d6 1 + 2 = 5 vs Toughness 5: Shaken.
	events, st := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 3, 2, 2, 1)
	a := one(t, events)
	if v, ok := modValue(a.Mods, "joker"); !ok || v != 2 {
		t.Fatalf("mods = %v, want joker +2", a.Mods)
	}
	eq(t, "attack total", a.Total, 5)
	eq(t, "result", a.Result, "hit")
	eq(t, "damage total", a.Damage.Total, 5)
	eq(t, "damage roll mod", events[0].Rolls[1].Mod, 2)
	eq(t, "gob1 shaken", st.Fighters["gob1"].Shaken, true)

	st = endTurns(t, st, "lyra")
	// gob1's turn starts with its Spirit roll (an Extra: d6 only): 2, still Shaken.
	_, st = do(t, st, gm, cmd(CmdEndTurn, "lyra"), 2)
	eq(t, "gob1 still shaken", st.Fighters["gob1"].Shaken, true)
	st = endTurns(t, st, "gob3")
	// The round had a Joker: the deck is shuffled before round 2's deal.
	eq(t, "deck before", len(st.Deck.Remaining), 49)
	faces := dealFaces(fullDeck(), "2♠", "3♠", "4♠", "5♠", "6♠")
	events, st = do(t, st, gm, cmd(CmdEndTurn, "gob3"), faces...)
	if got, want := kinds(events), []string{KindTurnEnded, KindDeckShuffled, engine.KindRoundStarted, KindCardsDealt, engine.KindTurnStarted}; !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	eq(t, "deck after", len(st.Deck.Remaining), 49)
	eq(t, "joker flag cleared", st.Deck.JokerDealt, false)
	eq(t, "brak's card", st.Fighters["brak"].Card, "2♠")
	eq(t, "brak no longer has the joker bonus", st.Fighters["brak"].Joker(), false)
}

func TestReshuffleWhenDeckRunsOut(t *testing.T) {
	st := skirmish(t, nil)
	st = endTurns(t, st, "gob3")
	st.Deck.Remaining = []string{"2♣", "3♣"} // fewer cards than fighters
	faces := dealFaces(fullDeck(), "A♠", "K♠", "Q♠", "J♠", "10♠")
	events, st := do(t, st, gm, cmd(CmdEndTurn, "gob3"), faces...)
	var d DeckShuffled
	if e := find(events, KindDeckShuffled); len(e) != 1 || e[0].Decode(&d) != nil || d.Reason != "the deck ran out" {
		t.Fatalf("want one shuffle because the deck ran out, got %v", kinds(events))
	}
	eq(t, "deck", len(st.Deck.Remaining), 49)
}

func TestEncounterEndsWhenOneSideRemains(t *testing.T) {
	setup := newSetup(nil, chain(2, nil, []string{"z1", "brak", "gob1"}),
		spec{ID: "brak", Side: "heroes", Zone: "z1", WC: true, Attr: map[string]string{"strength": "d8"}, Skills: map[string]string{"fighting": "d8"}},
		spec{ID: "gob1", Side: "goblins", Zone: "z1"},
	)
	_, st := startWith(t, newState(t, setup), []string{"A♠", "K♠"})
	// Fighting 8+2 = 10, Wild 1 vs Parry 5: raise. Damage 5 + 4 + raise d6 2 = 11 vs 5: a wound, out.
	events, st := do(t, st, gm, cmd(CmdFight, "brak", "target", "gob1", "weapon", "sword"), 8, 2, 1, 5, 4, 2)
	if got, want := kinds(events), []string{KindAttack, engine.KindCombatantOut, engine.KindEnded}; !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	eq(t, "status", st.Status, engine.StatusFinished)
	eq(t, "winner", st.Outcome.Winner, "heroes")
	if !strings.Contains(st.Outcome.Summary, "Gob1") {
		t.Errorf("summary %q should name the fallen", st.Outcome.Summary)
	}
	eq(t, "melee dissolved", len(st.Melees), 0)
	eq(t, "brak unengaged", st.Fighters["brak"].Melee, "")
	fail(t, st, gm, cmd(CmdEndTurn, "brak"), "illegal")
}

func TestTurnAdvancesWhenActorIsTakenOut(t *testing.T) {
	st := skirmish(t, nil)
	st.Fighters["brak"].Wounds = 3
	// Brak disengages. gob1: Fighting d6 6+6+1 = 13 +1 gang-up = 14 vs Parry 6: 2 raises.
	// Damage Str d6 5 + sword d6 4 + d6 3 = 12 vs Toughness 6: a wound, brak's fourth.
	// Vigor d8 3, Wild 2, −3 wounds = 0: bleeding out. gob2 never attacks.
	events, st := do(t, st, gm, cmd(CmdDisengage, "brak"), 6, 6, 1, 5, 4, 3, 3, 2)
	if got, want := kinds(events), []string{KindAttack, KindIncapacitation, engine.KindCombatantOut, engine.KindTurnStarted}; !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	eq(t, "brak status", st.Fighters["brak"].Status, "bleeding out")
	eq(t, "next turn", st.Current(), "lyra")
	eq(t, "the melee broke up: gob1 unengaged", st.Fighters["gob1"].Melee, "")
}
