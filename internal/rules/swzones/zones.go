package swzones

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/fray"
)

// The battlefield is a graph of zones. A zone holds any number of fighters,
// each either unengaged or in exactly one melee; a zone may hold several
// independent melees. Every member of a melee is adjacent to every opponent
// in it ([I] of the seed's gang-up rule), so gang-up and free attacks count
// the whole melee.

// Limits on a battlefield. The seed expects 3–6 zones.
const (
	MinZones = 1
	MaxZones = 12
)

// Cover levels a zone may give.
var coverLevels = []string{"light", "medium", "heavy", "near-total"}

// Zone is one fighting area.
type Zone struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Cover       string   `json:"cover,omitempty"`      // "", "light", "medium", "heavy", "near-total"
	CoverArmor  int      `json:"coverArmor,omitempty"` // the cover's Armour, for shots that hit it
	Adjacent    []string `json:"adjacent"`
	// X and Y place the zone on the page's map, when the setup says.
	X *int `json:"x,omitempty"`
	Y *int `json:"y,omitempty"`
	// W and H are the columns and rows it spans there (0: one).
	W int `json:"w,omitempty"`
	H int `json:"h,omitempty"`
}

// Melee is one group of fighters engaged with each other in a zone.
type Melee struct {
	ID      string   `json:"id"`
	Zone    string   `json:"zone"`
	Members []string `json:"members"`
}

// zone returns the zone with id, or nil.
func (s *State) zone(id string) *Zone {
	for i := range s.Zones {
		if s.Zones[i].ID == id {
			return &s.Zones[i]
		}
	}
	return nil
}

// melee returns the melee with id, or nil.
func (s *State) melee(id string) *Melee {
	for i := range s.Melees {
		if s.Melees[i].ID == id {
			return &s.Melees[i]
		}
	}
	return nil
}

// adjacent reports whether zones a and b share a border.
func (s *State) adjacent(a, b string) bool {
	z := s.zone(a)
	return z != nil && slices.Contains(z.Adjacent, b)
}

// Distance is the number of borders between zones a and b (0 for the same
// zone), found breadth-first; -1 when there is no path.
func (s *State) Distance(a, b string) int {
	if a == b {
		return 0
	}
	dist := map[string]int{a: 0}
	queue := []string{a}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		z := s.zone(cur)
		if z == nil {
			continue
		}
		for _, n := range z.Adjacent {
			if _, seen := dist[n]; seen {
				continue
			}
			dist[n] = dist[cur] + 1
			if n == b {
				return dist[n]
			}
			queue = append(queue, n)
		}
	}
	return -1
}

// side returns a fighter's side id.
func (s *State) side(id string) string {
	if c := s.Combatant(id); c != nil {
		return c.Side
	}
	return ""
}

// opponents reports whether two fighters are on different sides.
func (s *State) opponents(a, b string) bool { return s.side(a) != s.side(b) }

// gangUp is the attacker's gang-up bonus against target in their melee:
// attackers' side members minus defenders' side members, from 0 to +4.
// Fighters who are out are not in melees, so they never count.
func (s *State) gangUp(attacker, target string) (bonus, attackers, defenders int) {
	f := s.Fighters[target]
	m := s.melee(f.Melee)
	if m == nil {
		return 0, 0, 0
	}
	for _, id := range m.Members {
		switch s.side(id) {
		case s.side(attacker):
			attackers++
		case s.side(target):
			defenders++
		}
	}
	return min(max(attackers-defenders, 0), 4), attackers, defenders
}

// newMeleeID returns a melee id no melee uses yet.
func (s *State) newMeleeID() string {
	for n := len(s.Melees) + 1; ; n++ {
		id := fmt.Sprintf("m%d", n)
		if s.melee(id) == nil {
			return id
		}
	}
}

// leaveMelee takes a fighter out of their melee. A melee left without
// opponents in it is over: its remaining members become unengaged.
func (s *State) leaveMelee(id string) {
	f := s.Fighters[id]
	if f == nil || f.Melee == "" {
		return
	}
	// A grapple ends when either side leaves the melee.
	f.Grip = nil
	for _, g := range s.Fighters {
		if g.Grip != nil && g.Grip.By == id {
			g.Grip = nil
		}
	}
	m := s.melee(f.Melee)
	f.Melee = ""
	if m == nil {
		return
	}
	m.Members = slices.DeleteFunc(m.Members, func(x string) bool { return x == id })
	sides := map[string]bool{}
	for _, x := range m.Members {
		sides[s.side(x)] = true
	}
	if len(sides) < 2 {
		for _, x := range m.Members {
			s.Fighters[x].Melee = ""
		}
		meleeID := m.ID
		s.Melees = slices.DeleteFunc(s.Melees, func(m Melee) bool { return m.ID == meleeID })
	}
}

// --- setup parsing ---

// The setup's battlefield is a board.Battlefield under the zones model:
// zones with their borders and props (cover, coverArmor — see Editor),
// and the starting melees as groups.

var zoneIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// parseBattlefield reads the zones of a setup's battlefield, makes adjacency
// symmetric (a border listed on one side is a border on both) and checks the
// graph is connected. Melees are read later, once fighters are placed.
func parseBattlefield(raw json.RawMessage) ([]Zone, []board.GroupSetup, error) {
	bad := func(format string, args ...any) error {
		return fray.Errorf(fray.EINVALID, "battlefield: "+format, args...)
	}
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, bad("is required: {\"zones\":[…],\"melees\":[…]}")
	}
	bf, err := board.Read(raw)
	if err != nil {
		return nil, nil, fray.Errorf(fray.EINVALID, "%v", err)
	}
	if bf.Model != "" && bf.Model != board.Zones {
		return nil, nil, bad("sw-zones fights in zones, not on a %q battlefield", bf.Model)
	}
	if bf.Width != 0 || bf.Height != 0 || len(bf.Cells) > 0 || len(bf.Pairs) > 0 || len(bf.Distances) > 0 {
		return nil, nil, bad("sw-zones uses zones and melees only (no width, height, cells, pairs or distances)")
	}
	if len(bf.Zones) < MinZones || len(bf.Zones) > MaxZones {
		return nil, nil, bad("needs %d–%d zones, has %d", MinZones, MaxZones, len(bf.Zones))
	}
	zones := make([]Zone, len(bf.Zones))
	index := map[string]int{}
	for i, zs := range bf.Zones {
		if !zoneIDPattern.MatchString(zs.ID) {
			return nil, nil, bad("zone id %q must be 1–64 letters, digits, '-' or '_'", zs.ID)
		}
		if _, dup := index[zs.ID]; dup {
			return nil, nil, bad("zone id %q is used twice", zs.ID)
		}
		index[zs.ID] = i
		z := Zone{ID: zs.ID, Name: strings.TrimSpace(zs.Name), Description: strings.TrimSpace(zs.Description), Adjacent: []string{}}
		if z.Name == "" {
			z.Name = zs.ID
		}
		if len(z.Name) > 80 || len(z.Description) > 1000 {
			return nil, nil, bad("zone %s: name (80) or description (1000 characters) is too long", zs.ID)
		}
		if err := board.CheckProps(editor.Area, zs.Props, "zone "+zs.ID); err != nil {
			return nil, nil, bad("%v", err)
		}
		z.Cover = zs.Props.String(PropCover)
		z.CoverArmor = zs.Props.Int(PropCoverArmor)
		if z.CoverArmor > 0 && z.Cover == "" {
			return nil, nil, bad("zone %s: coverArmor needs a cover level", zs.ID)
		}
		if (zs.X == nil) != (zs.Y == nil) || (zs.X != nil && (*zs.X < 0 || *zs.X > 11 || *zs.Y < 0 || *zs.Y > 11)) {
			return nil, nil, bad("zone %s: x and y go together, each 0–11", zs.ID)
		}
		if err := board.CheckSpan(zs); err != nil {
			return nil, nil, bad("%v", err)
		}
		z.X, z.Y, z.W, z.H = zs.X, zs.Y, zs.W, zs.H
		zones[i] = z
	}
	link := func(a, b int) {
		if !slices.Contains(zones[a].Adjacent, zones[b].ID) {
			zones[a].Adjacent = append(zones[a].Adjacent, zones[b].ID)
		}
	}
	for i, zs := range bf.Zones {
		for _, n := range zs.Adjacent {
			j, ok := index[n]
			if !ok {
				return nil, nil, bad("zone %s is adjacent to unknown zone %q", zs.ID, n)
			}
			if j == i {
				return nil, nil, bad("zone %s cannot be adjacent to itself", zs.ID)
			}
			link(i, j)
			link(j, i)
		}
	}
	// Keep each zone's neighbours in battlefield order.
	for i := range zones {
		slices.SortFunc(zones[i].Adjacent, func(a, b string) int { return index[a] - index[b] })
	}
	// Connected: every zone reachable from the first.
	reached := map[string]bool{zones[0].ID: true}
	queue := []string{zones[0].ID}
	for len(queue) > 0 {
		z := zones[index[queue[0]]]
		queue = queue[1:]
		for _, n := range z.Adjacent {
			if !reached[n] {
				reached[n] = true
				queue = append(queue, n)
			}
		}
	}
	for _, z := range zones {
		if !reached[z.ID] {
			return nil, nil, bad("zone %s cannot be reached from %s: the zones must be connected", z.ID, zones[0].ID)
		}
	}
	return zones, bf.Melees, nil
}

// placeMelees checks the setup's melees against the placed fighters and
// records membership.
func (s *State) placeMelees(melees []board.GroupSetup) error {
	bad := func(format string, args ...any) error {
		return fray.Errorf(fray.EINVALID, "battlefield: "+format, args...)
	}
	s.Melees = []Melee{}
	for _, ms := range melees {
		if !zoneIDPattern.MatchString(ms.ID) {
			return bad("melee id %q must be 1–64 letters, digits, '-' or '_'", ms.ID)
		}
		if s.melee(ms.ID) != nil {
			return bad("melee id %q is used twice", ms.ID)
		}
		if s.zone(ms.Zone) == nil {
			return bad("melee %s is in unknown zone %q", ms.ID, ms.Zone)
		}
		m := Melee{ID: ms.ID, Zone: ms.Zone, Members: []string{}}
		sides := map[string]bool{}
		for _, id := range ms.Members {
			f := s.Fighters[id]
			if f == nil {
				return bad("melee %s: unknown combatant %q", ms.ID, id)
			}
			if f.Melee != "" {
				return bad("combatant %s is in two melees (%s and %s)", id, f.Melee, ms.ID)
			}
			if f.Zone != ms.Zone {
				return bad("melee %s is in zone %s but %s starts in zone %s", ms.ID, ms.Zone, id, f.Zone)
			}
			f.Melee = ms.ID
			m.Members = append(m.Members, id)
			sides[s.side(id)] = true
		}
		if len(sides) < 2 {
			return bad("melee %s needs fighters from at least two sides", ms.ID)
		}
		s.Melees = append(s.Melees, m)
	}
	return nil
}

// capitalize upper-cases the first letter of an ASCII word.
func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
