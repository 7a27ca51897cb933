package engine

import (
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
)

// View is what one viewer may see of an encounter: the server-side
// projection sent to that viewer's browser. Nothing outside it reaches them.
type View struct {
	ID         string      `json:"id"`
	Name       string      `json:"name"`
	Ruleset    string      `json:"ruleset"`
	Status     Status      `json:"status"`
	Round      int         `json:"round"`
	Seq        int64       `json:"seq"`
	Viewer     Viewer      `json:"viewer"`
	Sides      []Side      `json:"sides"`
	Combatants []Combatant `json:"combatants"`
	Order      []string    `json:"order"`
	// Current has the floor; Acting is everyone who may act now (more
	// than one in a simultaneous exchange or a side's phase, named Phase).
	Current string   `json:"current,omitempty"`
	Acting  []string `json:"acting,omitempty"`
	Phase   string   `json:"phase,omitempty"`
	// Interrupted is who had the floor before an interruption.
	Interrupted []string `json:"interrupted,omitempty"`
	// Pending are the decisions this viewer may answer now (for the GM,
	// those in Awaiting too, with override only).
	Pending []Decision `json:"pending,omitempty"`
	// Committed are this viewer's sealed answers not yet revealed.
	Committed []Committed `json:"committed,omitempty"`
	// Waiting names every party the encounter waits on other than this
	// viewer (a combatant's name, or "the GM"; for the GM, a player's
	// decision as "Sam (its prompt)").
	Waiting []string `json:"waiting,omitempty"`
	// Awaiting, for the GM only, are the decisions waiting on players,
	// which the GM may take over only deliberately (owner.go).
	Awaiting []Awaiting `json:"awaiting,omitempty"`
	// Attention is what waits on this viewer now: their turn, their
	// decisions; nil when nothing does.
	Attention *Attention `json:"attention,omitempty"`
	Outcome   *Outcome   `json:"outcome,omitempty"`
	// Board is the battlefield as the viewer sees it (rulesets that are
	// Boarders): the ruleset's one projection, tokens, stats and sheets
	// included.
	Board   *board.Board `json:"board,omitempty"`
	Actions []Action     `json:"actions"`
	// The stage as the viewer sees it: the scene image behind the board,
	// the handouts shown to them (the GM: all, with the prepared scenes
	// and the notes, which no player ever gets).
	Scene string `json:"scene,omitempty"`
	// SceneFit lays the scene over the board as a map (nil: it fills it).
	SceneFit *SceneFit `json:"sceneFit,omitempty"`
	Handouts []Handout `json:"handouts,omitempty"`
	Scenes   []Scene   `json:"scenes,omitempty"`
	Notes    []Note    `json:"notes,omitempty"`
}

// Committed is a sealed answer its author sees while the others decide:
// the commitment, when it was committed to (the choice then stays with
// the author's page until revealed), the choice once the server knows it.
// Reveal asks the author's page to reveal it now (unseal): every party of
// its group has answered.
type Committed struct {
	Decision   string `json:"decision"`
	For        string `json:"for"`
	Prompt     string `json:"prompt"`
	Commitment string `json:"commitment,omitempty"`
	Choice     string `json:"choice,omitempty"`
	Label      string `json:"label,omitempty"`
	Reveal     bool   `json:"reveal,omitempty"`
}

// Visible reports whether v may see combatant id at all.
func Visible(st State, v Viewer, id string) bool {
	c := st.Core().Combatant(id)
	return c != nil && (v.GM || !c.Hidden || v.CanCommand(id))
}

func visibleIDs(st State, v Viewer, ids []string) []string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if Visible(st, v, id) {
			out = append(out, id)
		}
	}
	return out
}

