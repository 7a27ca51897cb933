package d20duel

import "github.com/fray-vtt/fray/internal/board"

// icons are how the board draws d20-duel's conditions, by the key
// conditions() names them with: a glyph, what it stands for, and a tone.
var icons = map[string]board.Icon{
	"fallen":   {Glyph: "⇊", Legend: "On the ground"},
	"disarmed": {Glyph: "✗", Legend: "Useless arm or dropped weapon"},
	"wounded":  {Glyph: "✚", Legend: "Crippled"},
	"dying":    {Glyph: "☠", Legend: "Would-kill wound", Tone: board.Bad},
}
