package d20under

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
)

// Alchemical weapons (seed: Alternate Rules; spec c16). An ability gate
// decides whether a character may use one at all, and whether without
// risk:
//   - fire tube (portable): anyone, without risk with Siege Expert (adept);
//   - fire tube (stationary): only with Siege Expert (adept);
//   - grenade: anyone, without risk with Alchemy, Siege Expert or
//     Pyrotechnics;
//   - mine: only with Trapper or Pyrotechnics (a trap, traps.go);
//   - breaching pot: anyone, without risk with Siege Expert or
//     Pyrotechnics.
//
// A risky use that misses is an alchemical mishap: the GM says whether it
// fizzles or backfires on the user.

// Gates.
const (
	gateSafe      = "safe"
	gateRisky     = "risky"
	gateForbidden = "forbidden"
)

// alchemyGate is how a character may use a weapon of type typ.
func alchemyGate(s *Sheet, typ string) string {
	siege := s.Level(AbSiegeExpert)
	pyro := s.Level(AbPyrotechnics) > 0
	switch typ {
	case "fire-tube":
		if siege >= 2 {
			return gateSafe
		}
		return gateRisky
	case "fire-tube-stationary":
		if siege >= 2 {
			return gateSafe
		}
		return gateForbidden
	case "grenade":
		if s.Level(AbAlchemy) > 0 || siege > 0 || pyro {
			return gateSafe
		}
		return gateRisky
	case "breaching-pot":
		if siege > 0 || pyro {
			return gateSafe
		}
		return gateRisky
	}
	return gateSafe
}

// gateNeeds says what an alchemical weapon needs to be used at all.
func gateNeeds(typ string) string {
	if typ == "fire-tube-stationary" {
		return "Siege Expert (adept)"
	}
	return "training"
}

type mishapCtx struct {
	User   string `json:"user"`
	Weapon string `json:"weapon"`
}

// askMishap asks the GM what a risky alchemical weapon does on a miss.
func askMishap(tx *Tx, user string, w Weapon) error {
	st := tx.State
	return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecMishap,
		Prompt:  fmt.Sprintf("%s used %s without the training and missed. What happens?", st.NameOf(user), w.Name),
		Options: []engine.Choice{{Value: "fizzle", Label: "It fizzles"}, {Value: "backfire", Label: "It backfires on the user"}}, Default: "fizzle"},
		Cont{Mishap: &mishapCtx{User: user, Weapon: w.ID}})
}

func answerMishap(tx *Tx, c mishapCtx, ans engine.Answered) error {
	st := tx.State
	f := st.Fighters[c.User]
	if ans.Choice != "backfire" || f == nil || st.Combatant(c.User).Out {
		return note(tx, KindMishap, c.User, "The alchemical weapon fizzles harmlessly.", Note{Fighter: c.User, What: "fizzle"})
	}
	w, _ := f.Sheet.Weapon(c.Weapon)
	if err := note(tx, KindMishap, c.User, fmt.Sprintf("%s backfires on %s!", w.Name, st.NameOf(c.User)), Note{Fighter: c.User, What: "backfire"}); err != nil {
		return err
	}
	return strikeHome(tx, blow{To: c.User, Source: w.Name, Die: w.Die, Bonus: w.Bonus, Rolled: true})
}
