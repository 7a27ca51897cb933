package web

import (
	"encoding/binary"
	"math"

	gojson "github.com/goccy/go-json"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
)

// The memo's keys for the board's parts (Sections) are written by hand
// here, without reflection: the board's shell, a token, a token's face,
// roster row and numbers, the key to the board. Encoding them as JSON was
// the largest part of what the memo cost.
//
// A key must never be the same for two inputs that render differently:
// each appender writes every field of its type, in a fixed order, each
// string and list prefixed by its length, each optional part by whether
// it is there, so that the bytes read back into one value only (a
// prefix code), and a kind's name (with a NUL after it) starts every key.
// TestKeysTellEveryFieldApart (keys_test.go) changes every field of every
// type written here, one at a time, and fails when the key stays the same
// — so a field added to one of these types and not to its appender fails
// it. The types' less common parts (a grid, pairs, a ladder) are written
// as their JSON, length-prefixed.
type keyBuf []byte

func (k keyBuf) str(s string) keyBuf {
	k = binary.AppendUvarint(k, uint64(len(s)))
	return append(k, s...)
}

func (k keyBuf) strs(ss []string) keyBuf {
	k = binary.AppendUvarint(k, uint64(len(ss)))
	for _, s := range ss {
		k = k.str(s)
	}
	return k
}

func (k keyBuf) bool(b bool) keyBuf {
	if b {
		return append(k, 1)
	}
	return append(k, 0)
}

func (k keyBuf) int(n int) keyBuf { return binary.AppendVarint(k, int64(n)) }

func (k keyBuf) len(n int) keyBuf { return binary.AppendUvarint(k, uint64(n)) }

func (k keyBuf) float(f float64) keyBuf { return binary.BigEndian.AppendUint64(k, math.Float64bits(f)) }

// json writes v's JSON, length-prefixed.
func (k keyBuf) json(v any) (keyBuf, error) {
	b, err := gojson.MarshalWithOption(v, gojson.DisableHTMLEscape())
	if err != nil {
		return k, err
	}
	return k.str(string(b)), nil
}

func (k keyBuf) icon(ic board.Icon) keyBuf {
	return k.str(ic.Glyph).str(ic.Legend).str(ic.Tone)
}

func (k keyBuf) stat(s board.Stat) keyBuf { return k.str(s.Label).str(s.Value).str(s.Note) }

func (k keyBuf) stats(ss []board.Stat) keyBuf {
	k = k.len(len(ss))
	for _, s := range ss {
		k = k.stat(s)
	}
	return k
}

func (k keyBuf) sheet(ss []board.Section) keyBuf {
	k = k.len(len(ss))
	for _, s := range ss {
		k = k.str(s.Title).stats(s.Stats)
	}
	return k
}

func (k keyBuf) meter(m *board.Meter) keyBuf {
	if m == nil {
		return k.bool(false)
	}
	return k.bool(true).str(m.Label).int(m.Value).int(m.Max).str(m.Text).bool(m.Low)
}

func (k keyBuf) pose(p *board.Pose) keyBuf {
	if p == nil {
		return k.bool(false)
	}
	return k.bool(true).str(p.ID).str(p.Label).icon(p.Icon).str(p.Text).str(p.Shape)
}

func (k keyBuf) condition(c board.Condition) keyBuf {
	return k.str(c.ID).str(c.Label).icon(c.Icon).str(c.Text)
}

// token writes every field of t.
func (k keyBuf) token(t *board.Token) keyBuf {
	k = k.str(t.ID).str(t.Name).str(t.Side).bool(t.PC).bool(t.Acting).bool(t.Out).bool(t.Down).bool(t.Hidden).
		str(t.Portrait).strs(t.Tags).str(t.Initiative).meter(t.Health).pose(t.Pose)
	k = k.len(len(t.Conditions))
	for _, c := range t.Conditions {
		k = k.condition(c)
	}
	return k.stats(t.Stats).sheet(t.Sheet)
}

func (k keyBuf) intPtr(p *int) keyBuf {
	if p == nil {
		return k.bool(false)
	}
	return k.bool(true).int(*p)
}

func (k keyBuf) placed(p board.Placed) keyBuf {
	return k.str(p.Token).str(p.Area).int(p.X).int(p.Y).str(p.Group).bool(p.Off)
}

