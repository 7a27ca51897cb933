package d20tactical

import (
	"fmt"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Attacks of opportunity (d20 base) and the melee fumble's free attacks
// (seed "Fumbles"). An opponent threatens the squares within the reach of
// a melee weapon it holds (an unarmed strike threatens nothing), if it is
// up and not flat-footed. Leaving a threatened square (but by a 5-ft step),
// standing up from prone, shooting, reloading, clearing a jam or picking
// something up there provokes one attack of opportunity from each such
// opponent — at most one per opponent per round (the engine's reaction
// ledger, Trigger Per "round"). A melee fumble gives every opponent in
// reach one immediate attack at its best bonus, flat-footed or not (the
// seed gives it to "all opponents within range"). Players are asked whether
// to take them; the GM's fighters take them at once (reaction-prompts).

// Reaction kinds.
const (
	reactAoO    = "aoo"
	reactFumble = "fumble"
)

// trigger is the ledger entry of r's reaction of kind to p: an attack of
// opportunity once a round; a fumble's attack once a turn for each
// fumbler — or, with fumble-chains "again", for each fumble (fumble names
// it).
func trigger(kind, r, p, fumble string) engine.Trigger {
	if kind == reactAoO {
		return engine.Trigger{Reactor: r, Kind: reactAoO, Per: engine.PerRound}
	}
	if fumble != "" {
		p += "/" + fumble
	}
	return engine.Trigger{Reactor: r, Kind: kind, Source: p, Per: engine.PerTurn}
}

// bestMelee is the melee weapon r threatens with: the one with the best
// bonus (nil when r holds none).
func bestMelee(r *Fighter) *Weapon {
	if r.Dropped {
		return nil
	}
	var best *Weapon
	for _, w := range r.Weapons {
		if !w.Ranged() && !w.Ruined && (best == nil || w.Attack > best.Attack) {
			best = w
		}
	}
	return best
}

// threatens reports whether r threatens square c.
func threatens(st *State, r *Fighter, c Cell) bool {
	return !r.FlatFooted && inReach(st, r, c)
}

// inReach reports whether square c is within the reach of r's best melee
// weapon, r up, and r could strike into it: no wall (a wall square, or a
// wall or closed door between squares) on the line. A melee fumble's free attack needs only this (seed
// "Fumbles": "all opponents within range of the fumbling attacker"): a
// flat-footed opponent, who could take no attack of opportunity, still
// gets it.
func inReach(st *State, r *Fighter, c Cell) bool {
	if !st.able(r.ID) {
		return false
	}
	w := bestMelee(r)
	return w != nil && distance(&st.Base, cell(r), c) <= w.ReachFeet() && st.sight(cell(r), c)
}

// canReactAt reports whether r could react to something of kind at c.
func canReactAt(st *State, r *Fighter, c Cell, kind string) bool {
	if kind == reactFumble {
		return inReach(st, r, c)
	}
	return threatens(st, r, c)
}

// threatMap are the squares f's opponents threaten (as threatens: within
// reach and not behind a wall).
func threatMap(st *State, f *Fighter) map[Cell]bool {
	out := map[Cell]bool{}
	for _, c := range st.Combatants {
		r := st.Fighters[c.ID]
		if !st.opponents(c.ID, f.ID) || !st.able(c.ID) || r.FlatFooted {
			continue
		}
		w := bestMelee(r)
		if w == nil {
			continue
		}
		reach := w.ReachFeet() / Square
		for x := r.X - reach; x <= r.X+reach; x++ {
			for y := r.Y - reach; y <= r.Y+reach; y++ {
				if distance(&st.Base, cell(r), Cell{x, y}) <= w.ReachFeet() && st.sight(cell(r), Cell{x, y}) {
					out[Cell{x, y}] = true
				}
			}
		}
	}
	return out
}

// reactors are the opponents who may react to p at square at (to its
// fumble named fumble, with fumble-chains "again").
func reactors(st *State, p *Fighter, at Cell, kind, fumble string) []string {
	var out []string
	for _, c := range st.Combatants {
		r := st.Fighters[c.ID]
		if !st.opponents(c.ID, p.ID) || !canReactAt(st, r, at, kind) || !st.CanReact(trigger(kind, c.ID, p.ID, fumble)) {
			continue
		}
		if st.Combatant(p.ID).Hidden && !c.Hidden {
			continue // no one reacts to what they cannot see
		}
		out = append(out, c.ID)
	}
	return out
}

// reactionsThreaten reports whether any opponent would get an attack of
// opportunity on f where it stands.
func reactionsThreaten(st *State, f *Fighter) bool {
	return len(reactors(st, f, cell(f), reactAoO, "")) > 0
}

// reactionSteps are the reactions provoked by p at square at, one step
// each.
func reactionSteps(st *State, p *Fighter, at Cell, kind string) []engine.Step {
	return fumbleSteps(st, p, at, kind, "")
}

// fumbleSteps are reactionSteps to p's fumble named fumble ("" but with
// fumble-chains "again").
func fumbleSteps(st *State, p *Fighter, at Cell, kind, fumble string) []engine.Step {
	var out []engine.Step
	for _, id := range reactors(st, p, at, kind, fumble) {
		out = append(out, engine.NewStep(stepReact, react{Reactor: id, Provoker: p.ID, Kind: kind, At: at, Fumble: fumble}))
	}
	return out
}

// react is one reaction, offered or taken when its step runs.
type react struct {
	Reactor  string `json:"reactor"`
	Provoker string `json:"provoker"`
	Kind     string `json:"kind"`
	At       Cell   `json:"at"`
	Fumble   string `json:"fumble,omitempty"`
}

func runReact(tx *Tx, r react) error {
	st := tx.State
	rf, pf := st.Fighters[r.Reactor], st.Fighters[r.Provoker]
	if !st.able(r.Provoker) || cell(pf) != r.At || !canReactAt(st, rf, r.At, r.Kind) {
		return nil
	}
	t := trigger(r.Kind, r.Reactor, r.Provoker, r.Fumble)
	if !st.CanReact(t) {
		return nil
	}
	w := bestMelee(rf)
	spec := attackSpec{Attacker: r.Reactor, Target: r.Provoker, Weapon: w.ID, Free: r.Kind, Uses: &t}
	if !promptReaction(st, r.Reactor) {
		return tx.Run(engine.NewStep(stepAttack, spec))
	}
	why := "leaves your reach or drops its guard"
	if r.Kind == reactFumble {
		why = "fumbles"
	}
	prompt := fmt.Sprintf("%s %s: attack of opportunity by %s with %s?", st.PublicNameOf(r.Provoker), why, st.PublicNameOf(r.Reactor), w.Name)
	if r.Kind == reactFumble {
		prompt = fmt.Sprintf("%s fumbles: a free attack by %s with %s?", st.PublicNameOf(r.Provoker), st.PublicNameOf(r.Reactor), w.Name)
	}
	_, err := tx.Offer(t, engine.Decision{For: r.Reactor, Kind: DecReaction, Prompt: prompt,
		Options: yesNo("attack", "Attack", "pass", "Let it go"), Default: "attack",
		Data: mustJSON(Cont{Reaction: &spec})})
	return err
}

// promptReaction reports whether r's controller is asked before r reacts.
func promptReaction(st *State, r string) bool {
	switch kit.Opt(&st.Base, OptReactionPrompts) {
	case PromptAll:
		return true
	case PromptAuto:
		return false
	}
	c := st.Combatant(r)
	return c.PC && !c.Hidden
}
