// Package d6bands is the "d6-bands" ruleset: combat in an Eon-style game
// of open-ended d6 roll-under checks on a map of 30 m range bands, after
// the house rules of seed 001 and the base game the spec reconstructs.
//
// Files follow the seed: the check in check.go, the stat block in
// stats.go, range bands, squares, line of sight and cover in bands.go,
// ordinary movement, dashing and impassable terrain in movement.go,
// stealth in stealth.go, ranged attacks and aiming in shooting.go, stray
// shots in stray.go, area fire and Terror in area.go, quick loading in
// loading.go, melee and the Defense Pool in melee.go, Extreme range in
// extreme.go, damage, wounds, bleeding and first aid in harm.go, rounds,
// initiative and turns in turn.go, GM commands in gm.go, pending decisions
// and steps in flow.go, and every interpretation as an option in
// options.go. What players may do now is in actions.go, what each viewer
// sees in board.go (the map for the page and the prep
// editor), the stat editor in schema.go, what outlives a fight in
// carry.go, and how events change the state in apply.go. The GM's guide is
// docs/rules/d6-bands.md.
package d6bands

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// ID is the ruleset's registry id.
const ID = "d6-bands"

// Ruleset is the d6-bands ruleset: the kit's, with the stat schema and
// carry-over.
type Ruleset struct {
	*kit.Ruleset[*State, *Fighter]
}

// Tx is a command being decided under d6-bands.
type Tx = kit.Tx[*State, *Fighter]

// New returns the d6-bands ruleset.
func New() engine.Ruleset { return ruleset }

var ruleset = Ruleset{kit.New(kit.Rules[*State, *Fighter]{
	ID: ID, Title: "Open-ended d6 — range bands", Options: optionSpecs,
	New: newEncounter, Start: newRound, Settle: settle, CanAct: canAct,
	Board: project, Editor: editor, Actions: actions, Pass: kit.PassWith[*State, *Fighter](CmdEndTurn),
	// The combatants' commands, and the GM's (terrain, placement,
	// rulings), which name no actor.
	Commands: []kit.Command[*State, *Fighter]{
		{Kind: CmdMove, Decide: decideMove},
		{Kind: CmdDash, Decide: decideDash},
		{Kind: CmdStand, Decide: decideStand},
		{Kind: CmdStealth, Decide: decideStealth},
		{Kind: CmdSlipAway, Decide: decideSlipAway},
		{Kind: CmdAim, Decide: decideAim},
		{Kind: CmdShoot, Decide: decideShoot},
		{Kind: CmdAreaFire, Decide: decideAreaFire},
		{Kind: CmdStrike, Decide: decideStrike},
		{Kind: CmdReload, Decide: decideReload},
		{Kind: CmdFirstAid, Decide: decideFirstAid},
		{Kind: CmdDuel, Decide: decideDuel},
		{Kind: CmdEndTurn, Decide: kit.EndTurn(KindTurnEnded, advance)},
		{Kind: CmdSetCell, GM: true, Decide: decideSetCell},
		{Kind: CmdPlace, GM: true, Decide: decidePlace},
		{Kind: CmdAdjust, GM: true, Decide: decideAdjust},
	},
	Steps: []kit.StepSpec[*State, *Fighter]{
		kit.OnStep(stepDefense, func(tx *Tx, _ kit.None) error { return askDefense(tx) }),
		kit.OnStep(stepAttack, func(tx *Tx, _ kit.None) error { return rollAttack(tx) }),
	},
	// An Extreme range duel's two skills come together; the rest alone,
	// each with its Cont.
	Prompts: prompts,
	Decisions: []kit.DecisionSpec[*State, *Fighter]{
		kit.OnAnswers(DecDuel, answerDuel),
		kit.OnAnswer(DecDefense, answerDefense),
		kit.OnAnswer(DecStray, answerStray),
	},
	Events: events,
})}

// Map bounds.
const (
	MaxWidth  = 12
	MaxHeight = 12
)

// State is a d6-bands encounter.
type State struct {
	engine.Base
	Width    int                 `json:"width"`
	Height   int                 `json:"height"`
	Cells    []Cell              `json:"cells,omitempty"` // the squares that are not open ground
	Fighters map[string]*Fighter `json:"fighters"`
	// Attack is the attack being resolved, while it waits on the
	// defender's Defense Pool.
	Attack *Attack `json:"attack,omitempty"`
}

