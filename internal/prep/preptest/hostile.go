// Package preptest holds setup documents for tests of the entry points
// of encounters and drafts.
package preptest

import (
	"fmt"
	"strings"
)

// HostileSetups are setup documents past the limits, by what is wrong
// with them: huge, negative and absurd grids, 10,000 combatants, deep
// nesting, oversize names, a NUL, a stray brace, more than a mebibyte.
// Every entry point must refuse each with a clear 4xx message.
func HostileSetups() map[string][]byte {
	grid := func(model string, w, h any) []byte {
		return fmt.Appendf(nil, `{"name":"Big","ruleset":"d20-tactical","sides":[{"id":"a","name":"A"},{"id":"b","name":"B"}],
			"combatants":[],"battlefield":{%s"width":%v,"height":%v}}`, model, w, h)
	}
	many := func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"name":"Horde","ruleset":"sw-zones","sides":[{"id":"a","name":"A"},{"id":"b","name":"B"}],"combatants":[`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":"g%d","name":"Goblin %d","side":"b"}`, i, i)
		}
		b.WriteString(`]}`)
		return []byte(b.String())
	}
	return map[string][]byte{
		"a grid a million wide":       grid("", 1000000, 8),
		"a grid a billion high":       grid("", 8, 1000000000),
		"a negative grid":             grid("", -5, -5),
		"an absurd grid":              grid("", "1e300", 8),
		"a grid past the ruleset's":   grid("", 61, 10),
		"a grid past every ruleset's": grid(`"model":"grid",`, 101, 10),
		"10,000 combatants":           many(10000),
		"101 combatants":              many(101),
		"deep nesting": []byte(`{"name":"Deep","ruleset":"sw-zones","sides":[],"combatants":[{"id":"a","name":"A","side":"a","stats":` +
			strings.Repeat(`{"a":`, 200) + `1` + strings.Repeat(`}`, 200) + `}]}`),
		"an oversize encounter name": []byte(`{"name":"` + strings.Repeat("N", 10000) + `","ruleset":"sw-zones","sides":[],"combatants":[]}`),
		"an oversize combatant name": []byte(`{"name":"X","ruleset":"sw-zones","sides":[{"id":"a","name":"A"}],"combatants":[{"id":"a","name":"` +
			strings.Repeat("N", 81) + `","side":"a"}]}`),
		"an oversize zone name": []byte(`{"name":"X","ruleset":"sw-zones","sides":[],"combatants":[],"battlefield":{"zones":[{"id":"z","name":"` +
			strings.Repeat("Z", 5000) + `","adjacent":[]}]}}`),
		"a NUL in a name":    []byte(`{"name":"X\u0000","ruleset":"sw-zones","sides":[],"combatants":[]}`),
		"a stray brace":      []byte(`{"name":"X","ruleset":"sw-zones","sides":[],"combatants":[]}}`),
		"over a mebibyte":    []byte(`{"name":"X","ruleset":"sw-zones","sides":[],"combatants":[],"battlefield":{"zones":[]},"options":{"x":"` + strings.Repeat("x", (1<<20)) + `"}}`),
		"65 zones":           Zones(65),
		"cells off the grid": []byte(`{"name":"X","ruleset":"d20-tactical","sides":[],"combatants":[],"battlefield":{"width":10,"height":10,"cells":[{"x":10,"y":0}]}}`),
	}
}

// Zones is a sw-zones setup of n zones.
func Zones(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"name":"Maze","ruleset":"sw-zones","sides":[],"combatants":[],"battlefield":{"zones":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"z%d","name":"Z%d","adjacent":[]}`, i, i)
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}
