package d20tactical

import "github.com/fray-vtt/fray/internal/board"

// icons are how the board draws d20-tactical's conditions, by the key
// conditions() names them with: a glyph, what it stands for, and a tone.
var icons = map[string]board.Icon{
	"dying":       {Glyph: "☠", Legend: "Dying", Tone: board.Bad},
	"unconscious": {Glyph: "☾", Legend: "Stable, unconscious", Tone: board.Bad},
	"wounded":     {Glyph: "✚", Legend: "Disabled or hurt"},
	"unaware":     {Glyph: "?", Legend: "Flat-footed"},
	"running":     {Glyph: "»", Legend: "Charging"},
	"disarmed":    {Glyph: "✗", Legend: "Disarmed"},
	"stunned":     {Glyph: "✺", Legend: "Groin hit"},
	"cover":       {Glyph: "▙", Legend: "In cover", Tone: board.Good},
	"winded":      {Glyph: "≈", Legend: "Winded"},
	"hold":        {Glyph: "‖", Legend: "Ready", Tone: board.Good},
	"jammed":      {Glyph: "⚙", Legend: "Jammed weapon"},
	"crouching":   {Glyph: "⇣", Legend: "Crouched"},
	"lying":       {Glyph: "⇊", Legend: "Prone"},
}

// poses are the postures the board draws on a token (standing is none).
var poses = map[string]board.Pose{
	Crouched: {ID: Crouched, Label: "Crouched", Icon: board.Icon{Glyph: "⇣", Legend: "Crouched"}, Shape: board.Low,
		Text: "Half height: more cover; +1 to shoot; melee −2 (and +2 to be hit)."},
	Prone: {ID: Prone, Label: "Prone", Icon: board.Icon{Glyph: "⇊", Legend: "Prone"}, Shape: board.Flat,
		Text: "A quarter of the height: crawls; +1 to shoot and one range step better; melee −4 (+4 to be hit)."},
}

// pose is how the board draws a posture: nil when standing.
func pose(posture string) *board.Pose {
	s, ok := poses[posture]
	if !ok {
		return nil
	}
	return &s
}
