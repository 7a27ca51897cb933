package carry_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/carry"
	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/rules/swzones"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

const statBlock = `{"wildCard":true,"attributes":{"agility":"d6","smarts":"d6","spirit":"d6","strength":"d8","vigor":"d8"},"skills":{"fighting":"d8"},"weapons":[{"id":"axe","name":"Axe","damage":"Str+d6"}]}`

// fight is a campaign with the character brak and an encounter prepared
// with him, brak and tess (a PC who is no campaign character: creating the
// encounter made her one, and her sheet was deleted since) against a
// goblin.
type fight struct {
	t        *testing.T
	db       *store.DB
	svc      *carry.Service
	campaign string
	enc      string
	seq      int64
	st       *swzones.State
}

var gm = carry.User{Name: "gm"}

func newFight(t *testing.T) *fight {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	c, err := db.CreateCampaign(ctx, "Campaign")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveCharacter(ctx, store.CharacterSave{Block: store.StatBlock{ID: "brak", CampaignID: c.ID, Ruleset: swzones.ID, Name: "Brak", Stats: []byte(statBlock)}, Create: true}); err != nil {
		t.Fatal(err)
	}
	f := &fight{t: t, db: db, svc: carry.New(db, rules.Registry()), campaign: c.ID}
	f.prepare("Ford")
	if err := db.DeleteStatBlock(ctx, store.KindCharacter, c.ID, "tess"); err != nil {
		t.Fatal(err)
	}
	return f
}

// prepare creates an encounter the way every path does (prep.Save), with
// brak's stats from the draft left stale on purpose.
func (f *fight) prepare(name string) store.Encounter {
	f.t.Helper()
	extra := strings.Replace(statBlock, `"wildCard":true`, `"wildCard":false`, 1)
	setup := fmt.Sprintf(`{"name":%q,"ruleset":"sw-zones","sides":[{"id":"heroes","name":"Heroes"},{"id":"foes","name":"Foes"}],
		"battlefield":{"zones":[{"id":"ford","name":"Ford","adjacent":[]}]},
		"combatants":[
		{"id":"brak","name":"Brak","side":"heroes","pc":true,"stats":%s,"start":{"zone":"ford"}},
		{"id":"tess","name":"Tess","side":"heroes","pc":true,"stats":%s,"start":{"zone":"ford"}},
		{"id":"gob","name":"Goblin","side":"foes","stats":%s,"start":{"zone":"ford"}}]}`, name, statBlock, statBlock, extra)
	p, err := prep.Prepare(rules.Registry(), []byte(setup))
	if err != nil {
		f.t.Fatal(err)
	}
	e, err := prep.Save(context.Background(), f.db, f.campaign, p)
	if err != nil {
		f.t.Fatal(err)
	}
	if f.enc == "" {
		f.enc = e.ID
		st, _ := swzones.New().Decode(e.Initial)
		f.st = st.(*swzones.State)
	}
	return e
}

// play decides cmd on the encounter and stores the events, then sets the
// wounds the test wants (the carry-over reads only the stored state: the
// snapshot each append keeps, with no events after it).
func (f *fight) play(cmd engine.Command, wounds map[string]int) {
	f.t.Helper()
	events, next, err := engine.Decide(swzones.New(), f.st, engine.GMViewer(), fmt.Sprintf("c%d", f.seq), cmd, dice.NewRoller(dice.NewSeeded(7)))
	if err != nil {
		f.t.Fatal(err)
	}
	st := next.(*swzones.State)
	for id, w := range wounds {
		st.Fighters[id].Wounds = w
	}
	raw, _ := engine.Snapshot(st)
	var r store.Appended
	if r, err = f.db.AppendCommand(context.Background(), store.Append{EncounterID: f.enc, ExpectSeq: f.seq, Events: events, Snapshot: raw, Status: string(st.Status)}); err != nil {
		f.t.Fatal(err)
	}
	f.seq = r.Seq
	f.st = st
}

