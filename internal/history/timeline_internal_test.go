package history

import (
	"testing"

	"github.com/fray-vtt/fray/internal/board"
)

// The timeline says how a fallen fighter ended in the board's words, not
// in the reason it was first taken out with.
func TestBoardState(t *testing.T) {
	b := &board.Board{Tokens: []board.Token{
		{ID: "ana", Out: true, Conditions: []board.Condition{{ID: "status", Label: "Dead"}}},
		{ID: "bo", Out: true},
	}}
	for id, want := range map[string]string{"ana": "Dead", "bo": "", "cy": ""} {
		if got := boardState(b, id); got != want {
			t.Errorf("boardState(%s) = %q, want %q", id, got, want)
		}
	}
	if boardState(nil, "ana") != "" {
		t.Error("a ruleset without a board says something")
	}
}
