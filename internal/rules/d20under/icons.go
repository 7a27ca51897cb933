package d20under

import "github.com/fray-vtt/fray/internal/board"

// icons are how the board draws d20-under's conditions, by the key
// conditions() names them with: a glyph, what it stands for, and a tone.
var icons = map[string]board.Icon{
	"dying":       {Glyph: "☠", Legend: "Dying", Tone: board.Bad},
	"unconscious": {Glyph: "☾", Legend: "Unconscious", Tone: board.Bad},
	"prone":       {Glyph: "⇊", Legend: "Prone"},
	"wounded":     {Glyph: "✚", Legend: "Critical Damage"},
	"blinded":     {Glyph: "⊘", Legend: "Blinded"},
	"roused":      {Glyph: "⚑", Legend: "Roused", Tone: board.Good},
	"running":     {Glyph: "»", Legend: "Took the initiative"},
	"defending":   {Glyph: "◊", Legend: "Full Defence", Tone: board.Good},
	"offense":     {Glyph: "⚔", Legend: "Full Offense"},
	"held":        {Glyph: "✋", Legend: "Held"},
	"hold":        {Glyph: "‖", Legend: "Holding"},
	"immobile":    {Glyph: "⚓", Legend: "Caught in a trap"},
	"limb":        {Glyph: "⊖", Legend: "Wounded limb"},
	"stunned":     {Glyph: "✺", Legend: "Winded"},
	"poisoned":    {Glyph: "☣", Legend: "Poisoned"},
	"cursed":      {Glyph: "☍", Legend: "Cursed"},
	"shaken":      {Glyph: "✶", Legend: "Terrified"},
	"fearless":    {Glyph: "◈", Legend: "Fearless", Tone: board.Good},
	"disarmed":    {Glyph: "✗", Legend: "Weapon not drawn"},
	"quick":       {Glyph: "ϟ", Legend: "Quick Strike", Tone: board.Good},
	"cowed":       {Glyph: "⊣", Legend: "Cowed"},
}
