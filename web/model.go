package web

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/rules/swzones"
)

// IndexProps is the data of the home page. Without a User it is a landing
// page; with one, the user's campaigns and their encounters.
type IndexProps struct {
	User      string
	Campaigns []CampaignSummary
}

// CampaignSummary is one campaign on the home page. Role is the user's role
// in it: "gm" or "player".
type CampaignSummary struct {
	ID, Name   string
	Role       string
	Encounters []EncounterSummary
}

// EncounterSummary is one encounter in a campaign listing.
type EncounterSummary struct {
	ID, Name, Ruleset, Status string
}

// ChooseProps is the data of the "open this encounter as…" page.
type ChooseProps struct {
	EncounterID, Name string
	Options           []ViewerOption
}

// ViewerOption is one identity a visitor may open an encounter as: As is the
// value of the ?as= parameter ("gm" or a combatant id).
type ViewerOption struct {
	As, Label, Hint string
}

// EncounterProps is the data of the encounter page.
type EncounterProps struct {
	View engine.View
	// Log is the viewer's whole visible log, oldest first.
	Log []engine.Event
	// As is the ?as= value the page was opened with ("gm" or a combatant id).
	As string
	// WSURL is the websocket path with its query, e.g.
	// /encounters/{id}/ws?as=gm&html=1; the script appends &since=<seq>.
	WSURL string
	// ActURL is where the forms post when the script is not running.
	ActURL string
	// Notice is an optional message shown in #notice, e.g. the error of a
	// form post that was redirected back to the page.
	Notice string
	// CanSwitch shows the "Switch viewer" link: only GMs may preview the
	// page as one of the players.
	CanSwitch bool
	// CampaignID, when set, adds a link back to the campaign's page, named
	// CampaignName (or "the campaign").
	CampaignID, CampaignName string
	// LogURL and ReplayURL link the encounter's history pages; empty means
	// /encounters/{id}/log and /encounters/{id}/replay.
	LogURL, ReplayURL string
}

func (p EncounterProps) logURL() string {
	if p.LogURL != "" {
		return p.LogURL
	}
	return encounterURL(p.View.ID) + "/log"
}

func (p EncounterProps) replayURL() string {
	if p.ReplayURL != "" {
		return p.ReplayURL
	}
	return encounterURL(p.View.ID) + "/replay"
}

// SectionKeys are the keys of Fragments' result besides "log", in page order.
// Each names the id of the element its HTML replaces.
var SectionKeys = []string{"status", "pending", "actions", "order", "battlefield"}

type actURLKey struct{}

// WithActURL returns a context that makes Fragments render forms posting to
// actURL (the same value as EncounterProps.ActURL for that viewer). Without
// it, forms post to DefaultActURL.
func WithActURL(ctx context.Context, actURL string) context.Context {
	return context.WithValue(ctx, actURLKey{}, actURL)
}

// DefaultActURL is the form target used when none is given:
// /encounters/{id}/commands.
func DefaultActURL(encounterID string) string {
	return "/encounters/" + url.PathEscape(encounterID) + "/commands"
}

// Fragments renders the parts of the encounter page a live update replaces.
// Keys "status", "pending", "actions", "order" and "battlefield" hold the
// outer HTML of the element with that id. "log" holds <li> entries for
// newEvents: the new entries to append when full is false, the whole log
// (newEvents being all of it) to replace the list's contents when full is
// true. Entries carry ids (ev-<seq>, round-<n>) so a client can drop
// duplicates. Forms post to the URL set with WithActURL.
func Fragments(ctx context.Context, v engine.View, newEvents []engine.Event, full bool) (map[string]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	act, _ := ctx.Value(actURLKey{}).(string)
	m := newModel(v, act)
	out := make(map[string]string, len(SectionKeys)+1)
	var buf bytes.Buffer
	buf.Grow(8 << 10)
	render := func(key string, c templ.Component) error {
		buf.Reset()
		if err := c.Render(ctx, &buf); err != nil {
			return fmt.Errorf("web: render %s: %w", key, err)
		}
		out[key] = buf.String()
		return nil
	}
	for _, key := range SectionKeys {
		if err := render(key, m.section(key)); err != nil {
			return nil, err
		}
	}
	if err := render("log", logEntries(newEvents, m.names, full)); err != nil {
		return nil, err
	}
	return out, nil
}

