package kit

import (
	"encoding/json"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// Stats reads a combatant's stats (its "stats" in the setup) into v
// strictly, as commands are read: an unknown field, or one named in
// another case, is refused, so a typo in a stat block never silently
// becomes a default. Empty stats leave v as it is.
func Stats(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := strictjson.Unmarshal(raw, v); err != nil {
		return fray.Errorf(fray.EINVALID, "stats: %v", err)
	}
	return nil
}
