package swzones

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/rules/kit"
)

// Templates by zone (seed 8):
//   - Small Burst: one character, or every character of one melee;
//   - Medium Burst: a whole zone;
//   - Large Burst: a zone and one zone next to it;
//   - Cone: one target in the attacker's zone, plus a Small Burst in the
//     same or a neighbouring zone;
//   - Jet: a Small Burst in the attacker's zone, plus one target in the same
//     or a neighbouring zone.
// Both parts of a Cone or Jet are optional and it covers both (the cone-jet
// option: only one of them).
//
// An area attack ("area" with a grenade, launcher or flamethrower; "cast"
// with a power) rolls its skill against 4 (a weapon's range band penalty
// applies; a power's range is a limit only). Where it lands (the "aim") is
// asked of the attacker after they pick the weapon, or given in the command.
// Then (seed 9):
//   - on a hit, everyone covered but the attacker is a victim; the attacker's
//     allies may roll Agility to dive out, and with a raise they are spared
//     without a roll;
//   - a Burst that misses deviates to a random neighbouring zone (a recorded
//     die); a Small or Large Burst's exact spot there is the GM's to decide
//     (scatter-placement); everyone it covers may dive out, at −2
//     (scatter-dodge) — the thrower too when it deviated into the
//     thrower's zone (scatter-thrower). A Cone or Jet that misses hits no one;
//   - each victim left takes the damage, rolled separately (no raise bonus
//     for area attacks), and may Soak.
// A dive-out is a reaction: each player whose fighter may dive is asked at
// once; the GM's fighters roll at once (npc-dive).
// A beneficial power (relief: ends Shaken) helps everyone it covers, the
// caster's enemies too — unless the casting roll gets a raise.

var templates = []string{"small", "medium", "large", "cone", "jet"}

// burst reports whether a template is a Burst (which deviates on a miss).
func burst(template string) bool {
	return template == "small" || template == "medium" || template == "large"
}

// areaTool is an area weapon or a power, as an attack uses it.
type areaTool struct {
	ID         string  `json:"id"`
	Name       string  `json:"name"`
	Power      bool    `json:"power,omitempty"`
	Template   string  `json:"template,omitempty"` // "" for a bolt (one target)
	Skill      string  `json:"skill"`
	Damage     *Damage `json:"damage,omitempty"`
	Range      []int   `json:"range,omitempty"` // a weapon's bands in zones
	Reach      int     `json:"reach"`           // the farthest zone it reaches
	Beneficial bool    `json:"beneficial,omitempty"`
}

func (t areaTool) deviates() bool { return burst(t.Template) && !t.Beneficial }

func (t areaTool) weapon() Weapon {
	w := Weapon{ID: t.ID, Name: t.Name, Template: t.Template}
	if t.Damage != nil {
		w.Damage = *t.Damage
	}
	return w
}

// tool finds f's area weapon or power id.
func (s *State) tool(f *Fighter, id string, power bool) (areaTool, error) {
	if power {
		for _, p := range f.Powers {
			if p.ID == id {
				return areaTool{ID: p.ID, Name: p.Name, Power: true, Template: p.Template, Skill: p.Skill, Damage: p.Damage,
					Reach: p.Reach, Beneficial: p.Effect == EffectRelief}, nil
			}
		}
		if id == "" && len(f.Powers) > 0 {
			return s.tool(f, f.Powers[0].ID, true)
		}
		if len(f.Powers) == 0 {
			return areaTool{}, fray.Errorf(fray.EILLEGAL, "%s has no powers", s.NameOf(f.ID))
		}
		return areaTool{}, fray.Errorf(fray.ENOTFOUND, "%s has no power %q", s.NameOf(f.ID), id)
	}
	if id == "" {
		for _, w := range f.Weapons {
			if w.Area() {
				id = w.ID
				break
			}
		}
		if id == "" {
			return areaTool{}, fray.Errorf(fray.EILLEGAL, "%s has no area weapon", s.NameOf(f.ID))
		}
	}
	w, ok := f.Weapon(id)
	if !ok {
		return areaTool{}, fray.Errorf(fray.ENOTFOUND, "%s has no weapon %q", s.NameOf(f.ID), id)
	}
	if !w.Area() {
		return areaTool{}, fray.Errorf(fray.EILLEGAL, "%s covers no area: fight or shoot with it", w.Name)
	}
	t := areaTool{ID: w.ID, Name: w.Name, Template: w.Template, Skill: skillShooting, Damage: &w.Damage, Range: w.Range}
	if w.Thrown {
		t.Skill = shootingSkill(s, w)
	}
	if len(w.Range) == 3 {
		t.Reach = maxReach(&s.Base, w)
	}
	return t, nil
}

