package history

import (
	"context"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/play"
)

const (
	// replayLog is how many events before the step the replay reads for
	// its log and its Previous link.
	replayLog = 200
	// replayAhead is how many events after the step it reads to find Next.
	replayAhead = 100
)

// Step is an encounter as one viewer saw it right after event Seq.
type Step struct {
	Seq, Latest int64
	// View is the viewer's projection of the state after Seq, without
	// actions or pending decisions: nothing can be done in the past.
	View    engine.View
	Event   *engine.Event  // the event at Seq, when the viewer may see it
	Hidden  bool           // there is an event at Seq the viewer may not see
	Log     []engine.Event // the events the viewer may see up to Seq (the last replayLog)
	Earlier bool           // events before Log were left out
	// Prev and Next are the nearest steps the viewer may see; -1 for none.
	Prev, Next int64
}

// Replay rebuilds rd's encounter right after event seq (the nearest
// snapshot plus a fold) and what its viewer may see of the events around
// it, each as the viewer saw it when it happened (engine.Sight); seq < 0
// or past the last event is the last event. The replay never shows what
// the viewer's live page did not show at that point.
func (s *Service) Replay(ctx context.Context, rd Reading, seq int64) (Step, error) {
	latest := rd.State.Core().Seq
	if seq < 0 || seq > latest {
		seq = latest
	}
	st := Step{Seq: seq, Latest: latest, Prev: -1, Next: -1}
	state := rd.State
	if seq != latest {
		var err error
		if state, err = play.StateAt(ctx, s.db, rd.Ruleset, rd.ID, seq); err != nil {
			return st, err
		}
	}
	st.View = engine.Project(rd.Ruleset, state, rd.Viewer)
	st.View.Actions, st.View.Pending = []engine.Action{}, nil
	if latest == 0 {
		return st, nil
	}
	from, to := max(0, seq-replayLog), min(seq+replayAhead, latest)
	events, err := s.db.Events(ctx, rd.ID, from, int(to-from))
	if err != nil {
		return st, err
	}
	st.Earlier = from > 0
	cut := len(events)
	for i, ev := range events {
		if ev.Seq > seq {
			cut = i
			break
		}
	}
	st.Log = engine.FilterEvents(state, rd.Viewer, events[:cut])
	if n := len(st.Log); n > 0 && st.Log[n-1].Seq == seq {
		st.Event = &st.Log[n-1]
	} else if seq > 0 {
		st.Hidden = true
	}
	for i := len(st.Log) - 1; i >= 0; i-- {
		if st.Log[i].Seq < seq {
			st.Prev = st.Log[i].Seq
			break
		}
	}
	if st.Prev < 0 && seq > 0 {
		st.Prev = from // nothing visible in reach: step back over it all
	}
	ahead := engine.NewSight(rd.State, rd.Viewer) // knows who was hidden at every seq
	for _, ev := range events[cut:] {
		if _, ok, _ := ahead.See(ev); ok {
			st.Next = ev.Seq
			break
		}
	}
	if st.Next < 0 && seq < latest {
		st.Next = to
	}
	return st, nil
}