// rewind stands for the GM reopening the encounter: it appends an event
// and puts the state back to running.
func (f *fight) reopen() {
	f.t.Helper()
	f.st.Status, f.st.Outcome = engine.StatusRunning, nil
	f.st.Seq = f.seq + 1
	ev := engine.NewEvent(engine.KindRewound, "", "The GM undoes the last action.", nil)
	ev.Seq = f.seq + 1
	raw, _ := engine.Snapshot(f.st)
	var err error
	var r store.Appended
	if r, err = f.db.AppendCommand(context.Background(), store.Append{EncounterID: f.enc, ExpectSeq: f.seq, Events: []engine.Event{ev}, Snapshot: raw, Status: "running"}); err != nil {
		f.t.Fatal(err)
	}
	f.seq = r.Seq
}

func (f *fight) end(wounds map[string]int) {
	f.t.Helper()
	f.play(engine.NewCommand(engine.KindEnd, "", map[string]any{"winner": "heroes"}), wounds)
}

func (f *fight) summary() carry.Summary {
	f.t.Helper()
	s, err := f.svc.Summary(context.Background(), f.enc)
	if err != nil {
		f.t.Fatal(err)
	}
	return s
}

func (f *fight) entry(id string) carry.Entry {
	f.t.Helper()
	for _, en := range f.summary().Characters {
		if en.ID == id {
			return en
		}
	}
	f.t.Fatalf("no entry %s", id)
	return carry.Entry{}
}