// aimCtx is an aim decision's context: the attack waiting for its aim.
type aimCtx struct {
	Attacker string `json:"attacker"`
	Tool     string `json:"tool"`
	Power    bool   `json:"power,omitempty"`
	Declared int    `json:"declared,omitempty"`
	Spare    int    `json:"spare,omitempty"`
}

// decideArea handles "area" (power false) and "cast" (power true).
func decideArea(tx *Tx, cmd engine.Command, power bool) error {
	var args struct {
		Weapon  string  `json:"weapon"`
		Power   string  `json:"power"`
		At      string  `json:"at"`
		Actions flexInt `json:"actions"`
		Spare   flexInt `json:"spare"`
	}
	f, err := tx.Actor(cmd, &args)
	if err != nil {
		return err
	}
	st := tx.State
	id := args.Weapon
	switch {
	case power && args.Weapon != "":
		return fray.Errorf(fray.EINVALID, "cast takes a power, not a weapon")
	case !power && args.Power != "":
		return fray.Errorf(fray.EINVALID, "area takes a weapon; cast a power")
	case power:
		id = args.Power
	}
	tool, err := st.tool(f, id, power)
	if err != nil {
		return err
	}
	req := actionReq{Declared: int(args.Actions), Spare: int(args.Spare)}
	if _, _, err := actionMods(st, f, req); err != nil {
		return err
	}
	choices := st.aims(f, tool)
	if len(choices) == 0 {
		return fray.Errorf(fray.EILLEGAL, "%s: nothing %s can reach", tool.Name, st.NameOf(f.ID))
	}
	if args.At == "" {
		prompt := fmt.Sprintf("Where does %s aim %s?", st.PublicNameOf(f.ID), tool.Name)
		if tool.Template != "" {
			prompt = fmt.Sprintf("Where does %s aim %s (%s)?", st.PublicNameOf(f.ID), tool.Name, templateName(tool.Template))
		}
		options := append(slices.Clone(choices), engine.Choice{Value: "cancel", Label: "Cancel"})
		return tx.AskWith(engine.Decision{For: f.ID, Kind: DecAim, Prompt: prompt, Options: options},
			Cont{Aim: &aimCtx{Attacker: f.ID, Tool: tool.ID, Power: power, Declared: req.Declared, Spare: req.Spare}})
	}
	if !slices.ContainsFunc(choices, func(c engine.Choice) bool { return c.Value == args.At }) {
		return fray.Errorf(fray.EILLEGAL, "%s cannot aim %s at %q", st.NameOf(f.ID), tool.Name, args.At)
	}
	return fire(tx, f, tool, args.At, req)
}

func answerAim(tx *Tx, c Cont, ans engine.Answered) error {
	if ans.Choice == "cancel" {
		return nil
	}
	a := *c.Aim
	st := tx.State
	f := st.Fighters[a.Attacker]
	tool, err := st.tool(f, a.Tool, a.Power)
	if err != nil {
		return err
	}
	return fire(tx, f, tool, ans.Choice, actionReq{Declared: a.Declared, Spare: a.Spare})
}

func templateName(t string) string {
	switch t {
	case "small", "medium", "large":
		return traitLabel(t) + " Burst"
	}
	return traitLabel(t)
}

