package d6bands

import (
	"os"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
)

// The GM's guide follows the code: every command and decision kind is
// described, and its example encounter is valid. (Its options table is
// made from the option declarations: internal/rules,
// TestGuidesFollowOptions.)
func TestGuide(t *testing.T) {
	raw, err := os.ReadFile("../../../docs/rules/d6-bands.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, c := range New().Commands() {
		if !strings.Contains(doc, "| `"+c.Kind+"`") {
			t.Errorf("the guide's commands table lacks %s", c.Kind)
		}
	}
	for _, k := range []string{DecDefense, DecStray, DecDuel} {
		if !strings.Contains(doc, "| `"+k+"` |") {
			t.Errorf("the guide's decisions table lacks %s", k)
		}
	}
	start := strings.Index(doc, "```json\n")
	end := strings.Index(doc[start+8:], "```")
	if start < 0 || end < 0 {
		t.Fatal("no example in the guide")
	}
	setup, err := engine.DecodeSetup([]byte(doc[start+8 : start+8+end]))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := engine.NewEncounter(New(), "doc", setup); err != nil {
		t.Fatalf("the guide's example: %v", err)
	}
}
