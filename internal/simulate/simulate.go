// Package simulate tells a GM the odds of a fight before it is run: it
// plays an encounter's setup to its end many times with the real rules
// engine, on in-memory states and seeded dice, every side played by a
// tactical policy (the ruleset's own when it is an engine.Tactician, a
// generic one otherwise), and counts who won, in how many rounds, and who
// fell.
//
// It is pure like the engine: no IO, no clock, nothing stored. The same
// setup, policy and seed give the same result, run after run. Jobs runs
// simulations off a request's path, one at a time per campaign and a few
// at once in all, within a time budget.
package simulate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Defaults and bounds of a simulation.
const (
	DefaultRuns = 200
	MaxRuns     = 2000
	// DefaultMaxRounds ends a fight no side has won after so many rounds:
	// it counts as undecided.
	DefaultMaxRounds = 60
	// commandsPerRound bounds the commands of a fight, per combatant and
	// round, against a policy that goes round in circles.
	commandsPerRound = 40
	// maxRefusals bounds the commands refused in a row: a policy that
	// keeps choosing what the rules refuse has a bug.
	maxRefusals = 100
)

// Options say how to simulate.
type Options struct {
	// Runs is the number of fights to play (DefaultRuns when 0).
	Runs int
	// Seed seeds the dice of every fight: run i rolls from a source
	// derived from Seed and i alone, so a result is reproducible, and the
	// first fights of a longer simulation are those of a shorter one.
	Seed uint64
	// MaxRounds ends an undecided fight (DefaultMaxRounds when 0).
	MaxRounds int
	// Progress, when set, is called after each fight with the fights done
	// so far.
	Progress func(done, runs int)
}

// Result is what many fights of one setup came to.
type Result struct {
	Encounter string `json:"encounter"`
	Ruleset   string `json:"ruleset"`
	// Policy names who chose the moves: the ruleset's tactics, or the
	// generic policy.
	Policy string `json:"policy"`
	Seed   uint64 `json:"seed"`
	// Runs is the number of fights played: fewer than asked when the
	// simulation was cancelled or ran out of time (Stopped says why).
	Runs    int    `json:"runs"`
	Asked   int    `json:"asked"`
	Stopped string `json:"stopped,omitempty"`
	// Undecided counts the fights with no winner: not over after
	// MaxRounds rounds, or ended with none standing.
	Undecided int `json:"undecided"`
	MaxRounds int `json:"maxRounds"`
	// Rounds is the median number of rounds of every fight.
	Rounds float64 `json:"rounds"`
	// Length is how long that takes at the table (see LengthOf).
	Length     Length       `json:"length"`
	Sides      []SideOdds   `json:"sides"`
	Combatants []Casualties `json:"combatants"`
}

// SideOdds is how often one side won.
type SideOdds struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Wins int    `json:"wins"`
	// Rate is Wins / Runs; Low and High bound it at 95 % confidence
	// (Wilson's score interval).
	Rate float64 `json:"rate"`
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// Rounds is the median number of rounds of the fights this side won
	// (0 when it won none).
	Rounds float64 `json:"rounds"`
}

// Casualties is how often one combatant fell: ended a fight down or out.
type Casualties struct {
	ID   string  `json:"id"`
	Name string  `json:"name"`
	Side string  `json:"side"`
	Fell int     `json:"fell"`
	Rate float64 `json:"rate"`
}

// Fight is what one fight came to.
type Fight struct {
	// Winner is the winning side's id; empty when undecided.
	Winner string
	Rounds int
	// Fell lists the combatants down or out at the end, in setup order.
	Fell []string
	// Commands counts the commands the policy had accepted.
	Commands int
}

// Run plays setup opt.Runs times under rs and returns the odds. Cancelling
// ctx stops it between fights with what was played so far (Stopped says
// so); an error means the setup cannot be played at all, or the engine
// failed.
func Run(ctx context.Context, rs engine.Ruleset, setup engine.Setup, opt Options) (Result, error) {
	s, err := New(rs, setup, opt.MaxRounds)
	if err != nil {
		return Result{}, err
	}
	return s.Run(ctx, opt)
}

// Run plays opt.Runs fights (opt.MaxRounds is the Simulator's) and
// returns the odds, as the function Run.
func (s *Simulator) Run(ctx context.Context, opt Options) (Result, error) {
	if opt.Runs == 0 {
		opt.Runs = DefaultRuns
	}
	if opt.Runs < 1 || opt.Runs > MaxRuns {
		return Result{}, fray.Errorf(fray.EINVALID, "runs must be between 1 and %d", MaxRuns)
	}
	t := newTally(s, opt)
	for i := range opt.Runs {
		if err := ctx.Err(); err != nil {
			t.stopped = stopReason(ctx)
			break
		}
		f, err := s.Fight(RunSeed(opt.Seed, i))
		if err != nil {
			return Result{}, fmt.Errorf("fight %d of %s: %w", i+1, s.initial.Core().Name, err)
		}
		t.add(f)
		if opt.Progress != nil {
			opt.Progress(i+1, opt.Runs)
		}
	}
	return t.result(), nil
}

// ErrOverBudget is the cause a context is cancelled with when a simulation
// ran out of the time it was given.
var ErrOverBudget = errors.New("out of time")

func stopReason(ctx context.Context) string {
	if errors.Is(context.Cause(ctx), ErrOverBudget) {
		return "out of time"
	}
	return "cancelled"
}

// RunSeed is the seed of fight i of a simulation seeded with seed.
func RunSeed(seed uint64, i int) uint64 {
	return rand.New(rand.NewPCG(seed, uint64(i))).Uint64()
}

