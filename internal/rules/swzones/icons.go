package swzones

import "github.com/fray-vtt/fray/internal/board"

// icons are how the board draws sw-zones' conditions, by the key token()
// names them with: a glyph, what it stands for, and a tone for the ones
// that put a fighter's life at stake.
var icons = map[string]board.Icon{
	"shaken":      {Glyph: "✶", Legend: "Shaken"},
	"dying":       {Glyph: "☠", Legend: "Incapacitated, dying", Tone: board.Bad},
	"bleeding":    {Glyph: "♥", Legend: "Bleeding out", Tone: board.Bad},
	"unconscious": {Glyph: "☾", Legend: "Incapacitated", Tone: board.Bad},
	"prone":       {Glyph: "⇊", Legend: "Prone"},
	"hold":        {Glyph: "‖", Legend: "On Hold", Tone: board.Good},
	"running":     {Glyph: "»", Legend: "Running"},
	"grappled":    {Glyph: "⊗", Legend: "Grappled"},
	"drop":        {Glyph: "↯", Legend: "Has the Drop", Tone: board.Good},
}