// Names maps every combatant id in v to its name.
func Names(v engine.View) map[string]string {
	names := make(map[string]string, len(v.Combatants))
	for _, c := range v.Combatants {
		names[c.ID] = c.Name
	}
	return names
}

// StatusSection, PendingSection, ActionsSection, OrderSection and
// BattlefieldSection render one section of the encounter page alone, as
// Fragments does. actURL is the forms' target ("" for DefaultActURL).
func StatusSection(v engine.View) templ.Component { return statusSection(newModel(v, "")) }

// PendingSection renders #pending; see StatusSection.
func PendingSection(v engine.View, actURL string) templ.Component {
	return pendingSection(newModel(v, actURL))
}

// ActionsSection renders #actions; see StatusSection.
func ActionsSection(v engine.View, actURL string) templ.Component {
	return actionsSection(newModel(v, actURL))
}

// OrderSection renders #order; see StatusSection.
func OrderSection(v engine.View) templ.Component { return orderSection(newModel(v, "")) }

// BattlefieldSection renders #battlefield; see StatusSection.
func BattlefieldSection(v engine.View) templ.Component {
	return battlefieldSection(newModel(v, ""))
}

// LogEntries renders log entries for events, with a round heading before the
// first entry of each round; full adds an empty-state entry when there are none.
func LogEntries(events []engine.Event, names map[string]string, full bool) templ.Component {
	return logEntries(events, names, full)
}

// model is a View prepared for rendering: lookups computed once per render.
type model struct {
	v      engine.View
	act    string
	names  map[string]string
	byID   map[string]*engine.Combatant
	sideNo map[string]int // side id → index in v.Sides, for its colour class
	sw     *swzones.View  // nil for rulesets other than sw-zones
	zones  map[string]string
	acts   []actionInfo
	groups []actionGroup
}

// actionInfo is an action with the element ids its form uses.
type actionInfo struct {
	engine.Action
	ID string // the form's id; controls are ID-<field>, the button ID-go
}

type actionGroup struct {
	Name    string
	Actions []actionInfo
}

func newModel(v engine.View, act string) *model {
	if act == "" {
		act = DefaultActURL(v.ID)
	}
	m := &model{
		v:      v,
		act:    act,
		names:  Names(v),
		byID:   make(map[string]*engine.Combatant, len(v.Combatants)),
		sideNo: make(map[string]int, len(v.Sides)),
	}
	for i := range v.Combatants {
		m.byID[v.Combatants[i].ID] = &v.Combatants[i]
	}
	for i, s := range v.Sides {
		m.sideNo[s.ID] = i
	}
	switch r := v.Rules.(type) {
	case swzones.View:
		m.sw = &r
	case *swzones.View:
		m.sw = r
	}
	if m.sw != nil {
		m.zones = make(map[string]string, len(m.sw.Zones))
		for _, z := range m.sw.Zones {
			m.zones[z.ID] = z.Name
		}
	}
	// Give each action form a stable id derived from its actor and kind, so
	// that focus survives a re-render; duplicates get a numeric suffix.
	seen := map[string]int{}
	group := map[string]int{}
	for _, a := range v.Actions {
		id := "act-" + slug(a.Kind)
		if a.Actor != "" {
			id = "act-" + slug(a.Actor) + "-" + slug(a.Kind)
		}
		seen[id]++
		if n := seen[id]; n > 1 {
			id += "-" + strconv.Itoa(n)
		}
		info := actionInfo{Action: a, ID: id}
		m.acts = append(m.acts, info)
		gi, ok := group[a.Actor]
		if !ok {
			gi = len(m.groups)
			group[a.Actor] = gi
			name := "Encounter"
			if a.Actor != "" {
				name = m.name(a.Actor)
			}
			m.groups = append(m.groups, actionGroup{Name: name})
		}
		m.groups[gi].Actions = append(m.groups[gi].Actions, info)
	}
	return m
}

