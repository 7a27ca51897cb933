package kitskirmish

import (
	"encoding/json"
	"strconv"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
	"github.com/fray-vtt/fray/internal/sheet"
)

// Stats are a fighter's own numbers (a combatant's "stats" in the setup):
// only its hit points, when they differ from the encounter's — the
// ogre among goblins. Empty stats take the encounter's.
//
//	{"hp": 4}
type Stats struct {
	HP int `json:"hp,omitempty"`
}

// Hit points a fighter's stats may give, the option's range.
const minHP, maxHP = 1, 10

// readStats reads and checks a fighter's stats; none is no change.
func readStats(raw json.RawMessage) (Stats, error) {
	var in struct {
		HP *int `json:"hp"`
	}
	if err := kit.Stats(raw, &in); err != nil {
		return Stats{}, err
	}
	if in.HP == nil {
		return Stats{}, nil
	}
	if *in.HP < minHP || *in.HP > maxHP {
		return Stats{}, fray.Errorf(fray.EINVALID, "stats: hit points are %d to %d, not %d", minHP, maxHP, *in.HP)
	}
	return Stats{HP: *in.HP}, nil
}

// Schema implements sheet.Schemaer: the one field of the stat editor, so
// a GM can keep kit-skirmish fighters in the bestiary and the players
// their characters, and draft encounters with them.
func (Ruleset) Schema() sheet.Schema {
	return sheet.Schema{Fields: []sheet.Field{{Name: "hp", Label: "Hit points", Type: sheet.FieldInt, Group: "Fighter",
		Help: "1–10. Empty: the encounter's (option hp, 2 unless it says otherwise)."}}}
}

// Derive implements sheet.Deriver: the stats checked as setup checks them,
// and the hit points they give.
func (Ruleset) Derive(raw json.RawMessage) (map[string]string, error) {
	s, err := readStats(raw)
	if err != nil {
		return nil, err
	}
	if s.HP == 0 {
		return map[string]string{"Hit points": "the encounter's"}, nil
	}
	return map[string]string{"Hit points": strconv.Itoa(s.HP)}, nil
}
