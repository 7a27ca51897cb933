package realtime

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// frameBytesExamples are one example per kind of board: zones, a grid of
// squares, a grid of range bands, pairs of duellists, a ladder of distance
// categories.
var frameBytesExamples = []string{"sw-zones-dusty-gulch", "d20-tactical-rooftop-crossfire",
	"d6-bands-kessel-ford", "d20-duel-old-bridge", "d20-under-karvosti-road"}

// TestPageFrameBytes REPORTS (it asserts nothing but that frames came) the
// bytes of the frames an encounter page gets over the first 60 commands of
// a bot-played fight of one example of each kind of board, for the GM and
// for a spectator (a member without characters): at the end of a turn (an
// update with a turn-started event) and over all updates; and of those
// bytes, the battlefield's (sent whole, or as parts: its tokens' faces,
// tokens on a grid, roster rows and the key), with how many updates sent it whole. Run with
// -v; see docs/performance.md.
//
//	go test ./internal/realtime -run TestPageFrameBytes -v
func TestPageFrameBytes(t *testing.T) {
	for _, example := range frameBytesExamples {
		t.Run(example, func(t *testing.T) { pageFrameBytes(t, example) })
	}
}

func pageFrameBytes(t *testing.T, example string) {
	updates := recordFight(t, example, 60)
	hub := pageHub(Config{})
	clients := map[string]*client{"GM": queued(hub, engine.GMViewer(), true, false), "spectator": queued(hub, engine.Viewer{}, true, false)}
	turns, all := map[string][]int{}, map[string][]int{}
	board, boardWhole := map[string][]int{}, map[string]int{}
	for _, u := range updates.list {
		hub.Publish(u)
		hub.settle(u.EncounterID)
		endOfTurn := slices.ContainsFunc(u.Events, func(ev engine.Event) bool { return ev.Kind == "turn-started" })
		for name, c := range clients {
			n, nb := 0, 0
			for _, f := range c.queuedFrames() {
				n += len(f.data)
				if f.data == nil {
					continue
				}
				var m struct {
					HTML  map[string]string `json:"html"`
					Parts map[string]string `json:"parts"`
				}
				if err := json.Unmarshal(f.data, &m); err != nil {
					t.Fatal(err)
				}
				if h, ok := m.HTML["battlefield"]; ok {
					nb += len(h)
					boardWhole[name]++
				}
				for id, h := range m.Parts {
					if boardPart(id) {
						nb += len(h)
					}
				}
			}
			all[name] = append(all[name], n)
			board[name] = append(board[name], nb)
			if endOfTurn {
				turns[name] = append(turns[name], n)
			}
		}
	}
	for _, name := range []string{"GM", "spectator"} {
		if len(turns[name]) == 0 {
			t.Fatalf("%s: no end of turn", name)
		}
		t.Logf("%s, %s page: end of turn (%d updates): mean %d B, p50 %d B, max %d B; all %d updates: mean %d B; battlefield: mean %d B, sent whole %d times",
			example, name, len(turns[name]), mean(turns[name]), pct(turns[name], 0.5), pct(turns[name], 1), len(all[name]), mean(all[name]),
			mean(board[name]), boardWhole[name])
	}
}

// boardPart reports whether the part of id is the battlefield's (of its
// markup unescaped: a roster row, a token, the key).
func boardPart(id string) bool {
	return strings.HasPrefix(id, "tok-") || strings.HasPrefix(id, "face-") || strings.HasPrefix(id, "gtok-") || id == "board-key"
}

func mean(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s / len(xs)
}

func pct(xs []int, q float64) int {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}