// Simulator plays one setup's fights.
type Simulator struct {
	rs        engine.Ruleset
	initial   engine.State
	policy    Policy
	maxRounds int
	// longestLog is the length of the longest fight's log so far, and
	// spare the log the last fight left: a fight's log is thrown away
	// with it, and a new one for every fight was a tenth of the bytes a
	// simulation allocated.
	longestLog atomic.Int64
	spare      atomic.Pointer[[]engine.Event]
}

// New prepares setup for fights under rs: it is checked as when an
// encounter is created from it. maxRounds ends undecided fights
// (DefaultMaxRounds when 0).
func New(rs engine.Ruleset, setup engine.Setup, maxRounds int) (*Simulator, error) {
	initial, err := engine.NewEncounter(rs, "simulation", setup)
	if err != nil {
		return nil, err
	}
	if maxRounds <= 0 {
		maxRounds = DefaultMaxRounds
	}
	return &Simulator{rs: rs, initial: initial, policy: PolicyFor(rs), maxRounds: maxRounds}, nil
}

// Fight plays one fight to its end with dice seeded by seed. A panic in
// the rules or the tactics is an error of the fight: simulations run in
// a server's background.
func (s *Simulator) Fight(seed uint64) (f Fight, err error) {
	var buf []engine.Event
	if spare := s.spare.Swap(nil); spare != nil {
		buf = *spare
	}
	f, log, err := s.play(seed, buf)
	if log != nil {
		clear(log)
		log = log[:0]
		s.spare.Store(&log)
	}
	return f, err
}

// play is Fight, with the fight's events: in buf's array when it has
// room (buf's length is ignored).
func (s *Simulator) play(seed uint64, buf []engine.Event) (f Fight, log []engine.Event, err error) {
	defer func() {
		if p := recover(); p != nil {
			f, log, err = Fight{}, nil, fmt.Errorf("%s: panic: %v", s.rs.ID(), p)
		}
	}()
	st, err := engine.Copy(s.initial)
	if err != nil {
		return Fight{}, nil, err
	}
	roller := dice.NewRoller(dice.NewSeeded(seed))
	gm := engine.GMViewer()
	started, st, err := engine.DecideOwned(s.rs, st, gm, "start", engine.NewCommand(engine.KindStart, "", nil), roller, nil)
	if err != nil {
		return Fight{}, nil, fmt.Errorf("start: %w", err)
	}
	// The longest log yet sizes a new one: growing it event by event
	// copied the whole log over and over.
	if log = buf[:0]; cap(log) == 0 {
		log = make([]engine.Event, 0, max(int(s.longestLog.Load()), len(started)))
	}
	log = append(log, started...)
	defer func() {
		if n := int64(len(log)); n > s.longestLog.Load() {
			s.longestLog.Store(n)
		}
	}()
	maxCommands := commandsPerRound * len(st.Core().Combatants) * (s.maxRounds + 1)
	var taken []engine.Command
	floor := floorOf(st.Core())
	for st.Core().Status == engine.StatusRunning && st.Core().Round <= s.maxRounds && f.Commands < maxCommands {
		offer := engine.NewOffer(s.rs, st, taken)
		var accepted engine.Command
		var refused []engine.Command
		for {
			cmd, ok := s.policy.Next(st, offer)
			if !ok {
				return Fight{}, nil, fmt.Errorf("round %d: nothing to do (acting %v)", st.Core().Round, st.Core().Acting)
			}
			seq := st.Core().Seq
			events, next, err := engine.DecideOwned(s.rs, st, gm, "c"+strconv.Itoa(f.Commands), cmd, roller, nil)
			if err == nil {
				log = append(log, events...)
				st, accepted = next, cmd
				break
			}
			if fray.ErrorCode(err) == fray.EINTERNAL {
				return Fight{}, nil, fmt.Errorf("%s: %w", cmd.Kind, err)
			}
			refused = append(refused, cmd)
			if len(refused) > maxRefusals {
				return Fight{}, nil, fmt.Errorf("round %d: %d commands refused in a row, the last %s: %w", st.Core().Round, len(refused), cmd.Kind, err)
			}
			if st.Core().Seq != seq {
				// Refused part-way: the state holds some of the
				// command's events. Rebuild it from the log, and the
				// offer on it.
				if st, err = s.replay(log); err != nil {
					return Fight{}, nil, err
				}
				offer = engine.NewOffer(s.rs, st, taken)
				for _, c := range refused[:len(refused)-1] {
					offer.Refuse(c)
				}
			}
			offer.Refuse(cmd)
		}
		f.Commands++
		if now := floorOf(st.Core()); !now.same(floor) {
			floor, taken = now, nil
		} else {
			taken = append(taken, accepted)
		}
	}
	b := st.Core()
	f.Rounds = b.Round
	if b.Status == engine.StatusFinished && b.Outcome != nil {
		f.Winner = b.Outcome.Winner
	}
	for _, c := range b.Combatants {
		if c.Out || c.Down {
			f.Fell = append(f.Fell, c.ID)
		}
	}
	return f, log, nil
}

func (s *Simulator) replay(log []engine.Event) (engine.State, error) {
	st, err := engine.Copy(s.initial)
	if err != nil {
		return nil, err
	}
	return st, engine.Replay(s.rs, st, log)
}

// floor is who has the floor: a change means a new turn, phase or
// interruption.
type floor struct {
	round, turn, interrupts int
	acting                  []string
}

func floorOf(b *engine.Base) floor {
	return floor{round: b.Round, turn: b.Turn, interrupts: len(b.Interrupts), acting: slices.Clone(b.Acting)}
}

func (f floor) same(g floor) bool {
	return f.round == g.round && f.turn == g.turn && f.interrupts == g.interrupts && slices.Equal(f.acting, g.acting)
}