func (m *model) section(key string) templ.Component {
	switch key {
	case "status":
		return statusSection(m)
	case "pending":
		return pendingSection(m)
	case "actions":
		return actionsSection(m)
	case "order":
		return orderSection(m)
	case "battlefield":
		return battlefieldSection(m)
	}
	panic("web: unknown section " + key)
}

// name returns a combatant's name, or its id when it is not visible.
func (m *model) name(id string) string {
	if n, ok := m.names[id]; ok {
		return n
	}
	return id
}

func (m *model) sideName(id string) string {
	if i, ok := m.sideNo[id]; ok {
		return m.v.Sides[i].Name
	}
	return id
}

// sideClass is the colour class of a side: side-0 … side-5.
func (m *model) sideClass(id string) string {
	return "side-" + strconv.Itoa(m.sideNo[id]%6)
}

func (m *model) fighter(id string) (swzones.FighterView, bool) {
	if m.sw == nil {
		return swzones.FighterView{}, false
	}
	f, ok := m.sw.Fighters[id]
	return f, ok
}

func (m *model) zoneName(id string) string {
	if n, ok := m.zones[id]; ok {
		return n
	}
	return id
}

func (m *model) adjacent(z swzones.ZoneView) string {
	names := make([]string, len(z.Adjacent))
	for i, id := range z.Adjacent {
		names[i] = m.zoneName(id)
	}
	return strings.Join(names, ", ")
}

// whoAmI describes the viewer for the page header.
func (m *model) whoAmI(as string) string {
	if m.v.Viewer.GM {
		return "the GM"
	}
	if len(m.v.Viewer.Controls) == 0 {
		if as == "" {
			return "a spectator"
		}
		return m.name(as)
	}
	names := make([]string, len(m.v.Viewer.Controls))
	for i, id := range m.v.Viewer.Controls {
		names[i] = m.name(id)
	}
	return strings.Join(names, ", ")
}

func (m *model) current() string {
	if m.v.Current == "" {
		return ""
	}
	return m.name(m.v.Current)
}

func (m *model) mine() bool {
	return m.v.Current != "" && !m.v.Viewer.GM && slices.Contains(m.v.Viewer.Controls, m.v.Current)
}

func (m *model) decisionFor(d engine.Decision) string {
	if d.For == engine.GM || d.For == "" {
		return "the GM"
	}
	return m.name(d.For)
}

func (m *model) outcome() string {
	o := m.v.Outcome
	if o == nil {
		return ""
	}
	s := "No winner"
	if o.Winner != "" {
		s = m.sideName(o.Winner) + " win"
	}
	if o.Summary != "" {
		s += " — " + o.Summary
	}
	return s
}

func statusLabel(s engine.Status) string {
	switch s {
	case engine.StatusSetup:
		return "Not started"
	case engine.StatusRunning:
		return "Running"
	case engine.StatusPaused:
		return "Paused"
	case engine.StatusFinished:
		return "Finished"
	}
	return string(s)
}

