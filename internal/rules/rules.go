// Package rules gathers Fray's rulesets.
package rules

import (
	"slices"
	"sync"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/d20duel"
	"github.com/fray-vtt/fray/internal/rules/d20tactical"
	"github.com/fray-vtt/fray/internal/rules/d20under"
	"github.com/fray-vtt/fray/internal/rules/d6bands"
	"github.com/fray-vtt/fray/internal/rules/swzones"
)

// Worded is implemented by a ruleset that names the words it owns beyond
// its command kinds and option names: its conditions, resources and game
// terms ("Shaken", "Bennies", "Wild Card"). No package but the ruleset's
// may use a ruleset's words — not the engine, the boards, the pages, the
// server or play; TestNoRulesetWordOutsideItsPackage holds them to it.
type Worded interface {
	Words() []string
}

// Registry returns a registry of every ruleset Fray ships, and any
// registered since (Register), for the server and the tools that import
// encounters. A ruleset Fray ships is one line here.
func Registry() *engine.Registry {
	registered.Lock()
	defer registered.Unlock()
	return engine.NewRegistry(append([]engine.Ruleset{
		d20duel.New(),
		d20tactical.New(),
		d20under.New(),
		d6bands.New(),
		swzones.New(),
	}, registered.extra...)...)
}

// registered are the rulesets Register added.
var registered struct {
	sync.Mutex
	extra []engine.Ruleset
}

// Register adds rs to every registry Registry returns from now on, until
// the function it returns takes it out again: a ruleset Fray does not ship
// (a test's). Its id must differ from every other's.
func Register(rs engine.Ruleset) (remove func()) {
	registered.Lock()
	defer registered.Unlock()
	registered.extra = append(registered.extra, rs)
	return func() {
		registered.Lock()
		defer registered.Unlock()
		registered.extra = slices.DeleteFunc(registered.extra, func(o engine.Ruleset) bool { return o.ID() == rs.ID() })
	}
}