// fire rolls an aimed area attack, or a bolt.
func fire(tx *Tx, f *Fighter, tool areaTool, at string, req actionReq) error {
	st := tx.State
	mods, declare, err := actionMods(st, f, req)
	if err != nil {
		return err
	}
	if err := commitRefund(tx, f, req.Spare); err != nil {
		return err
	}
	if tool.Template == "" {
		t := st.Fighters[strings.TrimPrefix(at, "t:")]
		a := Attack{Kind: "cast", Action: true, Declared: declare, Distance: st.Distance(f.Zone, t.Zone), Skill: tool.Skill}
		s := rangedStrike(st, f, t, tool.weapon(), a, mods, st.zone(t.Zone).Cover, false, tool.Skill)
		return s.roll(tx)
	}
	shot := areaShot{Attacker: f.ID, Tool: tool, At: at, Action: true, Declared: declare}
	if burst(tool.Template) && !tool.Power {
		shot.Distance = st.Distance(f.Zone, aimZone(st, at))
		if band, ok := RangeBand(shot.Distance, tool.Range, extremeRange(&st.Base)); ok {
			shot.Band = band.Name
			if band.Penalty != 0 {
				mods = append(mods, Mod{Source: band.Name + " range", Value: band.Penalty})
			}
		}
	}
	shot.Check = check(f, tool.Skill, TargetNumber, mods...)
	shot.Check.Attack = !tool.Beneficial
	return shot.roll(tx)
}

// --- aims ---

// aims lists where f may aim tool: each value is an aim in the syntax the
// command's "at" takes, comma-separated parts of
//   - "t:ID", a single target (a bolt, a Cone's or Jet's target);
//   - "f:ID", a Small Burst on one character; "m:ID", on a whole melee;
//   - "z:ZONE", a Medium Burst; "z:ZONE+ZONE", a Large Burst.
func (s *State) aims(f *Fighter, t areaTool) []engine.Choice {
	visible := func(id string) bool {
		c := s.Combatant(id)
		if c.Out || id == f.ID && !t.Beneficial {
			return false
		}
		return !s.isPC(f.ID) || engine.Visible(s, engine.PlayerViewer(f.ID), id)
	}
	within := func(reach int) []string {
		var out []string
		for _, z := range s.Zones {
			if d := s.Distance(f.Zone, z.ID); d >= 0 && d <= reach {
				out = append(out, z.ID)
			}
		}
		return out
	}
	singles := func(zones []string, opponentsOnly bool) []engine.Choice {
		var out []engine.Choice
		for _, c := range s.Combatants {
			if visible(c.ID) && slices.Contains(zones, s.Fighters[c.ID].Zone) && (!opponentsOnly || s.opponents(c.ID, f.ID)) {
				out = append(out, engine.Choice{Value: "t:" + c.ID, Label: fmt.Sprintf("%s (%s)", c.Name, s.zone(s.Fighters[c.ID].Zone).Name)})
			}
		}
		return out
	}
	smalls := func(zones []string) []engine.Choice {
		var out []engine.Choice
		for _, z := range zones {
			for _, m := range s.Melees {
				if m.Zone != z {
					continue
				}
				var names []string
				for _, id := range m.Members {
					if visible(id) || id == f.ID {
						names = append(names, s.NameOf(id))
					}
				}
				if len(names) > 0 {
					out = append(out, engine.Choice{Value: "m:" + m.ID, Label: fmt.Sprintf("the melee in %s (%s)", s.zone(z).Name, strings.Join(names, ", "))})
				}
			}
			for _, c := range s.Combatants {
				if visible(c.ID) && s.Fighters[c.ID].Zone == z {
					out = append(out, engine.Choice{Value: "f:" + c.ID, Label: fmt.Sprintf("%s alone (%s)", c.Name, s.zone(z).Name)})
				}
			}
		}
		return out
	}
	here := []string{f.Zone}
	near := append([]string{f.Zone}, s.zone(f.Zone).Adjacent...)
	switch t.Template {
	case "":
		return singles(within(t.Reach), !t.Beneficial)
	case "small":
		return smalls(within(t.Reach))
	case "medium":
		var out []engine.Choice
		for _, z := range within(t.Reach) {
			out = append(out, engine.Choice{Value: "z:" + z, Label: s.zone(z).Name})
		}
		return out
	case "large":
		var out []engine.Choice
		seen := map[string]bool{}
		for _, z := range within(t.Reach) {
			for _, n := range s.zone(z).Adjacent {
				a, b := z, n
				if s.Distance(f.Zone, n) < s.Distance(f.Zone, z) {
					a, b = n, z
				}
				key := min(a, b) + "+" + max(a, b)
				if seen[key] {
					continue
				}
				seen[key] = true
				out = append(out, engine.Choice{Value: "z:" + a + "+" + b, Label: fmt.Sprintf("%s and %s", s.zone(a).Name, s.zone(b).Name)})
			}
		}
		return out
	}
	var targets, bursts []engine.Choice
	if t.Template == "cone" {
		targets, bursts = singles(here, true), smalls(near)
	} else {
		targets, bursts = singles(near, true), smalls(here)
	}
	out := append(slices.Clone(targets), bursts...)
	if kit.Opt(&s.Base, OptConeJet) == ConeEither {
		return out
	}
	for _, tc := range targets {
		for _, bc := range bursts {
			if bc.Value == "f:"+strings.TrimPrefix(tc.Value, "t:") {
				continue // the same character twice
			}
			out = append(out, engine.Choice{Value: tc.Value + "," + bc.Value, Label: strings.SplitN(tc.Label, " (", 2)[0] + " + " + bc.Label})
		}
	}
	return out
}

