package prep

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
)

// Battlefield is a zones battlefield as the setup document carries it.
type Battlefield struct {
	Zones  []Zone  `json:"zones"`
	Melees []Melee `json:"melees,omitempty"`
}

// Zone is one zone of a zones battlefield.
type Zone struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Cover       string   `json:"cover,omitempty"`
	CoverArmor  int      `json:"coverArmor,omitempty"`
	Adjacent    []string `json:"adjacent"`
}

// Melee is a starting melee.
type Melee struct {
	ID      string   `json:"id"`
	Zone    string   `json:"zone"`
	Members []string `json:"members"`
}

// Start is a combatant's starting position on a zones battlefield.
type Start struct {
	Zone string `json:"zone"`
}

// NewDraftSetup is the setup a new draft starts from: two sides, no one,
// and an empty battlefield of the ruleset's kind.
func NewDraftSetup(rs engine.Ruleset, name string) engine.Setup {
	s := engine.Setup{Name: name, Ruleset: rs.ID(), Options: map[string]string{},
		Sides:      []engine.Side{{ID: "heroes", Name: "Heroes"}, {ID: "foes", Name: "Foes"}},
		Combatants: []engine.CombatantSetup{}}
	if ZonesOf(rs) {
		s.Battlefield, _ = json.Marshal(Battlefield{Zones: []Zone{}})
	}
	return s
}

// ZonesOf reports whether rs builds zones battlefields.
func ZonesOf(rs engine.Ruleset) bool {
	k, ok := rs.(engine.BattlefieldKinder)
	return ok && k.BattlefieldKind() == "zones"
}

// Check validates a setup as creating an encounter would, storing nothing.
func Check(rules *engine.Registry, s engine.Setup) error {
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	_, err = Prepare(rules, data)
	return err
}

// ReadBattlefield decodes a zones battlefield (empty when absent).
func ReadBattlefield(s engine.Setup) (Battlefield, error) {
	var b Battlefield
	if len(s.Battlefield) > 0 && string(s.Battlefield) != "null" {
		if err := json.Unmarshal(s.Battlefield, &b); err != nil {
			return b, fray.Errorf(fray.EINVALID, "battlefield: %v", err)
		}
	}
	if b.Zones == nil {
		b.Zones = []Zone{}
	}
	return b, nil
}

// WriteBattlefield stores b in s.
func WriteBattlefield(s *engine.Setup, b Battlefield) {
	s.Battlefield, _ = json.Marshal(b)
}

// StartZone is a combatant's starting zone ("" when unknown).
func StartZone(c engine.CombatantSetup) string {
	var st Start
	_ = json.Unmarshal(c.Start, &st)
	return st.Zone
}

// SetStartZone places c in zone.
func SetStartZone(c *engine.CombatantSetup, zone string) {
	if zone == "" {
		c.Start = nil
		return
	}
	c.Start, _ = json.Marshal(Start{Zone: zone})
}

// Used returns the ids of the setup's combatants.
func Used(s engine.Setup) map[string]bool {
	m := map[string]bool{}
	for _, c := range s.Combatants {
		m[c.ID] = true
	}
	return m
}

// AddCopies adds n copies of a stat block, numbered "Name 1" … "Name n"
// when n > 1 (continuing after copies already there), with unique ids.
func AddCopies(s *engine.Setup, name string, stats json.RawMessage, n int, side, zone string, hidden, pc bool, id string) error {
	if n < 1 || n > 50 {
		return fray.Errorf(fray.EINVALID, "add 1–50 copies")
	}
	used := Used(*s)
	if pc {
		if used[id] {
			return fray.Errorf(fray.ECONFLICT, "%s is already in this encounter", name)
		}
		c := engine.CombatantSetup{Combatant: engine.Combatant{ID: id, Name: name, Side: side, PC: true, Hidden: hidden}, Stats: stats}
		SetStartZone(&c, zone)
		s.Combatants = append(s.Combatants, c)
		return nil
	}
	first := 1
	if n > 1 {
		for _, c := range s.Combatants {
			if rest, ok := strings.CutPrefix(c.Name, name+" "); ok {
				if k, err := strconv.Atoi(rest); err == nil && k >= first {
					first = k + 1
				}
			}
		}
	}
	for i := range n {
		cname := name
		if n > 1 {
			cname = fmt.Sprintf("%s %d", name, first+i)
		}
		cid := engine.UniqueSlug(cname, used)
		used[cid] = true
		c := engine.CombatantSetup{Combatant: engine.Combatant{ID: cid, Name: cname, Side: side, Hidden: hidden}, Stats: stats}
		SetStartZone(&c, zone)
		s.Combatants = append(s.Combatants, c)
	}
	return nil
}

// RemoveCombatant drops a combatant and its place in starting melees.
func RemoveCombatant(s *engine.Setup, id string) {
	s.Combatants = slices.DeleteFunc(s.Combatants, func(c engine.CombatantSetup) bool { return c.ID == id })
	if b, err := ReadBattlefield(*s); err == nil && len(s.Battlefield) > 0 {
		for i := range b.Melees {
			b.Melees[i].Members = slices.DeleteFunc(b.Melees[i].Members, func(m string) bool { return m == id })
		}
		b.Melees = slices.DeleteFunc(b.Melees, func(m Melee) bool { return len(m.Members) < 2 })
		WriteBattlefield(s, b)
	}
}