func (k keyBuf) zones(z *board.ZoneMap) keyBuf {
	if z == nil {
		return k.bool(false)
	}
	k = k.bool(true).len(len(z.Areas))
	for _, a := range z.Areas {
		k = k.str(a.ID).str(a.Name).str(a.Description).strs(a.Features).intPtr(a.X).intPtr(a.Y).int(a.W).int(a.H).int(a.Shade).str(a.Image)
	}
	k = k.len(len(z.Links))
	for _, l := range z.Links {
		k = k.str(l.A).str(l.B)
	}
	k = k.len(len(z.Groups))
	for _, g := range z.Groups {
		k = k.str(g.ID).str(g.Area).strs(g.Members).str(g.Label)
	}
	k = k.len(len(z.Places))
	for _, p := range z.Places {
		k = k.placed(p)
	}
	return k
}

// jsonPart writes a less common part of a board: whether it is there, and
// its JSON.
func jsonPart[T any](k keyBuf, p *T) (keyBuf, error) {
	if p == nil {
		return k.bool(false), nil
	}
	return k.bool(true).json(p)
}

// board writes every field of b.
func (k keyBuf) board(b *board.Board) (keyBuf, error) {
	if b == nil {
		return k.bool(false), nil
	}
	k = k.bool(true).str(b.Model).len(len(b.Tokens))
	for i := range b.Tokens {
		k = k.token(&b.Tokens[i])
	}
	k = k.zones(b.Zones)
	var err error
	if k, err = jsonPart(k, b.Grid); err != nil {
		return k, err
	}
	if k, err = jsonPart(k, b.Pairs); err != nil {
		return k, err
	}
	if k, err = jsonPart(k, b.Ladder); err != nil {
		return k, err
	}
	k = k.strs(b.Notes).stats(b.Facts).len(len(b.Legend))
	for _, ic := range b.Legend {
		k = k.icon(ic)
	}
	return k, nil
}

func (k keyBuf) sides(ss []engine.Side) keyBuf {
	k = k.len(len(ss))
	for _, s := range ss {
		k = k.str(s.ID).str(s.Name)
	}
	return k
}

func (k keyBuf) combatants(cs []engine.Combatant) keyBuf {
	k = k.len(len(cs))
	for _, c := range cs {
		k = k.str(c.ID).str(c.Name).str(c.Side).bool(c.PC).str(c.Player).bool(c.Hidden).bool(c.Out).bool(c.Down).str(c.Portrait)
	}
	return k
}

func (k keyBuf) sceneFit(f *engine.SceneFit) keyBuf {
	if f == nil {
		return k.bool(false)
	}
	return k.bool(true).float(f.X).float(f.Y).float(f.W).float(f.H)
}

// shell writes every field of the battlefield's shell's input (shellInput).
func (k keyBuf) shell(v engine.View) (keyBuf, error) {
	k = k.str(v.ID).sides(v.Sides).combatants(v.Combatants).strs(v.Acting)
	k, err := k.board(v.Board)
	if err != nil {
		return k, err
	}
	return k.str(v.Scene).sceneFit(v.SceneFit), nil
}

// face writes every field of f but its token (tokenKey's).
func (k keyBuf) face(f face) keyBuf { return k.str(f.ID).str(f.Classes).str(f.Summary) }

// rosterRow writes every field of r but its token (tokenKey's).
func (k keyBuf) rosterRow(r rosterRow) keyBuf {
	return k.str(r.SideClass).str(r.SideName).str(r.Place).bool(r.Shell)
}

// legend writes every field of l.
func (k keyBuf) legend(l legend) keyBuf {
	k = k.str(l.Bands).len(len(l.Sides))
	for _, s := range l.Sides {
		k = k.str(s.Name).str(s.Class)
	}
	k = k.len(len(l.Marks))
	for _, m := range l.Marks {
		k = k.str(m.Mark).str(m.Glyph).str(m.Text)
	}
	k = k.strs(l.Bars).len(len(l.Icons))
	for _, ic := range l.Icons {
		k = k.str(ic.Glyph).str(ic.Text).str(ic.Tone)
	}
	return k
}