// aimZone is the zone an aim is centred on: a Large Burst's first zone.
func aimZone(s *State, at string) string {
	part := strings.Split(at, ",")[0]
	kind, id, _ := strings.Cut(part, ":")
	switch kind {
	case "t", "f":
		if f := s.Fighters[id]; f != nil {
			return f.Zone
		}
	case "m":
		if m := s.melee(id); m != nil {
			return m.Zone
		}
	case "z":
		z, _, _ := strings.Cut(id, "+")
		return z
	}
	return ""
}

// covered lists the fighters still in the fight an aim covers, in
// combatant order.
func (s *State) covered(at string) []string {
	in := map[string]bool{}
	for _, part := range strings.Split(at, ",") {
		kind, id, _ := strings.Cut(part, ":")
		switch kind {
		case "t", "f":
			in[id] = true
		case "m":
			if m := s.melee(id); m != nil {
				for _, x := range m.Members {
					in[x] = true
				}
			}
		case "z":
			for _, z := range strings.Split(id, "+") {
				for _, c := range s.Combatants {
					if s.Fighters[c.ID].Zone == z {
						in[c.ID] = true
					}
				}
			}
		}
	}
	var out []string
	for _, c := range s.Combatants {
		if in[c.ID] && !c.Out {
			out = append(out, c.ID)
		}
	}
	return out
}

// aimText words an aim for the log.
func aimText(s *State, at string) string {
	if at == "" {
		return "open ground"
	}
	var parts []string
	for _, part := range strings.Split(at, ",") {
		kind, id, _ := strings.Cut(part, ":")
		switch kind {
		case "t", "f":
			parts = append(parts, s.NameOf(id))
		case "m":
			if m := s.melee(id); m != nil {
				parts = append(parts, "the melee in "+s.zone(m.Zone).Name)
			} else {
				parts = append(parts, "a melee")
			}
		case "z":
			var names []string
			for _, z := range strings.Split(id, "+") {
				names = append(names, s.zone(z).Name)
			}
			parts = append(parts, strings.Join(names, " and "))
		}
	}
	return strings.Join(parts, " and ")
}

// --- the attack ---

// AreaAttack is the data of an area-attack event: the skill roll.
type AreaAttack struct {
	Attacker string `json:"attacker"`
	Source   string `json:"source"` // weapon or power id
	Power    bool   `json:"power,omitempty"`
	Template string `json:"template,omitempty"`
	At       string `json:"at"` // the aim
	Mods     []Mod  `json:"mods"`
	TN       int    `json:"tn"`
	Total    int    `json:"total"`
	Result   string `json:"result"`
	Raises   int    `json:"raises"`
	Band     string `json:"band,omitempty"`
	Action   bool   `json:"action,omitempty"`
	Declared int    `json:"declared,omitempty"`
	Reroll   bool   `json:"reroll,omitempty"`
}

// areaShot is an area attack ready to roll.
type areaShot struct {
	Attacker string   `json:"attacker"`
	Tool     areaTool `json:"tool"`
	At       string   `json:"at"`
	Check    Check    `json:"check"`
	Action   bool     `json:"action,omitempty"`
	Declared int      `json:"declared,omitempty"`
	Reroll   bool     `json:"reroll,omitempty"`
	Distance int      `json:"distance,omitempty"`
	Band     string   `json:"band,omitempty"`
}