// Fighter is one combatant: its sheet, where it stands, its turn's ledger,
// its wounds and what it knows.
type Fighter struct {
	ID string `json:"id"`
	Sheet
	// Position: a square, a contact group in it, or off the map.
	X       int    `json:"x"`
	Y       int    `json:"y"`
	Group   string `json:"group,omitempty"`
	Off     bool   `json:"off,omitempty"`
	Prone   bool   `json:"prone,omitempty"`
	Mounted bool   `json:"mounted,omitempty"`
	// The ledger: actions left this turn, move actions taken this turn (a
	// second one costs the cover), a dash (no cover, no Defense Pool until
	// the next turn), the Stealth check made this turn, the Defense Pool
	// left this round, actions a Terror check took from the next turn.
	Actions     int  `json:"actions"`
	Moves       int  `json:"moves,omitempty"`
	Dashed      bool `json:"dashed,omitempty"`
	Stealthed   bool `json:"stealthed,omitempty"`
	Pool        int  `json:"pool"`
	LostActions int  `json:"lostActions,omitempty"`
	Aim         *Aim `json:"aim,omitempty"`
	Init        int  `json:"init,omitempty"` // this round's initiative
	// Harm.
	Wounds    []Wound `json:"wounds,omitempty"`
	BloodLoss int     `json:"bloodLoss,omitempty"`
	Status    string  `json:"status,omitempty"` // "unconscious", "dead", "slipped away"
	// Unseen counts, for each opponent, the Stealth checks in a row this
	// combatant won against it: 1 hidden from it, 2 or more it is unaware.
	Unseen map[string]int `json:"unseen,omitempty"`
	// Loads are the weapons that need reloading, by weapon id.
	Loads map[string]*Load `json:"loads,omitempty"`
	// Adjust is the GM's one-off modifier to the next check.
	Adjust *Adjust `json:"adjust,omitempty"`

	shown engine.Memo[card] // the sheet's card, once shown (see sheetSections)
}

// Aim is a combatant aiming at a target: Rounds counts the rounds in a
// row with an aim action, the last in Round.
type Aim struct {
	Target string `json:"target"`
	Rounds int    `json:"rounds"`
	Round  int    `json:"round"`
}

// Load is a weapon's loading: Need actions still to spend on a reload
// under way (0: none), jammed by a Reliability failure, or broken.
type Load struct {
	Loaded bool `json:"loaded"`
	Need   int  `json:"need,omitempty"`
	Jammed bool `json:"jammed,omitempty"`
	Broken bool `json:"broken,omitempty"`
}

// Adjust is a GM ruling on a combatant's next check: ±D and ±TN.
type Adjust struct {
	Dice   int    `json:"dice,omitempty"`
	TN     int    `json:"tn,omitempty"`
	Reason string `json:"reason"`
}

// Fighter implements kit.State.
func (s *State) Fighter(id string) *Fighter { return s.Fighters[id] }

// Commands of this ruleset.
const (
	CmdMove     = "move"
	CmdDash     = "dash"
	CmdStand    = "stand"
	CmdStealth  = "stealth"
	CmdSlipAway = "slip-away"
	CmdAim      = "aim"
	CmdShoot    = "shoot"
	CmdAreaFire = "area-fire"
	CmdStrike   = "strike"
	CmdReload   = "reload"
	CmdFirstAid = "first-aid"
	CmdDuel     = "extreme-duel"
	CmdEndTurn  = "end-turn"
	CmdSetCell  = "set-cell"
	CmdPlace    = "place"
	CmdAdjust   = "adjust"
)