// tokenSheet writes what tokenSheet shows of t.
func (k keyBuf) tokenSheet(t *board.Token) keyBuf {
	return k.str(t.ID).str(t.Name).sheet(t.Sheet)
}

// action writes every field of an action item's input.
func (k keyBuf) action(in actionIn) keyBuf { return k.str(in.Act).actionInfo(in.Action) }

// actionGroup writes every field of a group of actions' input.
func (k keyBuf) actionGroup(in groupIn) keyBuf {
	g := in.Group
	k = k.str(in.Act).str(g.Actor).str(g.Name).bool(g.Acting).len(len(g.Main))
	for _, a := range g.Main {
		k = k.actionInfo(a)
	}
	k = k.len(len(g.More))
	for _, a := range g.More {
		k = k.actionInfo(a)
	}
	return k
}

// actionList writes every field of the GM's controls' input.
func (k keyBuf) actionList(in actionsIn) keyBuf {
	k = k.str(in.Act).len(len(in.Actions))
	for _, a := range in.Actions {
		k = k.actionInfo(a)
	}
	return k
}

// orderEntry writes every field of e.
func (k keyBuf) orderEntry(e orderEntry) keyBuf {
	return k.str(e.ID).str(e.Token).str(e.SideClass).bool(e.Current).bool(e.Out).str(e.Name).
		str(e.Initiative).str(e.Portrait).meter(e.Health)
}

// actionInfo writes every field of a.
func (k keyBuf) actionInfo(a actionInfo) keyBuf {
	k = k.str(a.ID).str(a.Kind).str(a.Actor).str(a.Label).str(a.Help).len(len(a.Fields))
	for _, f := range a.Fields {
		k = k.str(f.Name).str(f.Label).str(f.Type).len(len(f.Options))
		for _, o := range f.Options {
			k = k.str(o.Value).str(o.Label)
		}
		k = k.str(f.Default).int(f.Min).int(f.Max).bool(f.Target).bool(f.Place)
	}
	return k.bool(a.Main).bool(a.Danger).bool(a.EndsTurn)
}

// status writes every field the status strip's input holds (sectionInput's
// "status") but those common writes: the strip is rendered for most
// viewer-updates (whose turn it is and what waits on the viewer change
// with every command), and its key was the JSON of these fields.
func (k keyBuf) status(v engine.View) keyBuf {
	k = k.str(string(v.Status)).int(v.Round).str(v.Phase).str(v.Current).strs(v.Acting).strs(v.Waiting)
	k = k.bool(v.Outcome != nil)
	if v.Outcome != nil {
		k = k.str(v.Outcome.Winner).str(v.Outcome.Summary)
	}
	k = k.bool(v.Attention != nil)
	if v.Attention != nil {
		k = k.strs(v.Attention.Turn).strs(v.Attention.Decisions)
	}
	k = k.bool(v.Viewer.GM).strs(v.Viewer.Controls).bool(v.Board != nil)
	if v.Board != nil {
		k = k.stats(v.Board.Facts)
	}
	return k
}

// common writes the fields every section's input holds (sectionInput): the
// encounter, its sides and combatants.
func (k keyBuf) common(v engine.View) keyBuf {
	return k.str(v.ID).sides(v.Sides).combatants(v.Combatants)
}

// events writes every field of evs (their rolls, triggers and draws as
// JSON).
func (k keyBuf) events(evs []engine.Event) (keyBuf, error) {
	k = k.len(len(evs))
	var err error
	for i := range evs {
		ev := &evs[i]
		k = binary.AppendVarint(k, ev.Seq)
		k = k.str(ev.Kind).int(ev.Round).str(ev.Actor).str(ev.Text)
		if len(ev.Rolls) == 0 {
			k = k.bool(false)
		} else if k, err = k.bool(true).json(ev.Rolls); err != nil {
			return k, err
		}
		k = k.str(string(ev.Data)).bool(ev.Secret).str(ev.Command).strs(ev.Involves)
		if k, err = jsonPart(k, ev.Uses); err != nil {
			return k, err
		}
		k = k.strs(ev.Audience)
		if k, err = jsonPart(k, ev.Draw); err != nil {
			return k, err
		}
	}
	return k, nil
}
