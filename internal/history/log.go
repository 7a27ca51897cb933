package history

import (
	"context"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// LogPageSize is how many entries one page of an encounter's log shows.
const LogPageSize = 500

// logBatch is how many events the log reads from the store at a time.
const logBatch = 1000

// LogFilter is what a page of the log shows: the events involving
// character Who (any, when empty), of round Round (any, when 0), after seq
// After.
type LogFilter struct {
	Who   string
	Round int
	After int64
}

// LogPage is one page of an encounter's log as its reader may see it.
type LogPage struct {
	View    engine.View    // the reader's projection of the encounter now
	Entries []engine.Event // at most LogPageSize
	More    bool           // more entries follow the last
	// Undone are the seqs a rewind undid; Revealed those the GM revealed to
	// the players (reveal-event).
	Undone, Revealed map[int64]bool
	// Rounds is the highest round the filter may ask for.
	Rounds int
}

// Log reads a page of rd's encounter's log: the events its viewer may see
// that match f. Filtering by a character the viewer may not see is refused
// exactly as one that does not exist.
func (s *Service) Log(ctx context.Context, rd Reading, f LogFilter) (LogPage, error) {
	if f.Who != "" && !engine.Visible(rd.State, rd.Viewer, f.Who) {
		return LogPage{}, fray.Errorf(fray.EINVALID, "no character %q to filter by", f.Who)
	}
	if f.Round < 0 || f.After < 0 {
		return LogPage{}, fray.Errorf(fray.EINVALID, "round and after must not be negative")
	}
	p := LogPage{View: engine.Project(rd.Ruleset, rd.State, rd.Viewer), Revealed: map[int64]bool{}}
	var err error
	if p.Entries, p.More, err = s.logEntries(ctx, rd, f); err != nil {
		return LogPage{}, err
	}
	if p.Undone, err = s.undone(ctx, rd.ID); err != nil {
		return LogPage{}, err
	}
	b := rd.State.Core()
	p.Rounds = max(b.Round, f.Round)
	for _, ev := range p.Entries { // a rewind may have gone back to an earlier round
		p.Rounds = max(p.Rounds, ev.Round)
	}
	for _, seq := range b.Revealed {
		p.Revealed[seq] = true
	}
	return p, nil
}

// logEntries returns up to LogPageSize events after f.After that the
// viewer may see and that match f, and whether more follow.
func (s *Service) logEntries(ctx context.Context, rd Reading, f LogFilter) ([]engine.Event, bool, error) {
	var out []engine.Event
	cursor := f.After
	for {
		batch, err := s.db.Events(ctx, rd.ID, cursor, logBatch)
		if err != nil {
			return nil, false, err
		}
		if len(batch) == 0 {
			return out, false, nil
		}
		cursor = batch[len(batch)-1].Seq
		for _, ev := range engine.FilterEvents(rd.State, rd.Viewer, batch) {
			if f.Round > 0 && ev.Round != f.Round || !engine.Involves(ev, f.Who) {
				continue
			}
			if len(out) == LogPageSize {
				return out, true, nil
			}
			out = append(out, ev)
		}
		if len(batch) < logBatch {
			return out, false, nil
		}
	}
}