// newEncounter reads the map, each combatant's sheet and starting square,
// contact groups and who starts off the map.
func newEncounter(setup engine.Setup, base engine.Base) (*State, error) {
	st := &State{Base: base, Fighters: map[string]*Fighter{}}
	if err := st.readBattlefield(setup.Battlefield); err != nil {
		return nil, err
	}
	groups := map[string]point{}
	for _, c := range setup.Combatants {
		sheet, err := ParseSheet(c.Stats)
		if err != nil {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q: %v", c.ID, err)
		}
		f := &Fighter{ID: c.ID, Sheet: sheet, Mounted: sheet.Mount != nil, Pool: sheet.Defense,
			Wounds: carriedWounds(&base, sheet.Condition), BloodLoss: sheet.Condition.BloodLoss}
		if err := fitToFight(&base, c, f); err != nil {
			return nil, err
		}
		for _, w := range sheet.Weapons {
			if w.Reload > 0 {
				if f.Loads == nil {
					f.Loads = map[string]*Load{}
				}
				f.Loads[w.ID] = &Load{Loaded: true}
			}
		}
		start, err := board.ReadStart(c.Start)
		if err != nil {
			return nil, fray.Errorf(fray.EINVALID, "combatant %q: %v", c.ID, err)
		}
		for name := range start.Props {
			if name != "off" && name != "prone" {
				return nil, fray.Errorf(fray.EINVALID, "combatant %q: start has no property %q (off, prone)", c.ID, name)
			}
		}
		f.Off, f.Prone = propBool(start.Props, "off"), propBool(start.Props, "prone")
		switch {
		case start.Zone != "":
			return nil, fray.Errorf(fray.EINVALID, "combatant %q: the battlefield is a grid of squares: start at x and y", c.ID)
		case f.Off && (start.X != nil || start.Y != nil || start.Group != ""):
			return nil, fray.Errorf(fray.EINVALID, "combatant %q starts off the map: no square or group", c.ID)
		case !f.Off && (start.X == nil || start.Y == nil):
			return nil, fray.Errorf(fray.EINVALID, "combatant %q needs a start square {\"x\":0,\"y\":0} (or \"props\":{\"off\":true})", c.ID)
		}
		if !f.Off {
			f.X, f.Y, f.Group = *start.X, *start.Y, start.Group
			if !st.onMap(f.X, f.Y) {
				return nil, fray.Errorf(fray.EINVALID, "combatant %q starts at (%d,%d), outside the %d×%d map", c.ID, f.X, f.Y, st.Width, st.Height)
			}
			if f.Group != "" {
				if p, ok := groups[f.Group]; ok && p != f.at() {
					return nil, fray.Errorf(fray.EINVALID, "contact group %q spans two squares", f.Group)
				}
				groups[f.Group] = f.at()
			}
		}
		st.Fighters[c.ID] = f
	}
	for g := range groups {
		if len(st.members(g)) < 2 {
			return nil, fray.Errorf(fray.EINVALID, "contact group %q has only one member", g)
		}
	}
	if len(st.Fighting()) < 2 {
		return nil, fray.Errorf(fray.EINVALID, "combatants must be on at least two sides")
	}
	return st, nil
}

// readBattlefield reads the setup's grid: its size and its squares' props.
func (s *State) readBattlefield(raw json.RawMessage) error {
	bf, err := board.Read(raw)
	if err != nil {
		return fray.Errorf(fray.EINVALID, "%v", err)
	}
	if bf.Model != "" && bf.Model != board.Grid {
		return fray.Errorf(fray.EINVALID, "battlefield: d6-bands uses the grid model, not %q", bf.Model)
	}
	if len(bf.Zones) > 0 || len(bf.Melees) > 0 || len(bf.Pairs) > 0 || len(bf.Distances) > 0 {
		return fray.Errorf(fray.EINVALID, "battlefield: d6-bands takes width, height and cells only")
	}
	s.Width, s.Height = bf.Width, bf.Height
	if s.Width < 1 || s.Height < 1 || s.Width > MaxWidth || s.Height > MaxHeight {
		return fray.Errorf(fray.EINVALID, "battlefield: width and height must be 1–%d squares", MaxWidth)
	}
	seen := map[point]bool{}
	for _, cs := range bf.Cells {
		if !s.onMap(cs.X, cs.Y) {
			return fray.Errorf(fray.EINVALID, "battlefield: square (%d,%d) is outside the map", cs.X, cs.Y)
		}
		if seen[point{cs.X, cs.Y}] {
			return fray.Errorf(fray.EINVALID, "battlefield: square (%d,%d) is listed twice", cs.X, cs.Y)
		}
		seen[point{cs.X, cs.Y}] = true
		c, err := cellFromProps(cs.X, cs.Y, cs.Props)
		if err != nil {
			return fray.Errorf(fray.EINVALID, "battlefield: square (%d,%d): %v", cs.X, cs.Y, err)
		}
		if !c.Open() {
			s.Cells = append(s.Cells, c)
		}
	}
	s.sortCells()
	return nil
}