// Project builds v's view of st.
func Project(rs Ruleset, st State, v Viewer) View {
	b := st.Core()
	view := View{
		ID: b.ID, Name: b.Name, Ruleset: b.Ruleset, Status: b.Status, Round: b.Round, Seq: b.Seq,
		Viewer: v, Sides: b.Sides, Outcome: b.Outcome, Order: visibleIDs(st, v, b.Order), Actions: []Action{},
	}
	// One array of the right size; still nil when none is visible.
	combatants := make([]Combatant, 0, len(b.Combatants))
	for _, c := range b.Combatants {
		if Visible(st, v, c.ID) {
			combatants = append(combatants, c)
		}
	}
	if len(combatants) > 0 {
		view.Combatants = combatants
	}
	if b.Status == StatusRunning {
		if acting := visibleIDs(st, v, b.Acting); len(acting) > 0 {
			view.Acting = acting
			view.Current = acting[0]
		}
		view.Phase = b.Label
		if n := len(b.Interrupts); n > 0 {
			view.Interrupted = visibleIDs(st, v, b.Interrupts[n-1].Acting)
		}
	}
	for _, d := range b.Pending {
		if player := v.playerOf(d); player != "" && !d.Answered {
			// Still among the GM's pending (an answer with override takes
			// it), but listed apart as the player's.
			view.Awaiting = append(view.Awaiting, Awaiting{Player: player, Decision: d})
			if who := player + " (" + d.Prompt + ")"; !slices.Contains(view.Waiting, who) {
				view.Waiting = append(view.Waiting, who)
			}
		}
		switch {
		case b.mayAnswer(v, d) && !d.Answered:
			if !v.GM {
				d.Data = nil
			}
			view.Pending = append(view.Pending, d)
		case b.mayAnswer(v, d):
			if s := b.sealedOf(d.ID); s != nil {
				c := Committed{Decision: d.ID, For: d.For, Prompt: d.Prompt, Commitment: s.Commitment, Reveal: b.awaitsReveal(d)}
				if s.Opened {
					c.Choice, c.Label = s.Choice, d.Label(s.Choice)
				}
				view.Committed = append(view.Committed, c)
			}
		case b.awaitsReveal(d):
			who := b.answererName(d)
			if !slices.Contains(view.Waiting, who) {
				view.Waiting = append(view.Waiting, who)
			}
		case !d.Answered:
			who := b.answererName(d)
			if !slices.Contains(view.Waiting, who) {
				view.Waiting = append(view.Waiting, who)
			}
		}
	}
	if bd, ok := rs.(Boarder); ok {
		if view.Board = bd.Board(st, v); view.Board != nil {
			view.Board.Finish()
			for i := range view.Board.Tokens {
				if c := b.Combatant(view.Board.Tokens[i].ID); c != nil {
					view.Board.Tokens[i].Portrait = c.Portrait
				}
			}
		}
	}
	projectStage(b, v, &view)
	projectWalls(b, &view)
	// The GM's, the stage's and the ruleset's actions, in one array.
	var gm, stage, ruleset []Action
	if v.GM {
		gm, stage = gmActions(b, v), append(stageActions(b, view.Board), doorActions(b)...)
	}
	if b.Status == StatusRunning {
		ruleset = rulesetActions(rs, st, v)
	}
	if n := len(gm) + len(stage) + len(ruleset); n > 0 {
		view.Actions = slices.Concat(gm, stage, ruleset)
	}
	view.Attention = attention(st, v, &view)
	newVeil(b, v, b.HiddenIDs()).veilView(&view)
	return view
}

// waitingText names who the encounter waits on, as v may read it.
func waitingText(st State, v Viewer) string {
	var who []string
	for _, d := range st.Core().Pending {
		if d.Answered && !st.Core().awaitsReveal(d) {
			continue
		}
		name := st.Core().answererName(d)
		if !slices.Contains(who, name) {
			who = append(who, name)
		}
	}
	return strings.Join(who, ", ")
}

func gmActions(b *Base, v Viewer) []Action {
	var out []Action
	switch b.Status {
	case StatusSetup:
		out = append(out, Action{Kind: KindStart, Label: "Start encounter", Main: true})
	case StatusRunning:
		out = append(out, Action{Kind: KindPause, Label: "Pause"})
	case StatusPaused:
		out = append(out, Action{Kind: KindResume, Label: "Resume", Main: true})
	}
	if b.Status == StatusRunning && slices.ContainsFunc(b.Pending, func(d Decision) bool { return !d.Answered && d.Default != "" && v.playerOf(d) == "" }) {
		out = append(out, Action{Kind: KindAcceptDefaults, Label: "Accept defaults",
			Help: "Answers every pending question that has a default with it, but the players' own."})
	}
	if b.Status == StatusRunning && slices.ContainsFunc(b.Pending, b.awaitsReveal) {
		out = append(out, Action{Kind: KindRevealTimeout, Label: "Reveal timeout: apply defaults",
			Help: "Everyone has answered in secret, but some have not revealed their answers: theirs get the question's default."})
	}
	if b.Status == StatusRunning || b.Status == StatusPaused {
		out = append(out, Action{Kind: KindRewind, Label: "Undo last action", Danger: true,
			Help: "Rewinds the encounter to just before the last action; the log keeps both."})
	}
	if b.Status == StatusFinished {
		return append(out, Action{Kind: KindRewind, Label: "Reopen (undo the last action)", Danger: true,
			Help: "Undoes the action that ended the encounter, so play goes on; the log keeps both."})
	}
	var hidden []Choice
	for _, c := range b.Combatants {
		if c.Hidden {
			hidden = append(hidden, Choice{Value: c.ID, Label: c.Name})
		}
	}
	if len(hidden) > 0 {
		out = append(out, Action{Kind: KindReveal, Label: "Reveal", Fields: []Field{
			{Name: "combatant", Label: "Combatant", Type: FieldSelect, Options: hidden},
		}})
	}
	sides := []Choice{{Value: "", Label: "No winner"}}
	for _, s := range b.Sides {
		sides = append(sides, Choice{Value: s.ID, Label: s.Name})
	}
	out = append(out, Action{Kind: KindEnd, Label: "End encounter", Danger: true, Fields: []Field{
		{Name: "winner", Label: "Winner", Type: FieldSelect, Options: sides},
	}})
	return out
}

// NextTurn returns the index in b.Order after b.Turn of the next combatant
// still in the fight (down ones included: they still take turns) whom skip
// (nil: none) does not pass over — one on Hold, one down where the down
// take no turns — or -1 when the round is over.
func NextTurn(b *Base, skip func(id string) bool) int {
	for i := b.Turn + 1; i < len(b.Order); i++ {
		if c := b.Combatant(b.Order[i]); c != nil && !c.Out && (skip == nil || !skip(c.ID)) {
			return i
		}
	}
	return -1
}
