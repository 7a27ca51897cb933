package swzones

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Initiative: every round each fighter still in the fight is dealt an action
// card from a 54-card deck (two Jokers). Fighters act from the highest card
// down: Jokers first (red before black), then Ace to Two, ties broken by
// suit, spades, hearts, diamonds, clubs. A fighter holding a Joker adds +2 to
// trait and damage rolls that round. The deck is shuffled before the round
// that follows one in which a Joker was dealt, and whenever it holds too few
// cards for everyone.

const (
	RedJoker   = "Red Joker"
	BlackJoker = "Black Joker"
)

var (
	ranks = []string{"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"}
	suits = []string{"♣", "♦", "♥", "♠"} // lowest to highest
)

// fullDeck is the 54 cards, lowest first. Remaining cards keep this order,
// so a dealt card is fixed by the die that picked it.
func fullDeck() []string {
	deck := make([]string, 0, 54)
	for _, r := range ranks {
		for _, s := range suits {
			deck = append(deck, r+s)
		}
	}
	return append(deck, BlackJoker, RedJoker)
}

// DeckSize is the number of cards in a full deck, the most fighters an
// encounter can deal to.
const DeckSize = 54

func isJoker(card string) bool { return card == RedJoker || card == BlackJoker }

// cardValue orders cards: higher acts first. "" (no card) is lowest.
func cardValue(card string) int {
	switch card {
	case "":
		return -1
	case RedJoker:
		return 100
	case BlackJoker:
		return 99
	}
	for i, r := range ranks {
		for j, s := range suits {
			if card == r+s {
				return i*4 + j
			}
		}
	}
	return -1
}

// Deck is the action deck between deals.
type Deck struct {
	Remaining  []string `json:"remaining"`            // undealt cards, in fullDeck order
	JokerDealt bool     `json:"jokerDealt,omitempty"` // a Joker was dealt since the last shuffle
}

// CardsDealt is the data of a cards-dealt event: one for the cards of
// every visible fighter, and one (secret) per hidden fighter.
type CardsDealt struct {
	Cards map[string]string `json:"cards"` // fighter id → card
}

// DeckShuffled is the data of a deck-shuffled event.
type DeckShuffled struct {
	Reason string `json:"reason"`
}

// dealRound opens a new round: it shuffles the deck if needed, deals a
// card to every fighter still in the fight, emits round-started with the
// turn order, then the deal. Each card is picked uniformly from the
// remaining deck with one die, recorded in the deal event. A hidden
// fighter's card goes in its own event, seen only by the GM and its player.
func dealRound(tx *Tx) error {
	st := tx.State
	round := st.Round + 1
	var fighters, holding []string
	for _, c := range st.Combatants {
		switch {
		case c.Out:
		case st.Fighters[c.ID].Hold:
			holding = append(holding, c.ID) // keeps the Hold: not dealt in
		default:
			fighters = append(fighters, c.ID)
		}
	}
	reason := ""
	switch {
	case st.Deck.JokerDealt:
		reason = "a Joker was dealt last round"
	case len(st.Deck.Remaining) < len(fighters):
		reason = "the deck ran out"
	}
	if reason != "" {
		if err := tx.Emits(KindDeckShuffled, "", "The action deck is shuffled ("+reason+").", DeckShuffled{Reason: reason}); err != nil {
			return err
		}
	}
	type dealt struct {
		id, card string
		roll     dice.Roll
	}
	remaining := slices.Clone(st.Deck.Remaining)
	deals := make([]dealt, 0, len(fighters))
	for _, id := range fighters {
		die, face := tx.Dice.Pick(len(remaining))
		card := remaining[face-1]
		remaining = slices.Delete(remaining, face-1, face)
		deals = append(deals, dealt{id, card, dice.Roll{Label: "Deal: " + card, Who: id, Dice: []dice.Die{die}, Total: face}})
	}
	// The rolls stay in dealing order, so each die can be checked against
	// the deck it was picked from; the text lists the cards in turn order.
	public := CardsDealt{Cards: map[string]string{}}
	var rolls []dice.Roll
	for _, d := range deals {
		if !st.Combatant(d.id).Hidden {
			public.Cards[d.id] = d.card
			rolls = append(rolls, d.roll)
		}
	}
	slices.SortStableFunc(deals, func(a, b dealt) int { return cmp.Compare(cardValue(b.card), cardValue(a.card)) })
	order := make([]string, len(deals))
	var texts []string
	for i, d := range deals {
		order[i] = d.id
		if !st.Combatant(d.id).Hidden {
			texts = append(texts, fmt.Sprintf("%s %s", st.Combatant(d.id).Name, d.card))
		}
	}
	// Fighters on Hold have no place in the order: they act by
	// interrupting.
	for _, id := range holding {
		if !st.Combatant(id).Hidden {
			texts = append(texts, st.Combatant(id).Name+" on Hold")
		}
	}
	if err := tx.StartRound(round, order, ""); err != nil {
		return err
	}
	if len(public.Cards) > 0 {
		text := "Action cards: " + strings.Join(texts, ", ") + "."
		dealt := make([]string, 0, len(public.Cards))
		for id := range public.Cards {
			dealt = append(dealt, id)
		}
		slices.Sort(dealt)
		if err := tx.Emit(engine.NewEvent(KindCardsDealt, "", text, public, rolls...).With(dealt...)); err != nil {
			return err
		}
	}
	for _, d := range deals {
		if !st.Combatant(d.id).Hidden {
			continue
		}
		text := fmt.Sprintf("%s is dealt %s.", st.Combatant(d.id).Name, d.card)
		if err := tx.Emits(KindCardsDealt, d.id, text, CardsDealt{Cards: map[string]string{d.id: d.card}}, d.roll); err != nil {
			return err
		}
	}
	return nil
}

func applyDeckShuffled(s *State, _ kit.None) error {
	s.Deck = Deck{Remaining: fullDeck()}
	return nil
}

// applyCardsDealt gives the cards out (round-started cleared last round's).
func applyCardsDealt(s *State, d CardsDealt) error {
	for id, card := range d.Cards {
		if f := s.Fighters[id]; f != nil {
			f.Card = card
		}
		s.Deck.Remaining = slices.DeleteFunc(s.Deck.Remaining, func(c string) bool { return c == card })
		if isJoker(card) {
			s.Deck.JokerDealt = true
		}
	}
	return nil
}