func (a areaShot) roll(tx *Tx) error {
	st := tx.State
	o := rollTrait(tx.Dice, a.Check)
	d := AreaAttack{Attacker: a.Attacker, Source: a.Tool.ID, Power: a.Tool.Power, Template: a.Tool.Template, At: a.At,
		Mods: nonNil(o.Mods), TN: a.Check.Target, Total: o.Total, Result: o.Roll.Result, Raises: o.Raises, Band: a.Band,
		Action: a.Action && !a.Reroll, Declared: a.Declared, Reroll: a.Reroll}
	if a.Reroll {
		d.Declared = 0
	}
	verb := "throws"
	switch {
	case a.Tool.Power:
		verb = "casts"
	case a.Tool.Skill == skillShooting:
		verb = "fires"
	}
	text := fmt.Sprintf("%s %s %s at %s", st.NameOf(a.Attacker), verb, a.Tool.Name, aimText(st, a.At))
	if a.Band != "" {
		text += " (" + a.Band + " range)"
	}
	text += ": " + o.Roll.Result + "."
	if a.Reroll {
		text = "Reroll: " + text
	}
	if err := tx.Emits(KindAreaAttack, a.Attacker, text, d, o.Roll); err != nil {
		return err
	}
	if !o.Success && !o.CritFail && st.offers(OptRerollOffers, a.Attacker) {
		return offerReroll(tx, "missed with "+a.Tool.Name, rerollCtx{Area: &a})
	}
	if o.Success {
		return land(tx, landing{Shot: a, At: a.At, Raises: o.Raises})
	}
	return a.miss(tx)
}

// miss follows a failed area roll: a Burst deviates, anything else hits no
// one.
func (a areaShot) miss(tx *Tx) error {
	if !a.Tool.deviates() {
		return nil
	}
	return scatter(tx, a)
}

// AreaScatter is the data of an area-scatter event: where a missed burst
// deviates to.
type AreaScatter struct {
	Attacker string `json:"attacker"`
	Source   string `json:"source"`
	From     string `json:"from"`
	To       string `json:"to"`
	At       string `json:"at,omitempty"` // where it lands, when already known
}

// scatterCtx is a scatter decision's context.
type scatterCtx struct {
	Shot areaShot `json:"shot"`
	To   string   `json:"to"`
}

// scatter moves a missed burst to a random neighbouring zone (a recorded
// die) and places it there.
func scatter(tx *Tx, a areaShot) error {
	st := tx.State
	from := aimZone(st, a.At)
	to := from
	var rolls []dice.Roll
	if adj := st.zone(from).Adjacent; len(adj) > 0 {
		die, face := tx.Dice.Pick(len(adj))
		to = adj[face-1]
		rolls = append(rolls, dice.Roll{Label: "Deviation", Who: a.Attacker, Dice: []dice.Die{die}, Total: face, Result: st.zone(to).Name})
	}
	d := AreaScatter{Attacker: a.Attacker, Source: a.Tool.ID, From: from, To: to}
	options := scatterSpots(st, a.Tool.Template, to)
	at := ""
	decide := false
	switch {
	case a.Tool.Template == "medium":
		at = "z:" + to
	case a.Tool.Template == "large" && len(options) == 0:
		at = "z:" + to
	case len(options) == 0:
	case len(options) == 1 && a.Tool.Template == "large":
		at = options[0].Value
	case kit.Opt(&st.Base, OptScatterPlacement) == PlaceRandom:
		die, face := tx.Dice.Pick(len(options))
		at = options[face-1].Value
		rolls = append(rolls, dice.Roll{Label: "Where it lands", Who: a.Attacker, Dice: []dice.Die{die}, Total: face, Result: options[face-1].Label})
	default:
		decide = true
	}
	d.At = at
	text := fmt.Sprintf("%s deviates from %s to %s.", a.Tool.Name, st.zone(from).Name, st.zone(to).Name)
	if from == to {
		text = fmt.Sprintf("%s goes astray but stays in %s (no neighbouring zone).", a.Tool.Name, st.zone(to).Name)
	}
	if err := tx.Emits(KindAreaScatter, a.Attacker, text, d, rolls...); err != nil {
		return err
	}
	if decide {
		if a.Tool.Template == "small" {
			options = append(options, engine.Choice{Value: "open", Label: "Open ground (no one)"})
		}
		prompt := fmt.Sprintf("Where in %s does %s's %s land?", st.zone(to).Name, st.PublicNameOf(a.Attacker), a.Tool.Name)
		return tx.AskWith(engine.Decision{For: engine.GM, Kind: DecScatter, Prompt: prompt, Default: options[0].Value, Options: options},
			Cont{Scatter: &scatterCtx{Shot: a, To: to}})
	}
	return land(tx, landing{Shot: a, At: at, Deviated: true})
}

