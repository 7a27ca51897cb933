package store_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/golang-migrate/migrate/v4"
	migratepgx "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/migrations"
)

func character(campaign, stats string) store.StatBlock {
	return store.StatBlock{ID: "brak", CampaignID: campaign, Ruleset: "sw-zones", Name: "Brak", Stats: []byte(stats)}
}

func TestCharacterRevisions(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	c, _ := db.CreateCampaign(ctx, "C")
	gm, err := db.CreateUser(ctx, "gm", "hash")
	if err != nil {
		t.Fatal(err)
	}
	rev, err := db.SaveCharacter(ctx, store.CharacterSave{Block: character(c.ID, `{"wounds":0}`), Create: true, Kind: store.RevisionCreated, UserID: gm.ID, UserName: gm.Name})
	if err != nil || rev != 1 {
		t.Fatalf("create: %d %v", rev, err)
	}
	_, err = db.SaveCharacter(ctx, store.CharacterSave{Block: character(c.ID, `{}`), Create: true})
	wantCode(t, err, fray.ECONFLICT)
	// A save that changes nothing (JSON compared as JSON) records nothing.
	if rev, err := db.SaveCharacter(ctx, store.CharacterSave{Block: character(c.ID, `{ "wounds" : 0 }`)}); err != nil || rev != 1 {
		t.Fatalf("unchanged save: %d %v", rev, err)
	}
	changes := []sheet.Change{{Path: "wounds", Label: "Wounds", Before: "0", After: "2"}}
	rev, err = db.SaveCharacter(ctx, store.CharacterSave{Block: character(c.ID, `{"wounds":2}`), ExpectRevision: 1,
		Kind: store.RevisionEdited, Changes: changes, UserID: gm.ID, UserName: gm.Name})
	if err != nil || rev != 2 {
		t.Fatalf("edit: %d %v", rev, err)
	}
	_, err = db.SaveCharacter(ctx, store.CharacterSave{Block: character(c.ID, `{"wounds":3}`), ExpectRevision: 1})
	wantCode(t, err, fray.ECONFLICT)
	_, err = db.SaveCharacter(ctx, store.CharacterSave{Block: store.StatBlock{ID: "nobody", CampaignID: c.ID, Ruleset: "sw-zones", Name: "N", Stats: []byte(`{}`)}})
	wantCode(t, err, fray.ENOTFOUND)

	ch, err := db.Character(ctx, c.ID, "brak")
	if err != nil || ch.Revision != 2 || string(ch.Stats) != `{"wounds": 2}` {
		t.Fatalf("character %+v %v", ch, err)
	}
	vs, err := db.Revisions(ctx, c.ID, "brak")
	if err != nil || len(vs) != 2 {
		t.Fatalf("revisions %+v %v", vs, err)
	}
	if v := vs[0]; v.Revision != 2 || v.Kind != store.RevisionEdited || v.UserName != "gm" || v.UserID != gm.ID ||
		!reflect.DeepEqual(v.Changes, changes) || string(v.Stats) != `{"wounds": 2}` {
		t.Fatalf("newest revision %+v", v)
	}
	if v := vs[1]; v.Revision != 1 || v.Kind != store.RevisionCreated || len(v.Changes) != 0 {
		t.Fatalf("first revision %+v", v)
	}
	if _, err := db.Revisions(ctx, c.ID, "nobody"); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("revisions of nobody: %v", err)
	}

	// The stat editor's generic save versions characters too.
	if err := db.SaveStatBlocks(ctx, store.KindCharacter, false, []store.StatBlock{character(c.ID, `{"wounds":1}`)}); err != nil {
		t.Fatal(err)
	}
	if ch, _ := db.Character(ctx, c.ID, "brak"); ch.Revision != 3 {
		t.Fatalf("after a stat block save: revision %d", ch.Revision)
	}
	// Deleting the character deletes its history.
	if err := db.DeleteStatBlock(ctx, store.KindCharacter, c.ID, "brak"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Revisions(ctx, c.ID, "brak"); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("revisions after delete: %v", err)
	}
}