func (f *fight) confirm(ds ...carry.Decision) []carry.Outcome {
	f.t.Helper()
	out, err := f.svc.Confirm(context.Background(), f.enc, f.seq, gm, ds)
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

func (f *fight) brak() store.Character {
	f.t.Helper()
	ch, err := f.db.Character(context.Background(), f.campaign, "brak")
	if err != nil {
		f.t.Fatal(err)
	}
	return ch
}

func wounds(t *testing.T, stats []byte) int {
	t.Helper()
	var s struct{ Wounds int }
	if err := json.Unmarshal(stats, &s); err != nil {
		t.Fatal(err)
	}
	return s.Wounds
}

func TestCarryOverLifecycle(t *testing.T) {
	f := newFight(t)
	ctx := context.Background()
	f.play(engine.NewCommand(engine.KindStart, "", nil), map[string]int{"brak": 2})

	// While the fight runs the summary is a preview and cannot be confirmed.
	if en := f.entry("brak"); en.State != carry.StatePending || en.End["wounds"] != 2 || en.Proposal["wounds"] != 2 {
		t.Fatalf("running: %+v", en)
	}
	if _, err := f.svc.Confirm(ctx, f.enc, f.seq, gm, []carry.Decision{{Character: "brak"}}); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("confirming a running encounter: %v", err)
	}

	f.end(map[string]int{"brak": 2, "tess": 1})
	sum := f.summary()
	if !sum.Finished() || len(sum.Characters) != 2 || len(sum.Fields) != 3 {
		t.Fatalf("summary %+v", sum)
	}
	brak := f.entry("brak")
	if brak.State != carry.StatePending || brak.Revision != 1 || brak.Start["wounds"] != 0 || brak.Current["wounds"] != 0 ||
		brak.Proposal["wounds"] != 2 || len(brak.Changes) != 1 || brak.Changes[0].After != "2" {
		t.Fatalf("brak %+v", brak)
	}
	if tess := f.entry("tess"); tess.State != carry.StateNew || tess.Proposal["wounds"] != 1 {
		t.Fatalf("tess %+v", tess)
	}

	// A stale seq, an unknown character, values of the wrong kind, a value
	// the ruleset refuses: refused, nothing written.
	for name, tc := range map[string]struct {
		seq  int64
		ds   []carry.Decision
		code string
	}{
		"stale seq":     {f.seq - 1, []carry.Decision{{Character: "brak"}}, fray.ECONFLICT},
		"not a PC":      {f.seq, []carry.Decision{{Character: "gob"}}, fray.ENOTFOUND},
		"twice":         {f.seq, []carry.Decision{{Character: "brak"}, {Character: "brak", Skip: true}}, fray.EINVALID},
		"undeclared":    {f.seq, []carry.Decision{{Character: "brak", Values: map[string]any{"bennies": 1}}}, fray.EINVALID},
		"wrong type":    {f.seq, []carry.Decision{{Character: "brak", Values: map[string]any{"wounds": "many"}}}, fray.EINVALID},
		"out of range":  {f.seq, []carry.Decision{{Character: "brak", Values: map[string]any{"wounds": 7}}}, fray.EINVALID},
		"skip + values": {f.seq, []carry.Decision{{Character: "brak", Skip: true, Values: map[string]any{"wounds": 1}}}, fray.EINVALID},
		"nobody":        {f.seq, nil, fray.EINVALID},
	} {
		if _, err := f.svc.Confirm(ctx, f.enc, tc.seq, gm, tc.ds); fray.ErrorCode(err) != tc.code {
			t.Errorf("%s: %v, want %s", name, err, tc.code)
		}
	}
	if f.brak().Revision != 1 {
		t.Fatal("a refused confirmation wrote a revision")
	}

	// Confirm brak as proposed and add tess to the campaign, edited.
	out := f.confirm(carry.Decision{Character: "brak"}, carry.Decision{Character: "tess", Values: map[string]any{"wounds": 0}})
	if out[0].Revision != 2 || !out[0].Changed || out[1].Revision != 1 || !out[1].Changed {
		t.Fatalf("outcomes %+v", out)
	}
	b := f.brak()
	if b.Revision != 2 || wounds(t, b.Stats) != 2 {
		t.Fatalf("brak after the carry-over: rev %d %s", b.Revision, b.Stats)
	}
	vs, _ := f.db.Revisions(ctx, f.campaign, "brak")
	if v := vs[0]; v.Kind != store.RevisionCarried || v.EncounterID != f.enc || v.EncounterName != "Ford" || v.UserName != "gm" ||
		!reflect.DeepEqual(v.Changes, []sheet.Change{{Path: "wounds", Label: "Wounds", Before: "0", After: "2"}}) {
		t.Fatalf("carried revision %+v", v)
	}
	tess, err := f.db.Character(ctx, f.campaign, "tess")
	if err != nil || tess.Revision != 1 || wounds(t, tess.Stats) != 0 || tess.Name != "Tess" {
		t.Fatalf("tess %+v %v", tess, err)
	}
	if en := f.entry("brak"); en.State != carry.StateConfirmed || len(en.Changes) != 0 || en.Proposal["wounds"] != 2 {
		t.Fatalf("brak after confirming %+v", en)
	}

	// Confirming again changes nothing.
	out = f.confirm(carry.Decision{Character: "brak"}, carry.Decision{Character: "tess"})
	if out[0].Changed || out[1].Changed || out[0].Revision != 2 {
		t.Fatalf("second confirmation %+v", out)
	}
	if b := f.brak(); b.Revision != 2 || wounds(t, b.Stats) != 2 {
		t.Fatalf("brak after the second confirmation: rev %d %s", b.Revision, b.Stats)
	}

	// The next encounter starts from the sheet, not from the stale stats
	// it was prepared with.
	next := f.prepare("Gulch")
	st, _ := swzones.New().Decode(next.Initial)
	if w := st.(*swzones.State).Fighters["brak"].Wounds; w != 2 {
		t.Fatalf("brak starts the next encounter with %d wounds", w)
	}

	// The GM heals brak by one between fights, then reopens the Ford
	// (rewind) and ends it with brak at 1 wound: the new result replaces
	// the old one on the healed sheet (2 − 1 healed, then 0 → 1 instead
	// of 0 → 2: 0 wounds).
	healed := b.StatBlock
	healed.Stats = []byte(strings.Replace(string(b.Stats), `"wounds": 2`, `"wounds": 1`, 1))
	if _, err := f.db.SaveCharacter(ctx, store.CharacterSave{Block: healed, ExpectRevision: 2}); err != nil {
		t.Fatal(err)
	}
	f.reopen()
	if en := f.entry("brak"); en.State != carry.StateChanged {
		t.Fatalf("after reopening: %+v", en)
	}
	if _, err := f.svc.Confirm(ctx, f.enc, f.seq, gm, []carry.Decision{{Character: "brak"}}); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("confirming a reopened encounter: %v", err)
	}
	f.end(map[string]int{"brak": 1})
	en := f.entry("brak")
	if en.State != carry.StateChanged || en.Current["wounds"] != 1 || en.Base["wounds"] != -1 || en.Proposal["wounds"] != 0 {
		t.Fatalf("after the new end: %+v", en)
	}
	f.confirm(carry.Decision{Character: "brak"})
	if b := f.brak(); b.Revision != 4 || wounds(t, b.Stats) != 0 {
		t.Fatalf("brak after carrying the new end: rev %d %s", b.Revision, b.Stats)
	}

	// Skipping undoes what the encounter carried; skipping again is a no-op.
	f.reopen()
	f.end(map[string]int{"brak": 3})
	f.confirm(carry.Decision{Character: "brak"})
	// −1 (the first result undone from the healed sheet) + 3.
	if b := f.brak(); wounds(t, b.Stats) != 2 {
		t.Fatalf("brak after a third end: %s", b.Stats)
	}
	out = f.confirm(carry.Decision{Character: "brak", Skip: true})
	if !out[0].Changed || out[0].Decision != carry.StateSkipped {
		t.Fatalf("skip %+v", out)
	}
	// The fight never happened to brak, and he was healed of one wound
	// since: −1, so none.
	if b := f.brak(); wounds(t, b.Stats) != 0 {
		t.Fatalf("brak after skipping: %s", b.Stats)
	}
	rev := f.brak().Revision
	if out := f.confirm(carry.Decision{Character: "brak", Skip: true}); out[0].Changed || f.brak().Revision != rev {
		t.Fatalf("second skip %+v", out)
	}
	if en := f.entry("brak"); en.State != carry.StateSkipped {
		t.Fatalf("after skipping: %+v", en)
	}
}

