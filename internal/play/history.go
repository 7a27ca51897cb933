package play

import (
	"context"
	"fmt"
	"math"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/store"
)

// HistoryStore is what rebuilding an encounter's past needs.
type HistoryStore interface {
	SnapshotAt(ctx context.Context, encounterID string, seq int64) (int64, []byte, error)
	Events(ctx context.Context, encounterID string, after int64, limit int) ([]engine.Event, error)
}

// StateAt rebuilds encounter id's state as it was right after event seq (0:
// the initial state): the nearest snapshot kept at or before seq, with the
// events since folded in. A seq past the encounter's last event is ENOTFOUND.
func StateAt(ctx context.Context, hs HistoryStore, rs engine.Ruleset, id string, seq int64) (engine.State, error) {
	if seq < 0 {
		return nil, fray.Errorf(fray.EINVALID, "seq must not be negative")
	}
	at, raw, err := hs.SnapshotAt(ctx, id, seq)
	if err != nil {
		return nil, err
	}
	st, err := rs.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("decode encounter %s snapshot at %d: %w", id, at, err)
	}
	if st.Core().Seq != at {
		return nil, fmt.Errorf("encounter %s snapshot kept at %d is at seq %d", id, at, st.Core().Seq)
	}
	if seq == at {
		return st, nil
	}
	events, err := hs.Events(ctx, id, at, int(seq-at))
	if err != nil {
		return nil, err
	}
	if int64(len(events)) != seq-at {
		return nil, fray.Errorf(fray.ENOTFOUND, "encounter has no event %d", seq)
	}
	if err := engine.Replay(rs, st, events); err != nil {
		return nil, fmt.Errorf("encounter %s: %w", id, err)
	}
	return st, nil
}

// Latest rebuilds encounter id's current state from the database: the
// latest snapshot kept, with every event after it folded in. (A live
// encounter's owner holds the same state; see Service.Current.)
func Latest(ctx context.Context, hs HistoryStore, rs engine.Ruleset, id string) (engine.State, error) {
	at, raw, err := hs.SnapshotAt(ctx, id, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	st, err := rs.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("decode encounter %s snapshot at %d: %w", id, at, err)
	}
	if st.Core().Seq != at {
		return nil, fmt.Errorf("encounter %s snapshot kept at %d is at seq %d", id, at, st.Core().Seq)
	}
	events, err := hs.Events(ctx, id, at, 0)
	if err != nil {
		return nil, err
	}
	if err := engine.Replay(rs, st, events); err != nil {
		return nil, fmt.Errorf("encounter %s: %w", id, err)
	}
	return st, nil
}

// Fold is the state l holds: its snapshot with its events folded in, under
// its ruleset from rules.
func Fold(rules *engine.Registry, l store.Live) (engine.Ruleset, engine.State, error) {
	rs, err := rules.Get(l.Ruleset)
	if err != nil {
		return nil, nil, err
	}
	st, err := rs.Decode(l.Snapshot)
	if err != nil {
		return nil, nil, fmt.Errorf("decode encounter %s snapshot at %d: %w", l.ID, l.SnapshotSeq, err)
	}
	if st.Core().Seq != l.SnapshotSeq {
		return nil, nil, fmt.Errorf("encounter %s snapshot kept at %d is at seq %d", l.ID, l.SnapshotSeq, st.Core().Seq)
	}
	if err := engine.Replay(rs, st, l.Events); err != nil {
		return nil, nil, fmt.Errorf("encounter %s: %w", l.ID, err)
	}
	return rs, st, nil
}

// StateAt is StateAt over the service's store.
func (s *Service) StateAt(ctx context.Context, id string, rs engine.Ruleset, seq int64) (engine.State, error) {
	return StateAt(ctx, s.cfg.Store, rs, id, seq)
}

// history is an encounter's past as the engine reads it while deciding a
// command: the persisted log, which the owner's state is the end of.
type history struct {
	ctx     context.Context
	store   Store
	rs      engine.Ruleset
	id      string
	current engine.State
}

func (h *history) Events(after, upto int64) ([]engine.Event, error) {
	if upto <= after {
		return nil, nil
	}
	return h.store.Events(h.ctx, h.id, after, int(upto-after))
}

func (h *history) StateAt(seq int64) (engine.State, error) {
	if seq == h.current.Core().Seq {
		return engine.Clone(h.rs, h.current)
	}
	return StateAt(h.ctx, h.store, h.rs, h.id, seq)
}