// scatterSpots lists where in zone a deviated Small or Large Burst may land.
func scatterSpots(st *State, template, zone string) []engine.Choice {
	var out []engine.Choice
	switch template {
	case "small":
		for _, m := range st.Melees {
			if m.Zone == zone {
				out = append(out, engine.Choice{Value: "m:" + m.ID, Label: "the melee: " + strings.Join(names(st, m.Members), ", ")})
			}
		}
		for _, c := range st.Combatants {
			if f := st.Fighters[c.ID]; !c.Out && f.Zone == zone && f.Melee == "" {
				out = append(out, engine.Choice{Value: "f:" + c.ID, Label: c.Name})
			}
		}
	case "large":
		for _, n := range st.zone(zone).Adjacent {
			out = append(out, engine.Choice{Value: "z:" + zone + "+" + n, Label: fmt.Sprintf("%s and %s", st.zone(zone).Name, st.zone(n).Name)})
		}
	}
	return out
}

func names(st *State, ids []string) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = st.NameOf(id)
	}
	return out
}

func answerScatter(tx *Tx, c Cont, ans engine.Answered) error {
	at := ans.Choice
	if ans.Choice == "open" {
		at = ""
	}
	return land(tx, landing{Shot: c.Scatter.Shot, At: at, Deviated: true})
}

// landing is an area attack arriving where it lands.
type landing struct {
	Shot     areaShot `json:"shot"`
	At       string   `json:"at"`
	Raises   int      `json:"raises"`
	Deviated bool     `json:"deviated,omitempty"`
}

// AreaLanded is the data of an area-landed event.
type AreaLanded struct {
	Attacker string   `json:"attacker"`
	Source   string   `json:"source"`
	At       string   `json:"at"`
	Deviated bool     `json:"deviated,omitempty"`
	Victims  []string `json:"victims"`
	Spared   []string `json:"spared,omitempty"` // allies spared by the attacker's raise
	Divers   []string `json:"divers,omitempty"` // who may roll Agility to dive out
	Penalty  int      `json:"penalty,omitempty"`
}

// AreaState is the area attack being resolved: who is caught, who escaped.
type AreaState struct {
	Victims []string `json:"victims"`
	Spared  []string `json:"spared,omitempty"`
}

// Relief is the data of a relief event: a beneficial area's effect.
type Relief struct {
	Caster    string   `json:"caster"`
	Source    string   `json:"source"`
	At        string   `json:"at"`
	Affected  []string `json:"affected"`
	Recovered []string `json:"recovered"` // no longer Shaken
}