// slug makes s safe inside an id attribute: letters, digits, '-' and '_'.
func slug(s string) string {
	ok := true
	for _, r := range s {
		if !isSlugRune(r) {
			ok = false
			break
		}
	}
	if ok && s != "" {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isSlugRune(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}

func isSlugRune(r rune) bool {
	return r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

func encounterURL(id string) string { return "/encounters/" + url.PathEscape(id) }

// switchURL lists the viewers a GM may preview the encounter as.
func switchURL(id string) string { return encounterURL(id) + "?choose=1" }

func campaignName(name string) string {
	if name == "" {
		return "the campaign"
	}
	return name
}

func chooseURL(id, as string) string {
	return encounterURL(id) + "?as=" + url.QueryEscape(as)
}

func itoa(n int) string     { return strconv.Itoa(n) }
func i64toa(n int64) string { return strconv.FormatInt(n, 10) }

// signed renders a modifier as "+2" or "−2".
func signed(n int) string {
	if n < 0 {
		return "−" + strconv.Itoa(-n)
	}
	return "+" + strconv.Itoa(n)
}

// truthy reads a checkbox default.
func truthy(s string) bool {
	switch strings.ToLower(s) {
	case "1", "true", "on", "yes":
		return true
	}
	return false
}

// numberAttrs gives a number field its min, max and value.
func numberAttrs(f engine.Field) templ.Attributes {
	a := templ.Attributes{}
	if f.Min != 0 || f.Max != 0 {
		a["min"] = strconv.Itoa(f.Min)
	}
	if f.Max != 0 {
		a["max"] = strconv.Itoa(f.Max)
	}
	switch {
	case f.Default != "":
		a["value"] = f.Default
	case f.Min != 0 || f.Max != 0:
		a["value"] = strconv.Itoa(f.Min)
	}
	return a
}

// selected reports whether option value is the field's initial choice.
func selected(f engine.Field, i int, value string) bool {
	if f.Default == "" {
		return i == 0
	}
	return value == f.Default
}

// woundsText is the public wound track, e.g. "Wounds 1/3"; Extras (no
// track) show only whether they are wounded.
func woundsText(f swzones.FighterView) string {
	if f.MaxWounds > 0 {
		return "Wounds " + strconv.Itoa(f.Wounds) + "/" + strconv.Itoa(f.MaxWounds)
	}
	if f.Wounds > 0 {
		return "Wounded"
	}
	return ""
}

func toughnessText(f swzones.FighterView) string {
	s := strconv.Itoa(f.Toughness)
	if f.Armor != 0 {
		s += " (" + strconv.Itoa(f.Armor) + ")"
	}
	return s
}

// attributeOrder lists Savage Worlds attributes first in a trait list.
var attributeOrder = []string{"Agility", "Smarts", "Spirit", "Strength", "Vigor"}

type trait struct{ Name, Die string }

// traits sorts a stat block: attributes in their usual order, then skills
// alphabetically.
func traits(t map[string]string) (attrs, skills []trait) {
	for _, a := range attributeOrder {
		if d, ok := t[a]; ok {
			attrs = append(attrs, trait{a, d})
		}
	}
	for name, d := range t {
		if !slices.Contains(attributeOrder, name) {
			skills = append(skills, trait{name, d})
		}
	}
	slices.SortFunc(skills, func(a, b trait) int { return strings.Compare(a.Name, b.Name) })
	return attrs, skills
}

// acedFace reports whether face i of d exploded (a maximum that rolled on).
func acedFace(d dice.Die, i int) bool { return i < len(d.Faces)-1 }

// dieState is "kept", "dropped" or "" for a die in a roll where only one die
// counts (a trait die and its Wild Die).
func dieState(r dice.Roll, i int) string {
	if r.Kept <= 0 || len(r.Dice) < 2 {
		return ""
	}
	if r.Kept == i+1 {
		return "kept"
	}
	return "dropped"
}

func whoName(names map[string]string, id string) string {
	if n, ok := names[id]; ok {
		return n
	}
	return id
}

// logItem is one row of the log: a round heading or an event.
type logItem struct {
	Round int // > 0 for a heading
	Event engine.Event
}

func logItems(events []engine.Event) []logItem {
	items := make([]logItem, 0, len(events)+2)
	prev := -1
	for _, ev := range events {
		if ev.Round != prev && ev.Round > 0 {
			items = append(items, logItem{Round: ev.Round})
		}
		prev = ev.Round
		items = append(items, logItem{Event: ev})
	}
	return items
}

// sideOf is the colour class of c's side, or "" when c is unknown.
func sideOf(m *model, c *engine.Combatant) string {
	if c == nil {
		return ""
	}
	return m.sideClass(c.Side)
}

// capitalize upper-cases the first letter of s.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// waiting names everyone the encounter waits on.
func (m *model) waiting() string { return strings.Join(m.v.Waiting, ", ") }

// answerField is a decision's field as its form posts it: nested under
// "values." so that the answer command carries it in its values.
func answerField(f engine.Field) engine.Field {
	f.Name = "values." + f.Name
	return f
}