// cellFromProps reads a square's props as the Editor declares them.
func cellFromProps(x, y int, p board.Props) (Cell, error) {
	for name := range p {
		if !slices.ContainsFunc(cellFields, func(f board.Field) bool { return f.Name == name }) {
			return Cell{}, fmt.Errorf("no property %q", name)
		}
	}
	c := Cell{X: x, Y: y, Dash: p.Int("dash"), Impassable: p.Int("impassable"), Water: propBool(p, "water"),
		Cover: p.Int("cover"), Blocks: propBool(p, "blocks"), Crowd: propBool(p, "crowd"), Label: strings.TrimSpace(p.String("label"))}
	return c, c.check()
}

// propBool reads a checkbox property: true, or "on"/"true" from a form.
func propBool(p board.Props, name string) bool {
	switch v := p[name].(type) {
	case bool:
		return v
	case string:
		return v == "on" || v == "true"
	}
	return false
}

// check validates a square's values.
func (c Cell) check() error {
	if _, ok := dashNames[c.Dash]; !ok {
		return fmt.Errorf("dash difficulty must be 0, 3, 4 or 5, not %d", c.Dash)
	}
	if _, ok := impassableNames[c.Impassable]; !ok && c.Impassable != 0 {
		return fmt.Errorf("impassable difficulty must be 0, 4, 5 or 6, not %d", c.Impassable)
	}
	if c.Cover < 0 || c.Cover > 3 {
		return fmt.Errorf("cover must be 0–3, not %d", c.Cover)
	}
	if len(c.Label) > 60 {
		return fmt.Errorf("label is longer than 60 characters")
	}
	return nil
}

// sortCells keeps squares in reading order.
func (s *State) sortCells() {
	slices.SortFunc(s.Cells, func(a, b Cell) int {
		if a.Y != b.Y {
			return a.Y - b.Y
		}
		return a.X - b.X
	})
}

// hidden reports whether the GM keeps combatant id hidden from players.
func (s *State) hidden(id string) bool {
	c := s.Combatant(id)
	return c != nil && c.Hidden
}

// opponents reports whether a and b are on different sides.
func (s *State) opponents(a, b string) bool {
	ca, cb := s.Combatant(a), s.Combatant(b)
	return ca != nil && cb != nil && ca.Side != cb.Side
}

// standing reports whether id is in the fight and not down.
func (s *State) standing(id string) bool {
	c := s.Combatant(id)
	return c != nil && c.Fighting()
}

// canAct is the check of every command a combatant gives on its turn: it
// must not be down.
func canAct(st *State, f *Fighter) error {
	if !st.standing(f.ID) {
		return fray.Errorf(fray.EILLEGAL, "%s is down", st.NameOf(f.ID))
	}
	return nil
}

// need fails unless f has n actions left.
func need(st *State, f *Fighter, n int, what string) error {
	if f.Actions < n {
		return fray.Errorf(fray.EILLEGAL, "%s takes %s; %s has %s left this turn", what, actionCount(n), st.NameOf(f.ID), actionCount(f.Actions))
	}
	return nil
}

// actionCount words a number of actions.
func actionCount(n int) string {
	if n == 1 {
		return "1 action"
	}
	return fmt.Sprintf("%d actions", n)
}

// secretFor marks ev secret when it names a combatant the GM keeps hidden
// (its actor makes it secret by itself): players never learn of them.
func (s *State) secretFor(ev engine.Event, ids ...string) engine.Event {
	for _, id := range ids {
		if s.hidden(id) {
			ev.Secret = true
		}
	}
	return ev.With(ids...)
}

// Description implements engine.Describer.
func (Ruleset) Description() string {
	return "Open-ended d6 rolled under a skill, on 30 m range bands: stealth, cover, shooting and stray shots, melee reach, wounds that bleed."
}