func TestDecideCarryOver(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	e := newEncounter(t, db)
	if _, err := db.SaveCharacter(ctx, store.CharacterSave{Block: character(e.CampaignID, `{}`), Create: true}); err != nil {
		t.Fatal(err)
	}
	seq, err := appendSeq(ctx, db, store.Append{EncounterID: e.ID, Events: events(1, 3), Status: "finished"})
	if err != nil {
		t.Fatal(err)
	}
	applied := sheet.CarryApplied{"wounds": {From: 0, To: 2}}
	decision := func(expect int) store.CarryDecision {
		return store.CarryDecision{
			CarryOver: store.CarryOver{CampaignID: e.CampaignID, CharacterID: "brak", Decision: store.CarryConfirmed,
				Applied: applied, UserName: "gm"},
			ExpectRevision: expect,
			Write: &store.CharacterSave{Block: character(e.CampaignID, `{"wounds":2}`), Kind: store.RevisionCarried,
				EncounterID: e.ID, EncounterName: e.Name, UserName: "gm"},
		}
	}
	// Stale seq or stale revision: nothing happens.
	if _, err := db.DecideCarryOver(ctx, e.ID, seq-1, []store.CarryDecision{decision(1)}); fray.ErrorCode(err) != fray.ECONFLICT {
		t.Fatalf("stale seq: %v", err)
	}
	if _, err := db.DecideCarryOver(ctx, e.ID, seq, []store.CarryDecision{decision(7)}); fray.ErrorCode(err) != fray.ECONFLICT {
		t.Fatalf("stale revision: %v", err)
	}
	if cs, _ := db.CarryOvers(ctx, e.ID); len(cs) != 0 {
		t.Fatalf("a refused decision was recorded: %+v", cs)
	}
	if ch, _ := db.Character(ctx, e.CampaignID, "brak"); ch.Revision != 1 {
		t.Fatalf("a refused decision wrote revision %d", ch.Revision)
	}
	got, err := db.DecideCarryOver(ctx, e.ID, seq, []store.CarryDecision{decision(1)})
	if err != nil || len(got) != 1 || got[0].Revision != 2 || got[0].Seq != seq {
		t.Fatalf("decided %+v %v", got, err)
	}
	cs, err := db.CarryOvers(ctx, e.ID)
	if err != nil || len(cs) != 1 {
		t.Fatalf("carry-overs %+v %v", cs, err)
	}
	if c := cs[0]; c.Decision != store.CarryConfirmed || c.Revision != 2 || c.Seq != seq || c.UserName != "gm" ||
		c.Applied["wounds"].From != 0.0 || c.Applied["wounds"].To != 2.0 {
		t.Fatalf("carry-over %+v", c)
	}
	vs, _ := db.Revisions(ctx, e.CampaignID, "brak")
	if vs[0].Kind != store.RevisionCarried || vs[0].EncounterID != e.ID || vs[0].EncounterName != "Ambush" {
		t.Fatalf("carried revision %+v", vs[0])
	}
	linked, err := db.EncounterRevisions(ctx, e.CampaignID)
	if err != nil || len(linked) != 1 || linked[0].Revision != 2 {
		t.Fatalf("encounter revisions %+v %v", linked, err)
	}
	// A skip replaces the decision; a character the encounter creates is
	// refused when the id is taken.
	skip := store.CarryDecision{CarryOver: store.CarryOver{CampaignID: e.CampaignID, CharacterID: "brak", Decision: store.CarrySkipped}, ExpectRevision: 2}
	if _, err := db.DecideCarryOver(ctx, e.ID, seq, []store.CarryDecision{skip}); err != nil {
		t.Fatal(err)
	}
	if cs, _ := db.CarryOvers(ctx, e.ID); cs[0].Decision != store.CarrySkipped || cs[0].Revision != 0 || len(cs[0].Applied) != 0 {
		t.Fatalf("after the skip %+v", cs[0])
	}
	if _, err := db.DecideCarryOver(ctx, e.ID, seq, []store.CarryDecision{decision(0)}); fray.ErrorCode(err) != fray.ECONFLICT {
		t.Fatalf("creating a character that exists: %v", err)
	}
}

