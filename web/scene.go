package web

import (
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// mapFit is the scene laid under the board as a map, in the board's own
// units (engine.SceneFit): on a grid, squares; on a zones board, the zone
// map's columns and rows.
type mapFit struct {
	URL        string
	X, Y, W, H string
}

// sceneMap returns the scene as a map laid under this board at the GM's
// scale, or false when the scene (if any) fills the board instead: no
// fit, or a position model without units to lay it in.
func (m *model) sceneMap() (mapFit, bool) {
	f := m.v.SceneFit
	if m.v.Scene == "" || f == nil || f.W <= 0 || f.H <= 0 {
		return mapFit{}, false
	}
	switch {
	case m.board.Model == board.Grid && m.board.Grid != nil, m.board.Model == board.Zones && m.board.Zones != nil:
		return mapFit{URL: m.v.Scene, X: f2(f.X), Y: f2(f.Y), W: f2(f.W), H: f2(f.H)}, true
	}
	return mapFit{}, false
}

// sceneFills reports whether the scene is drawn filling the board (behind
// it, cropped to its shape).
func (m *model) sceneFills() bool {
	_, mapped := m.sceneMap()
	return m.v.Scene != "" && !mapped
}

// fitValues are a fit's x, y, w and h for a form, empty without one.
func fitValues(f *engine.SceneFit) [4]string {
	if f == nil {
		return [4]string{}
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	return [4]string{g(f.X), g(f.Y), g(f.W), g(f.H)}
}

// portraitLabel labels a character page's portrait upload.
func portraitLabel(current string) string {
	if current == "" {
		return "Add a portrait"
	}
	return "Change the portrait"
}

// pictureID is a picture's asset id (its URL without the prefix).
func pictureID(p Picture) string { return strings.TrimPrefix(p.URL, engine.AssetPrefix) }

// sceneSize says the scene's stored size in pixels, so a GM who knows
// their map's pixels per square can work out the squares it covers; ""
// when unknown.
func (p DraftProps) sceneSize() string {
	for _, pic := range p.Pictures {
		if pic.URL == p.Scene && pic.Width > 0 && pic.Height > 0 {
			return "The scene is stored at " + strconv.Itoa(pic.Width) + " × " + strconv.Itoa(pic.Height) +
				" pixels: with one square every N pixels of it, it covers " + strconv.Itoa(pic.Width) + "/N × " + strconv.Itoa(pic.Height) + "/N squares."
		}
	}
	return ""
}