func land(tx *Tx, l landing) error {
	st := tx.State
	a := l.Shot
	tool := a.Tool
	covered := st.covered(l.At)
	if tool.Beneficial {
		d := Relief{Caster: a.Attacker, Source: tool.ID, At: l.At, Affected: []string{}, Recovered: []string{}}
		for _, id := range covered {
			if st.opponents(id, a.Attacker) && l.Raises > 0 {
				continue // a raise keeps the benefit from the caster's enemies
			}
			d.Affected = append(d.Affected, id)
			if st.Fighters[id].Shaken {
				d.Recovered = append(d.Recovered, id)
			}
		}
		text := fmt.Sprintf("%s takes effect on %s", tool.Name, strings.Join(names(st, d.Affected), ", "))
		if len(d.Affected) == 0 {
			text = fmt.Sprintf("%s takes effect on no one", tool.Name)
		}
		if len(d.Recovered) > 0 {
			text += fmt.Sprintf("; %s no longer Shaken", strings.Join(names(st, d.Recovered), ", "))
		}
		if l.Raises == 0 && slices.ContainsFunc(d.Affected, func(id string) bool { return st.opponents(id, a.Attacker) }) {
			text += " (without a raise it helps the caster's enemies too)"
		}
		return tx.Emit(engine.NewEvent(KindRelief, a.Attacker, text+".", d).With(d.Affected...))
	}
	d := AreaLanded{Attacker: a.Attacker, Source: tool.ID, At: l.At, Deviated: l.Deviated, Victims: []string{}}
	for _, id := range covered {
		// The attacker's own hit never catches them; a blast that deviated
		// lands where it lands (seed 9), unless the GM spares the thrower.
		if id == a.Attacker && (!l.Deviated || kit.Opt(&st.Base, OptScatterThrower) == ThrowerSpared) {
			continue
		}
		d.Victims = append(d.Victims, id)
		switch {
		case l.Deviated:
			d.Divers = append(d.Divers, id)
		case !st.opponents(id, a.Attacker) && l.Raises > 0:
			d.Spared = append(d.Spared, id)
		case !st.opponents(id, a.Attacker):
			d.Divers = append(d.Divers, id)
		}
	}
	if l.Deviated {
		d.Penalty, _ = strconv.Atoi(kit.Opt(&st.Base, OptScatterDodge))
	}
	text := fmt.Sprintf("%s lands on %s", tool.Name, aimText(st, l.At))
	if len(d.Victims) == 0 {
		text += ", catching no one"
	} else {
		text += ", catching " + strings.Join(names(st, d.Victims), ", ")
	}
	if len(d.Spared) > 0 {
		text += fmt.Sprintf("; the raise spares %s", strings.Join(names(st, d.Spared), ", "))
	}
	if err := tx.Emit(engine.NewEvent(KindAreaLanded, a.Attacker, text+".", d).With(d.Victims...)); err != nil {
		return err
	}
	source := tool.Name
	if c := st.Combatant(a.Attacker); c != nil && c.Hidden {
		// The dives are their divers' events: a hidden attacker's weapon or
		// power is not named in them.
		source = "an unseen attack"
	}
	steps := []engine.Step{engine.NewStep(stepDives, divesStep{Divers: d.Divers, Penalty: d.Penalty, Source: source})}
	for _, id := range d.Victims {
		steps = append(steps, engine.NewStep(stepAreaDamage, areaDamageStep{Attacker: a.Attacker, Tool: tool, Raises: l.Raises, Victim: id}))
	}
	return tx.Run(steps...)
}

// divesStep lets an area's victims dive out before the damage: the GM's
// fighters dive at once (npc-dive), then players are asked, all at the
// same time; the damage waits for the last answer.
type divesStep struct {
	Divers  []string `json:"divers"`
	Penalty int      `json:"penalty,omitempty"`
	Source  string   `json:"source"`
}

func runDives(tx *Tx, s divesStep) error {
	st := tx.State
	var asks []engine.Decision
	for _, id := range s.Divers {
		c := diveCtx{Fighter: id, Penalty: s.Penalty, Source: s.Source}
		if !st.isPC(id) && kit.Opt(&st.Base, OptNPCDive) != DiveAsk {
			if err := dive(tx, c); err != nil {
				return err
			}
			continue
		}
		prompt := fmt.Sprintf("Dive out of %s? (Agility", s.Source)
		if s.Penalty != 0 {
			prompt += fmt.Sprintf(" %+d", s.Penalty)
		}
		prompt += ")"
		raw, err := json.Marshal(Cont{Dive: &c})
		if err != nil {
			return err
		}
		asks = append(asks, engine.Decision{For: id, Kind: DecDive, Prompt: prompt, Default: "dive", Data: raw,
			Options: yesNo("dive", "Dive out (roll Agility)", "stay", "Stay put")})
	}
	return tx.AskAll(asks...)
}

// diveCtx is a dive-out decision's context.
type diveCtx struct {
	Fighter string `json:"fighter"`
	Penalty int    `json:"penalty,omitempty"`
	Source  string `json:"source"`
}

