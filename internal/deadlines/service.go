package deadlines

import (
	"context"
	"slices"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/store"
)

// SettingsStore is what Service needs of the store; *store.DB is one.
type SettingsStore interface {
	Deadline(ctx context.Context, encounterID string) (*store.DeadlineSetting, error)
	SetDeadline(ctx context.Context, encounterID, userID string, s store.DeadlineSetting, now time.Time) error
	SwitchDeadline(ctx context.Context, encounterID string, on bool, now time.Time) error
	ClearDeadline(ctx context.Context, encounterID string) error
	LastWait(ctx context.Context, encounterID string) (*store.OpenWait, error)
	ClockBanks(ctx context.Context, encounterID string) (map[string]time.Duration, error)
	EncounterOwners(ctx context.Context, encounterID string) (map[string]store.Owner, error)
}

// Service is what GMs and pages change and read of deadlines and clocks,
// on the workers' clock (Now, injectable like the Worker's).
type Service struct {
	Store SettingsStore
	Now   func() time.Time
	// Wake, when set, tells the workers a setting changed (Worker.Wake):
	// a wait starts at once with it.
	Wake func()
}

func (s *Service) woken(err error) error {
	if err == nil && s.Wake != nil {
		s.Wake()
	}
	return err
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Deadline is encounter id's setting; nil for none.
func (s *Service) Deadline(ctx context.Context, id string) (*store.DeadlineSetting, error) {
	return s.Store.Deadline(ctx, id)
}

// SetDeadline sets or changes encounter id's deadline or clock, now.
func (s *Service) SetDeadline(ctx context.Context, id, userID string, set store.DeadlineSetting) error {
	return s.woken(s.Store.SetDeadline(ctx, id, userID, set, s.now()))
}

// SwitchDeadline switches it on or off, now: live play and play between
// sessions are the same encounter.
func (s *Service) SwitchDeadline(ctx context.Context, id string, on bool) error {
	return s.woken(s.Store.SwitchDeadline(ctx, id, on, s.now()))
}

// ClearDeadline takes it away.
func (s *Service) ClearDeadline(ctx context.Context, id string) error {
	return s.Store.ClearDeadline(ctx, id)
}

// Status is what a page shows of an encounter's deadline: whom the table
// waits on and how long each has left.
type Status struct {
	// On: a deadline or clock runs. Clock: it is a clock.
	On    bool `json:"on"`
	Clock bool `json:"clock"`
	// Waiting are the player characters the table waits on, with the time
	// left until their standing orders and the fallback act.
	Waiting []Left `json:"waiting"`
	// Banks are every player character's time left in a clock.
	Banks []Left `json:"banks,omitempty"`
	// Now is the server's time the figures are as of.
	Now time.Time `json:"now"`
}

// Left is one character's time left.
type Left struct {
	Character string    `json:"character"`
	Name      string    `json:"name"`
	Player    string    `json:"player"`
	Remaining int64     `json:"remaining"` // milliseconds, never below 0
	Due       time.Time `json:"due"`
}

// ClockStatus is encounter state st's Status as viewer v may see it (only
// combatants v sees).
func (s *Service) ClockStatus(ctx context.Context, st engine.State, v engine.Viewer) (Status, error) {
	now := s.now()
	out := Status{Now: now, Waiting: []Left{}}
	b := st.Core()
	set, err := s.Store.Deadline(ctx, b.ID)
	if err != nil || set == nil || set.Off || b.Status != engine.StatusRunning {
		return out, err
	}
	out.On, out.Clock = true, set.Clock()
	owners, err := s.Store.EncounterOwners(ctx, b.ID)
	if err != nil {
		return out, err
	}
	wait, err := s.Store.LastWait(ctx, b.ID)
	if err != nil {
		return out, err
	}
	if wait != nil && wait.Seq != b.Seq {
		wait = nil // not started yet: it starts about now
	}
	waited, _, _ := Waited(st, owners)
	var banks map[string]time.Duration
	if set.Clock() {
		if banks, err = s.Store.ClockBanks(ctx, b.ID); err != nil {
			return out, err
		}
	}
	left := func(id string) time.Duration {
		switch {
		case !set.Clock() && wait != nil && !wait.Due.IsZero():
			return wait.Due.Sub(now)
		case !set.Clock():
			return set.After
		}
		bank, ok := banks[id]
		if !ok {
			bank = set.Bank
		}
		if wait != nil && wait.Clock && slices.Contains(wait.Waited, id) {
			bank -= now.Sub(wait.StartedAt)
		}
		return bank
	}
	entry := func(id string) Left {
		d := max(left(id), 0)
		return Left{Character: id, Name: b.NameOf(id), Player: owners[id].Name, Remaining: d.Milliseconds(), Due: now.Add(d)}
	}
	for _, id := range waited {
		if engine.Visible(st, v, id) {
			out.Waiting = append(out.Waiting, entry(id))
		}
	}
	if set.Clock() {
		for _, c := range b.Combatants {
			if owners[c.ID].UserID != "" && engine.Visible(st, v, c.ID) && !c.Out {
				l := entry(c.ID)
				if !slices.Contains(waited, c.ID) {
					bank, ok := banks[c.ID]
					if !ok {
						bank = set.Bank
					}
					l.Remaining, l.Due = bank.Milliseconds(), time.Time{}
				}
				out.Banks = append(out.Banks, l)
			}
		}
	}
	return out, nil
}
