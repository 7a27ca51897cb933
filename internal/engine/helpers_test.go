package engine_test

import "github.com/fray-vtt/fray/internal/dice"

func rollOf(label string, sides int, faces ...int) dice.Roll {
	d := dice.Die{Sides: sides, Faces: faces}
	return dice.Roll{Label: label, Dice: []dice.Die{d}, Total: d.Total()}
}
