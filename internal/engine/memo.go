package engine

import (
	"reflect"
	"sync/atomic"
)

// Memo keeps a value derived from parts of a state that never change once
// they are set up — a fighter's sheet, say — so that projecting the state
// reads it instead of building it again for every viewer and update.
//
// Every update's state is a copy of the one before (Copy: the owner's
// frozen copy for readers, or a copy decided on), so a value kept in one
// state alone would be built again for each. Copy therefore shares a
// memo's cell between the original and the copy: what either keeps, both
// and every later copy read. A state decoded from a snapshot starts with
// empty memos of its own.
//
// So what a memo keeps must depend only on what never changes, and nobody
// may change it once kept: every copy of the state reads the same value.
// A memo is a field of a ruleset's state (unexported: JSON never sees it);
// Copy shares memos held directly in a struct reached through a pointer or
// a slice, or in the state itself, and clears those elsewhere (in a map's
// values, say), which then keep their value for their own copy only.
type Memo[T any] struct {
	cell atomic.Pointer[memoCell[T]]
}

type memoCell[T any] struct{ kept atomic.Pointer[T] }

// Load returns the value kept, or nil.
func (m *Memo[T]) Load() *T {
	if c := m.cell.Load(); c != nil {
		return c.kept.Load()
	}
	return nil
}

// Keep keeps v unless a value is kept already (readers of one state may
// build it at once), and returns the one kept.
func (m *Memo[T]) Keep(v *T) *T {
	c := m.share()
	if c.kept.CompareAndSwap(nil, v) {
		return v
	}
	return c.kept.Load()
}

// share returns m's cell, giving it one first if it has none.
func (m *Memo[T]) share() *memoCell[T] {
	if c := m.cell.Load(); c != nil {
		return c
	}
	m.cell.CompareAndSwap(nil, new(memoCell[T]))
	return m.cell.Load()
}

// prepareCopy gives m a cell for Copy to share, before the copy is made.
func (m *Memo[T]) prepareCopy() { m.share() }

// unshareCopy is Copy's answer to a memo it may not share: an empty one.
func (m *Memo[T]) unshareCopy() { m.cell.Store(nil) }

// memo is what Copy knows of a Memo of any type.
type memo interface {
	prepareCopy()
	unshareCopy()
}

var memoType = reflect.TypeFor[memo]()
