package d6bands

import "github.com/fray-vtt/fray/internal/board"

// icons are how the board draws d6-bands' conditions, by the key
// conditions() names them with: a glyph, what it stands for, and a tone.
var icons = map[string]board.Icon{
	"unconscious": {Glyph: "☾", Legend: "Unconscious", Tone: board.Bad},
	"prone":       {Glyph: "⇊", Legend: "Prone"},
	"mounted":     {Glyph: "♞", Legend: "Mounted"},
	"wounded":     {Glyph: "✚", Legend: "Wounded"},
	"bleeding":    {Glyph: "♥", Legend: "Bleeding", Tone: board.Bad},
	"running":     {Glyph: "»", Legend: "Dashed"},
	"cover":       {Glyph: "▙", Legend: "In cover", Tone: board.Good},
	"hidden":      {Glyph: "◌", Legend: "Hidden", Tone: board.Good},
	"unaware":     {Glyph: "?", Legend: "Unnoticed", Tone: board.Good},
	"aiming":      {Glyph: "◎", Legend: "Aiming", Tone: board.Good},
	"shaken":      {Glyph: "✶", Legend: "Terrified"},
	"jammed":      {Glyph: "⚙", Legend: "Jammed or broken weapon"},
}
