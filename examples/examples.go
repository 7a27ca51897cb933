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

// Example is one shipped example encounter.
type Example struct {
	Name    string // file name without extension, e.g. "sw-zones-goblin-ford"
	Title   string // the encounter's name
	Ruleset string // the ruleset's id
	Model   string // its battlefield's position model, when it names one
	Data    []byte
}

// All returns the shipped example encounters, sorted by name.
func All() ([]Example, error) {
	files, err := fs.Glob(Encounters, "encounters/*.json")
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
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
			} `json:"battlefield"`
		}
		if err := json.Unmarshal(data, &head); err != nil {
			return nil, fmt.Errorf("example %s: %w", f, err)
		}
		out = append(out, Example{Name: strings.TrimSuffix(path.Base(f), ".json"), Title: head.Name, Ruleset: head.Ruleset,
			Model: head.Battlefield.Model, Data: data})
	}
	return out, nil
}
