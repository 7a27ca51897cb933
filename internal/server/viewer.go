package server

import (
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// viewerFor turns the ?as= parameter into a viewer. Until accounts exist a
// viewer picks who they are: "gm", or the id of a player character.
func viewerFor(st engine.State, as string) (engine.Viewer, error) {
	if as == engine.GM {
		return engine.GMViewer(), nil
	}
	c := st.Core().Combatant(as)
	if c == nil || !c.PC {
		return engine.Viewer{}, fray.Errorf(fray.EINVALID, "open the encounter as %q or as one of its player characters", engine.GM)
	}
	return engine.PlayerViewer(c.ID), nil
}