// Dive is the data of a dive event: an Agility roll to get out of an area.
type Dive struct {
	Fighter string `json:"fighter"`
	Mods    []Mod  `json:"mods"`
	Total   int    `json:"total"`
	Spared  bool   `json:"spared"`
}

func dive(tx *Tx, c diveCtx) error {
	st := tx.State
	f := st.Fighters[c.Fighter]
	var extra []Mod
	if c.Penalty != 0 {
		extra = append(extra, Mod{Source: "deviated blast", Value: c.Penalty})
	}
	o := rollTrait(tx.Dice, check(f, "agility", TargetNumber, extra...))
	outcome := "is caught"
	if o.Success {
		outcome = "dives clear"
	}
	text := fmt.Sprintf("%s dives for cover from %s: Agility %d (%s) — %s.", st.NameOf(f.ID), c.Source, o.Total, o.Roll.Result, outcome)
	return tx.Emits(KindDive, f.ID, text, Dive{Fighter: f.ID, Mods: nonNil(o.Mods), Total: o.Total, Spared: o.Success}, o.Roll)
}

func answerDive(tx *Tx, c Cont, ans engine.Answered) error {
	if ans.Choice == "dive" {
		return dive(tx, *c.Dive)
	}
	return nil
}

// AreaDamage is the data of an area-damage event: one victim's damage.
type AreaDamage struct {
	Attacker string `json:"attacker"`
	Victim   string `json:"victim"`
	Source   string `json:"source"`
	Harm     Harm   `json:"harm"`
}

// areaDamageStep damages one of an area's victims, if still caught.
type areaDamageStep struct {
	Attacker string   `json:"attacker"`
	Tool     areaTool `json:"tool"`
	Raises   int      `json:"raises"`
	Victim   string   `json:"victim"`
}

func runAreaDamage(tx *Tx, s areaDamageStep) error {
	st := tx.State
	a, t, id := st.Fighters[s.Attacker], st.Fighters[s.Victim], s.Victim
	if st.Combatant(id).Out || (st.Area != nil && slices.Contains(st.Area.Spared, id)) {
		return nil
	}
	roll, h := rollDamage(tx.Dice, a, t, s.Tool.weapon(), false, 0, 0)
	if st.canSoak(id, a.ID, s.Raises, h) {
		h.Deferred = true
	}
	text := fmt.Sprintf("%s catches %s: %s.", s.Tool.Name, st.NameOf(id), harmText(st, t, h))
	if err := tx.Emit(engine.NewEvent(KindAreaDamage, a.ID, text, AreaDamage{Attacker: a.ID, Victim: id, Source: s.Tool.ID, Harm: h}, roll).With(id)); err != nil {
		return err
	}
	if h.Deferred {
		return offerSoak(tx, soakCtx{Victim: id, Attacker: a.ID, Harm: h})
	}
	if h.Incapacitated {
		return incapacitate(tx, t)
	}
	return nil
}

func applyAreaAttack(st *State, d AreaAttack) error {
	a, err := kit.Found(st.Fighter(d.Attacker), d.Attacker)
	if err != nil {
		return err
	}
	if d.Action {
		a.Actions++
		if d.Declared > 0 {
			a.Declared = d.Declared
		}
		if kit.Opt(&st.Base, OptRecoveryPenalty) == PenaltyFirst {
			a.RecoveryPenalty = 0
		}
	}
	return nil
}

func applyAreaLanded(st *State, d AreaLanded) error {
	st.Area = &AreaState{Victims: d.Victims, Spared: slices.Clone(d.Spared)}
	return nil
}

func applyDive(st *State, d Dive) error {
	if d.Spared && st.Area != nil {
		st.Area.Spared = append(st.Area.Spared, d.Fighter)
	}
	return nil
}

func applyAreaDamage(st *State, d AreaDamage) error {
	t, err := kit.Found(st.Fighter(d.Victim), d.Victim)
	if err != nil {
		return err
	}
	applyHarm(t, d.Harm)
	return nil
}

func applyRelief(st *State, d Relief) error {
	for _, id := range d.Recovered {
		if f := st.Fighters[id]; f != nil {
			f.Shaken = false
		}
	}
	return nil
}
