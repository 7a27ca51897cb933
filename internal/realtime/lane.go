package realtime

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// crowdAbove is how many sockets an encounter may have before its
// broadcast goes through the crowd lane: a table with its GM, players and a
// few watchers never does.
const crowdAbove = 64

// crowdHold is how long a writer may keep a slot of the crowd lane. A
// write to a socket normally takes tens of microseconds; one that takes
// longer is waiting for a client that does not read, and gives its slot up
// rather than hold back everyone else's.
const crowdHold = 2 * time.Millisecond

// crowdLane bounds how many writers of a crowded encounter's broadcast
// (every client's frame but the acting client's) write at once: at most
// half of the processors. Without it an update to an encounter with
// thousands of sockets makes as many writers runnable at once, and the
// next command's reader, the encounter's owner and its database
// connection wait in the scheduler's queues behind all of them; the
// acting client's ack waited for the previous update's whole fan-out.
// Writers waiting for a slot wait on a channel, outside those queues.
type crowdLane struct {
	slots chan struct{}
}

func newCrowdLane() *crowdLane {
	return &crowdLane{slots: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2))}
}

// laneSlot is one writer's turn in the lane.
type laneSlot struct {
	lane  *crowdLane
	once  sync.Once
	timer *time.Timer
}

// enter waits for a slot; nil when ctx ended first.
func (l *crowdLane) enter(ctx context.Context) *laneSlot {
	select {
	case l.slots <- struct{}{}:
	case <-ctx.Done():
		return nil
	}
	s := &laneSlot{lane: l}
	s.timer = time.AfterFunc(crowdHold, s.free)
	return s
}

// leave gives the slot back (at most once, whether or not crowdHold
// already gave it up); a nil slot is none.
func (s *laneSlot) leave() {
	if s == nil {
		return
	}
	s.timer.Stop()
	s.free()
}

func (s *laneSlot) free() { s.once.Do(func() { <-s.lane.slots }) }

// crowded reports whether batch is only a crowd's broadcast: no ack, no
// close, every frame sent to a crowded encounter.
func crowded(batch []frame) bool {
	for _, f := range batch {
		if !f.crowd || f.ack != nil || f.closeCode != 0 {
			return false
		}
	}
	return len(batch) > 0
}