func TestCarryOverBlocked(t *testing.T) {
	f := newFight(t)
	ctx := context.Background()
	// A campaign character "tess" of another ruleset is not overwritten.
	if _, err := f.db.SaveCharacter(ctx, store.CharacterSave{Block: store.StatBlock{ID: "tess", CampaignID: f.campaign, Ruleset: "d6-bands", Name: "Tess", Stats: []byte(`{}`)}, Create: true}); err != nil {
		t.Fatal(err)
	}
	f.play(engine.NewCommand(engine.KindStart, "", nil), nil)
	f.end(map[string]int{"tess": 2})
	en := f.entry("tess")
	if en.State != carry.StateBlocked || !strings.Contains(en.Problem, "d6-bands") {
		t.Fatalf("tess %+v", en)
	}
	if _, err := f.svc.Confirm(ctx, f.enc, f.seq, gm, []carry.Decision{{Character: "tess"}}); fray.ErrorCode(err) != fray.EILLEGAL {
		t.Fatalf("confirming a blocked character: %v", err)
	}
	// A character deleted from the campaign becomes a new one again:
	// confirming adds him back with the fight's result.
	if err := f.db.DeleteStatBlock(ctx, store.KindCharacter, f.campaign, "brak"); err != nil {
		t.Fatal(err)
	}
	if en := f.entry("brak"); en.State != carry.StateNew {
		t.Fatalf("brak after his deletion: %+v", en)
	}
	if _, err := f.svc.Confirm(ctx, f.enc, f.seq, gm, []carry.Decision{{Character: "brak"}}); err != nil {
		t.Fatalf("confirming brak after his deletion: %v", err)
	}
	if b := f.brak(); b.Revision != 1 {
		t.Fatalf("brak re-added at revision %d", b.Revision)
	}
}