func TestImportCharacters(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	c, _ := db.CreateCampaign(ctx, "C")
	imp := func(id string) store.CharacterImport {
		b := store.StatBlock{ID: id, Ruleset: "sw-zones", Name: "Brak", Stats: []byte(`{"wounds":1}`)}
		return store.CharacterImport{Block: b,
			Revisions: []store.Revision{
				{Revision: 1, Name: "Brak", Stats: []byte(`{}`), Kind: store.RevisionCreated, UserID: store.NewID(), UserName: "elsewhere"},
				{Revision: 2, Name: "Brak", Stats: []byte(`{"wounds":1}`), Kind: store.RevisionCarried, EncounterName: "Ford",
					Changes: []sheet.Change{{Path: "wounds", Label: "Wounds", Before: "0", After: "1"}}},
			},
			Import: store.Revision{Revision: 3, Name: "Brak", Stats: b.Stats, Kind: store.RevisionImported, UserName: "gm"},
		}
	}
	if err := db.ImportCharacters(ctx, c.ID, []store.CharacterImport{imp("brak")}); err != nil {
		t.Fatal(err)
	}
	vs, _ := db.Revisions(ctx, c.ID, "brak")
	if len(vs) != 3 || vs[0].Kind != store.RevisionImported || vs[1].EncounterName != "Ford" || vs[1].Changes[0].After != "1" || vs[2].UserID != "" || vs[2].UserName != "elsewhere" {
		t.Fatalf("imported revisions %+v", vs)
	}
	if ch, _ := db.Character(ctx, c.ID, "brak"); ch.Revision != 3 {
		t.Fatalf("imported character at revision %d", ch.Revision)
	}
	// All or none: a new character and one already there store nothing.
	err := db.ImportCharacters(ctx, c.ID, []store.CharacterImport{imp("tess"), imp("brak")})
	wantCode(t, err, fray.ECONFLICT)
	if _, err := db.Character(ctx, c.ID, "tess"); fray.ErrorCode(err) != fray.ENOTFOUND {
		t.Fatalf("half an import was stored: %v", err)
	}
	bad := imp("tess")
	bad.Revisions[1].Revision = 1
	wantCode(t, db.ImportCharacters(ctx, c.ID, []store.CharacterImport{bad}), fray.EINVALID)
}

// TestMigrationGivesCharactersAFirstRevision: characters made before
// revisions existed get revision 1 with their stats.
func TestMigrationGivesCharactersAFirstRevision(t *testing.T) {
	db, url := open(t)
	ctx := context.Background()
	c, _ := db.CreateCampaign(ctx, "C")
	migrateTo(t, url, 5)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `INSERT INTO characters (id, campaign_id, ruleset, name, stats) VALUES ('old', $1, 'sw-zones', 'Old Timer', '{"wounds":1}')`, c.ID); err != nil {
		t.Fatal(err)
	}
	if err := store.Migrate(ctx, url, "up"); err != nil {
		t.Fatal(err)
	}
	vs, err := db.Revisions(ctx, c.ID, "old")
	if err != nil || len(vs) != 1 || vs[0].Revision != 1 || vs[0].Kind != store.RevisionCreated || string(vs[0].Stats) != `{"wounds": 1}` {
		t.Fatalf("revisions %+v %v", vs, err)
	}
	if ch, _ := db.Character(ctx, c.ID, "old"); ch.Revision != 1 {
		t.Fatalf("revision %d", ch.Revision)
	}
}

// migrateTo moves the schema to version with golang-migrate directly.
func migrateTo(t *testing.T, url string, version uint) {
	t.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	driver, err := migratepgx.WithInstance(stdlib.OpenDB(*cfg), &migratepgx.Config{})
	if err != nil {
		t.Fatal(err)
	}
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		t.Fatal(err)
	}
	m, err := migrate.NewWithInstance("iofs", src, "pgx5", driver)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Migrate(version); err != nil {
		t.Fatal(err)
	}
}

// Saves of one new character at once (encounters created together with the
// same player characters): every upsert lands, exactly one create does and
// the others are told the name is taken — none is a server error.
func TestCharacterSavedTwiceAtOnce(t *testing.T) {
	db, _ := open(t)
	ctx := context.Background()
	c, _ := db.CreateCampaign(ctx, "C")
	for _, mode := range []string{"upsert", "create"} {
		block := character(c.ID, `{"wounds":0}`)
		block.ID = "brak-" + mode
		const n = 8
		errs := make(chan error, n)
		start := make(chan struct{})
		for range n {
			go func() {
				<-start
				_, err := db.SaveCharacter(ctx, store.CharacterSave{Block: block, Upsert: mode == "upsert", Create: mode == "create"})
				errs <- err
			}()
		}
		close(start)
		landed := 0
		for range n {
			err := <-errs
			switch {
			case err == nil:
				landed++
			case fray.ErrorCode(err) != fray.ECONFLICT || mode == "upsert":
				t.Fatalf("%s: %v", mode, err)
			}
		}
		if (mode == "upsert" && landed != n) || (mode == "create" && landed != 1) {
			t.Fatalf("%s: %d of %d saves landed", mode, landed, n)
		}
	}
}
