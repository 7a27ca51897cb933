// Package examples embeds the example encounters shipped with Fray, so
// `server demo` can seed them and tests can load every one.
package examples

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Encounters holds encounters/*.json, each an engine.Setup document.
//
//go:embed encounters/*.json
var Encounters embed.FS

// lengths is each example's median rounds by the engine's own odds
// (internal/simulate: LengthFights fights seeded with LengthSeed, the
// ruleset's tactics on every side), which the picker shows. A test in
// internal/simulate plays them again and holds this file to what it finds
// (rewrite it with -update-lengths there).
//
//go:embed lengths.json
var lengths []byte

// The simulation the shipped lengths come from.
const (
	LengthFights = 40
	LengthSeed   = 41
)

// Example is one shipped example encounter.
type Example struct {
	Name    string // file name without extension, e.g. "sw-zones-goblin-ford"
	Title   string // the encounter's name
	Ruleset string // the ruleset's id
	Model   string // its battlefield's position model, when it names one
	// Grid is true for a battlefield of squares (a grid model, or one
	// whose ruleset knows no other and gives it a width).
	Grid bool
	// Rounds is the median length of its fight in rounds by the engine's
	// odds (lengths.json); Players counts its player characters, Others
	// the GM's.
	Rounds          float64
	Players, Others int
	Data            []byte
}

// All returns the shipped example encounters, sorted by name.
func All() ([]Example, error) {
	files, err := fs.Glob(Encounters, "encounters/*.json")
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var rounds map[string]float64
	if err := json.Unmarshal(lengths, &rounds); err != nil {
		return nil, fmt.Errorf("examples' lengths: %w", err)
	}
	out := make([]Example, 0, len(files))
	for _, f := range files {
		data, err := fs.ReadFile(Encounters, f)
		if err != nil {
			return nil, err
		}
		var head struct {
			Name        string `json:"name"`
			Ruleset     string `json:"ruleset"`
			Battlefield struct {
				Model string `json:"model"`
				Width int    `json:"width"`
			} `json:"battlefield"`
			Combatants []struct {
				PC bool `json:"pc"`
			} `json:"combatants"`
		}
		if err := json.Unmarshal(data, &head); err != nil {
			return nil, fmt.Errorf("example %s: %w", f, err)
		}
		ex := Example{Name: strings.TrimSuffix(path.Base(f), ".json"), Title: head.Name, Ruleset: head.Ruleset,
			Model: head.Battlefield.Model, Data: data}
		ex.Grid = ex.Model == "grid" || (ex.Model == "" && head.Battlefield.Width > 0)
		ex.Rounds = rounds[ex.Name]
		for _, c := range head.Combatants {
			if c.PC {
				ex.Players++
			} else {
				ex.Others++
			}
		}
		out = append(out, ex)
	}
	return out, nil
}
