package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/testdb"
)

// ogreSetup is an encounter of Brak (a campaign character) alone against an
// ogre who hits hard, in melee from the start; Benny prompts are off so the
// fight needs no answers.
func ogreSetup(name string) []byte {
	return []byte(fmt.Sprintf(`{"name":%q,"ruleset":"sw-zones","options":{"soak-offers":"off","reroll-offers":"off"},
	"sides":[{"id":"heroes","name":"Heroes"},{"id":"foes","name":"Foes"}],
	"battlefield":{"zones":[{"id":"bridge","name":"Bridge","adjacent":[]}],"melees":[{"id":"m1","zone":"bridge","members":["brak","ogre"]}]},
	"combatants":[
	{"id":"brak","name":"Brak","side":"heroes","pc":true,"stats":{"wildCard":true,"attributes":{"agility":"d6","smarts":"d6","spirit":"d6","strength":"d6","vigor":"d6"}},"start":{"zone":"bridge"}},
	{"id":"ogre","name":"Ogre","side":"foes","stats":{"wildCard":true,"attributes":{"agility":"d6","smarts":"d4","spirit":"d6","strength":"d12","vigor":"d10"},
		"skills":{"fighting":"d12"},"weapons":[{"id":"club","name":"Club","damage":"Str+d8"}]},"start":{"zone":"bridge"}}]}`, name))
}

// brakSheet is Brak's character sheet as the GM's stat editor posts it.
var brakSheet = url.Values{"ruleset": {"sw-zones"}, "name": {"Brak"}, "wildCard": {"on"}, "bennies": {"2"},
	"attributes.agility": {"d6"}, "attributes.smarts": {"d6"}, "attributes.spirit": {"d6"}, "attributes.strength": {"d6"}, "attributes.vigor": {"d6"},
	"skills.fighting": {"d4"}, "weapons.0.name": {"Sword"}, "weapons.0.damage": {"Str+d6"}, "wounds": {"0"}}

// fighterState is what the tests read of an sw-zones fighter on the board:
// its wounds (the health meter) and whether it is incapacitated.
type fighterState struct {
	Wounds        int
	Incapacitated bool
}

type swView struct {
	Seq     int64  `json:"seq"`
	Status  string `json:"status"`
	Current string `json:"current"`
	Pending []struct {
		ID      string `json:"id"`
		Options []struct{ Value string }
	} `json:"pending"`
	// Awaiting are the players' decisions, which the GM answers only
	// with override.
	Awaiting []struct {
		Decision struct {
			ID      string `json:"id"`
			Options []struct{ Value string }
		} `json:"decision"`
	} `json:"awaiting"`
	Board board.Board `json:"board"`
}

// fighter reads fighter id's token.
func (v swView) fighter(id string) fighterState {
	for _, t := range v.Board.Tokens {
		if t.ID != id {
			continue
		}
		var f fighterState
		if t.Health != nil {
			f.Wounds = t.Health.Value
		}
		f.Incapacitated = slices.ContainsFunc(t.Conditions, func(c board.Condition) bool { return c.ID == "incapacitated" || c.ID == "status" })
		return f
	}
	return fighterState{}
}

func (s *testServer) swView(u *apiUser, id string) swView {
	s.t.Helper()
	var v swView
	if code := s.withUser(u).do("GET", "/api/encounters/"+id, nil, &v); code != 200 {
		s.t.Fatalf("view %s: %d", id, code)
	}
	return v
}

// woundBrak plays encounter id as the GM (the ogre attacks Brak, everyone
// else ends their turn) until Brak has more than above wounds and is still
// standing; a blow that takes him out is undone. It returns his wounds.
func (s *testServer) woundBrak(gm *apiUser, id string, above int) int {
	s.t.Helper()
	for i := 0; i < 300; i++ {
		v := s.swView(gm, id)
		brak := v.fighter("brak")
		cid := fmt.Sprintf("w%d-%d-%d", above, v.Seq, i)
		switch {
		case brak.Incapacitated:
			if code, e := s.command(gm, id, cid, map[string]any{"kind": "rewind"}); code != 200 {
				s.t.Fatalf("rewind: %d %+v", code, e)
			}
			continue
		case brak.Wounds > above && v.Status == "running":
			return brak.Wounds
		case len(v.Awaiting) > 0:
			d := v.Awaiting[0].Decision
			s.command(gm, id, cid, map[string]any{"kind": "answer", "decision": d.ID, "choice": d.Options[0].Value, "override": true})
			continue
		case len(v.Pending) > 0:
			s.command(gm, id, cid, map[string]any{"kind": "answer", "decision": v.Pending[0].ID, "choice": v.Pending[0].Options[0].Value})
			continue
		}
		cmd := map[string]any{"kind": "end-turn", "actor": v.Current}
		if v.Current == "ogre" {
			cmd = map[string]any{"kind": "fight", "actor": "ogre", "target": "brak", "weapon": "club"}
		}
		if code, e := s.command(gm, id, cid, cmd); code != 200 && !(code == 422 && v.Current == "ogre") {
			s.t.Fatalf("%v: %d %+v", cmd, code, e)
		} else if code == 422 {
			s.command(gm, id, cid+"e", map[string]any{"kind": "end-turn", "actor": "ogre"})
		}
	}
	s.t.Fatal("the ogre never wounded Brak")
	return 0
}

type carrySummary struct {
	Seq        int64 `json:"seq"`
	Finished   bool  `json:"finished"`
	Characters []struct {
		ID       string         `json:"id"`
		State    string         `json:"state"`
		Revision int            `json:"revision"`
		Current  map[string]any `json:"current"`
		Proposal map[string]any `json:"proposal"`
		End      map[string]any `json:"end"`
	} `json:"characters"`
}

type carryResult struct {
	Results []struct {
		Character string `json:"character"`
		Decision  string `json:"decision"`
		Revision  int    `json:"revision"`
		Changed   bool   `json:"changed"`
	} `json:"results"`
}

type revisionsReply struct {
	Character struct {
		Revision int             `json:"revision"`
		Stats    json.RawMessage `json:"stats"`
	} `json:"character"`
	Revisions []struct {
		Revision      int    `json:"revision"`
		Kind          string `json:"kind"`
		EncounterID   string `json:"encounterId"`
		EncounterName string `json:"encounterName"`
		By            string `json:"by"`
		Changes       []struct{ Label, Before, After string }
	} `json:"revisions"`
}

func (s *testServer) carrySummary(u *apiUser, id string) carrySummary {
	s.t.Helper()
	var sum carrySummary
	if code := s.withUser(u).do("GET", "/api/encounters/"+id+"/carry-over", nil, &sum); code != 200 {
		s.t.Fatalf("carry-over summary: %d", code)
	}
	return sum
}

func (s *testServer) confirmCarry(u *apiUser, id string, seq int64, characters ...map[string]any) carryResult {
	s.t.Helper()
	var res carryResult
	if code := s.withUser(u).do("POST", "/api/encounters/"+id+"/carry-over", map[string]any{"seq": seq, "characters": characters}, &res); code != 200 {
		s.t.Fatalf("confirm: %d", code)
	}
	return res
}

func (s *testServer) end(gm *apiUser, id, cid string) {
	s.t.Helper()
	if code, e := s.command(gm, id, cid, map[string]any{"kind": "end", "winner": ""}); code != 200 {
		s.t.Fatalf("end: %d %+v", code, e)
	}
}

// TestCarryOverAcrossEncounters is issue 17's "done when": a fight played
// to its end is carried over; the next encounter starts with the carried
// wounds; confirming again changes nothing; reopening the fight (a rewind
// of its end) and ending it anew carries the new result only. Players see
// their own character's history, nobody else's.
func TestCarryOverAcrossEncounters(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	tb := srv.newTable()
	c := "/campaigns/" + tb.campaign
	if r := srv.prepForm(tb.gm, c+"/pcs", brakSheet); r.code != http.StatusSeeOther {
		t.Fatalf("create Brak: %d %s", r.code, r.body)
	}
	if code := srv.withUser(tb.gm).do("PUT", "/api/campaigns/"+tb.campaign+"/characters/brak", map[string]string{"user": tb.player.ID}, nil); code != 200 {
		t.Fatalf("assign Brak: %d", code)
	}
	other := srv.signup("player-two")
	var inv struct{ URL string }
	srv.withUser(tb.gm).do("POST", "/api/campaigns/"+tb.campaign+"/invites", nil, &inv)
	if code := srv.withUser(other).do("POST", "/api/join/"+inv.URL[strings.LastIndex(inv.URL, "/")+1:], nil, nil); code != 200 {
		t.Fatalf("join: %d", code)
	}
	stranger := srv.signup("stranger")

	var enc struct{ ID string }
	if code := srv.withUser(tb.gm).do("POST", "/api/campaigns/"+tb.campaign+"/encounters", ogreSetup("The bridge"), &enc); code != http.StatusCreated {
		t.Fatalf("create the bridge: %d", code)
	}
	a := enc.ID
	if code, e := srv.command(tb.gm, a, "start", map[string]any{"kind": "start"}); code != 200 {
		t.Fatalf("start: %d %+v", code, e)
	}

	// Before the end the summary is a preview and cannot be confirmed.
	w1 := srv.woundBrak(tb.gm, a, 0)
	if w1 > 2 {
		// Leave room for a later, different result.
		t.Logf("Brak took %d wounds at once", w1)
	}
	sum := srv.carrySummary(tb.gm, a)
	if sum.Finished || len(sum.Characters) != 1 || sum.Characters[0].State != "pending" {
		t.Fatalf("running summary %+v", sum)
	}
	if p := srv.send(tb.gm, "POST", "/api/encounters/"+a+"/carry-over", "application/json", fmt.Sprintf(`{"seq":%d,"characters":[{"id":"brak"}]}`, sum.Seq)); p.code != 422 {
		t.Fatalf("confirming a running encounter: %d %s", p.code, p.body)
	}
	srv.end(tb.gm, a, "end-1")
	sum = srv.carrySummary(tb.gm, a)
	b := sum.Characters[0]
	if !sum.Finished || b.State != "pending" || b.Revision != 1 || b.Current["wounds"] != 0.0 || b.Proposal["wounds"] != float64(w1) {
		t.Fatalf("summary after the end %+v", sum)
	}

	// Only the campaign's GMs see or confirm the carry-over.
	for _, u := range []*apiUser{tb.player, other} {
		if p := srv.get(u, "/api/encounters/"+a+"/carry-over"); p.code != 403 {
			t.Fatalf("%s reads the carry-over: %d", u.Name, p.code)
		}
		if p := srv.send(u, "POST", "/api/encounters/"+a+"/carry-over", "application/json", fmt.Sprintf(`{"seq":%d,"characters":[{"id":"brak"}]}`, sum.Seq)); p.code != 403 {
			t.Fatalf("%s confirms: %d", u.Name, p.code)
		}
	}
	if p := srv.get(stranger, "/api/encounters/"+a+"/carry-over"); p.code != 404 {
		t.Fatalf("a stranger reads the carry-over: %d", p.code)
	}
	// Malformed or stale confirmations change nothing.
	for body, code := range map[string]int{
		`{"characters":[{"id":"brak"}]}`: 400,
		fmt.Sprintf(`{"seq":%d,"characters":[{"id":"brak","values":{"wounds":9}}]}`, sum.Seq):  400,
		fmt.Sprintf(`{"seq":%d,"characters":[{"id":"brak","values":{"fatigue":1}}]}`, sum.Seq): 400,
		fmt.Sprintf(`{"seq":%d,"characters":[{"id":"ogre"}]}`, sum.Seq):                        404,
		fmt.Sprintf(`{"seq":%d,"characters":[{"id":"brak"}]}`, sum.Seq-1):                      409,
		fmt.Sprintf(`{"seq":%d,"characters":[{"id":"brak"}],"extra":1}`, sum.Seq):              400,
		`{"seq":`: 400,
	} {
		if p := srv.send(tb.gm, "POST", "/api/encounters/"+a+"/carry-over", "application/json", body); p.code != code {
			t.Fatalf("%s: %d %s, want %d", body, p.code, p.body, code)
		}
	}

	res := srv.confirmCarry(tb.gm, a, sum.Seq, map[string]any{"id": "brak"})
	if len(res.Results) != 1 || !res.Results[0].Changed || res.Results[0].Revision != 2 {
		t.Fatalf("confirm %+v", res)
	}

	// Brak's owner sees the new revision, linked to the fight and the GM;
	// the other player and strangers are told there is no such character.
	var revs revisionsReply
	if code := srv.withUser(tb.player).do("GET", "/api/campaigns/"+tb.campaign+"/characters/brak/revisions", nil, &revs); code != 200 {
		t.Fatalf("the owner's revisions: %d", code)
	}
	if len(revs.Revisions) != 2 || revs.Character.Revision != 2 {
		t.Fatalf("revisions %+v", revs)
	}
	if r := revs.Revisions[0]; r.Kind != "carried" || r.EncounterID != a || r.EncounterName != "The bridge" || r.By != "gamemaster" ||
		len(r.Changes) != 1 || r.Changes[0].Label != "Wounds" || r.Changes[0].After != fmt.Sprint(w1) {
		t.Fatalf("carried revision %+v", r)
	}
	for _, u := range []*apiUser{other, stranger} {
		if p := srv.get(u, "/api/campaigns/"+tb.campaign+"/characters/brak/revisions"); p.code != 404 {
			t.Fatalf("%s reads Brak's revisions: %d", u.Name, p.code)
		}
		if p := srv.get(u, c+"/characters/brak"); p.code != 404 {
			t.Fatalf("%s opens Brak's page: %d", u.Name, p.code)
		}
	}
	var listed []struct{ ID string }
	srv.withUser(other).do("GET", "/api/campaigns/"+tb.campaign+"/characters", nil, &listed)
	if len(listed) != 0 {
		t.Fatalf("the other player lists %+v", listed)
	}
	srv.withUser(tb.player).do("GET", "/api/campaigns/"+tb.campaign+"/characters", nil, &listed)
	if !slices.ContainsFunc(listed, func(c struct{ ID string }) bool { return c.ID == "brak" }) {
		t.Fatalf("the owner lists %+v", listed)
	}

	// The next encounter starts with the carried wounds.
	if code := srv.withUser(tb.gm).do("POST", "/api/campaigns/"+tb.campaign+"/encounters", ogreSetup("The mill"), &enc); code != http.StatusCreated {
		t.Fatalf("create the mill: %d", code)
	}
	next := enc.ID
	if got := srv.swView(tb.gm, next).fighter("brak").Wounds; got != w1 {
		t.Fatalf("Brak starts the next encounter with %d wounds, want %d", got, w1)
	}

	// So does one created from a draft that copied Brak's stats before the
	// carry-over: creating takes the sheet's latest revision.
	dup := srv.prepForm(tb.gm, "/encounters/"+a+"/duplicate", nil)
	created := srv.prepForm(tb.gm, strings.SplitN(dup.location, "?", 2)[0]+"/create", nil)
	if created.code != http.StatusSeeOther || !strings.HasPrefix(created.location, "/encounters/") {
		t.Fatalf("create from the draft: %d %s", created.code, created.location)
	}
	if got := srv.swView(tb.gm, strings.TrimPrefix(created.location, "/encounters/")).fighter("brak").Wounds; got != w1 {
		t.Fatalf("Brak starts the encounter made from a draft with %d wounds, want %d", got, w1)
	}

	// A second confirmation of the same end changes nothing.
	res = srv.confirmCarry(tb.gm, a, sum.Seq, map[string]any{"id": "brak"})
	if res.Results[0].Changed || res.Results[0].Revision != 2 {
		t.Fatalf("second confirm %+v", res)
	}
	srv.withUser(tb.gm).do("GET", "/api/campaigns/"+tb.campaign+"/characters/brak/revisions", nil, &revs)
	if len(revs.Revisions) != 2 {
		t.Fatalf("a second confirmation wrote a revision: %+v", revs.Revisions)
	}

	// The GM reopens the bridge (undoing its end) and plays on until Brak's
	// wounds differ, then ends it again: the new result replaces the old.
	if code, e := srv.command(tb.gm, a, "reopen", map[string]any{"kind": "rewind"}); code != 200 {
		t.Fatalf("reopen: %d %+v", code, e)
	}
	if s := srv.carrySummary(tb.gm, a); s.Finished || s.Characters[0].State != "changed" {
		t.Fatalf("summary of the reopened fight %+v", s)
	}
	if p := srv.send(tb.gm, "POST", "/api/encounters/"+a+"/carry-over", "application/json", fmt.Sprintf(`{"seq":%d,"characters":[{"id":"brak"}]}`, sum.Seq)); p.code != 422 {
		t.Fatalf("confirming the reopened fight: %d %s", p.code, p.body)
	}
	w2 := w1
	if w1 < 3 {
		w2 = srv.woundBrak(tb.gm, a, w1)
	} else {
		// Three wounds already: undo the blow and strike again until it
		// leaves fewer.
		for w2 == w1 {
			srv.command(tb.gm, a, fmt.Sprintf("undo-%d", srv.swView(tb.gm, a).Seq), map[string]any{"kind": "rewind"})
			w2 = srv.woundBrak(tb.gm, a, 0)
		}
	}
	srv.end(tb.gm, a, "end-2")
	sum2 := srv.carrySummary(tb.gm, a)
	if b := sum2.Characters[0]; b.State != "changed" || b.Current["wounds"] != float64(w1) || b.Proposal["wounds"] != float64(w2) {
		t.Fatalf("summary after the new end (w1 %d, w2 %d): %+v", w1, w2, sum2)
	}
	res = srv.confirmCarry(tb.gm, a, sum2.Seq, map[string]any{"id": "brak"})
	if !res.Results[0].Changed || res.Results[0].Revision != 3 {
		t.Fatalf("confirm the new end %+v", res)
	}
	srv.withUser(tb.player).do("GET", "/api/campaigns/"+tb.campaign+"/characters/brak/revisions", nil, &revs)
	var stats struct{ Wounds int }
	_ = json.Unmarshal(revs.Character.Stats, &stats)
	if stats.Wounds != w2 || len(revs.Revisions) != 3 || revs.Revisions[0].Changes[0].Before != fmt.Sprint(w1) {
		t.Fatalf("Brak after the new end has %d wounds (want %d): %+v", stats.Wounds, w2, revs)
	}
	// The encounter prepared before keeps what it started with.
	if got := srv.swView(tb.gm, next).fighter("brak").Wounds; got != w1 {
		t.Fatalf("the mill's Brak changed to %d wounds", got)
	}

	// The timeline links the revision for the GM and for Brak's owner, not
	// for the other player; the GM's timeline links the carry-over page.
	link := c + "/characters/brak#rev-3"
	if p := srv.get(tb.gm, c+"/timeline"); !strings.Contains(string(p.body), link) || !strings.Contains(string(p.body), "/encounters/"+a+"/carry-over") {
		t.Fatal("the GM's timeline does not link the carried revision and the carry-over")
	}
	if p := srv.get(tb.player, c+"/timeline"); !strings.Contains(string(p.body), link) || strings.Contains(string(p.body), "/carry-over") {
		t.Fatal("the owner's timeline does not link the carried revision, or links the GM's page")
	}
	if p := srv.get(other, c+"/timeline"); strings.Contains(string(p.body), link) {
		t.Fatal("the other player's timeline links Brak's revision")
	}
	// The character page shows the condition and the history.
	page := string(srv.get(tb.player, c+"/characters/brak").body)
	for _, want := range []string{`id="cond-wounds">` + fmt.Sprint(w2) + `<`, `id="rev-3"`, `id="rev-1"`, "The bridge", "gamemaster"} {
		if !strings.Contains(page, want) {
			t.Fatalf("Brak's page lacks %q", want)
		}
	}
	if strings.Contains(page, `id="edit-character"`) {
		t.Fatal("the player's character page offers the GM's editor")
	}
}

// TestCharactersExportImport: a campaign's characters export with their
// history and import into another campaign with it, plus a revision for
// the import; bad files store nothing.
func TestCharactersExportImport(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	tb := srv.newTable()
	c := "/campaigns/" + tb.campaign
	srv.prepForm(tb.gm, c+"/pcs", brakSheet)
	edited := url.Values{}
	for k, v := range brakSheet {
		edited[k] = v
	}
	edited.Set("wounds", "2")
	if r := srv.prepForm(tb.gm, c+"/pcs/brak", edited); r.code != http.StatusSeeOther {
		t.Fatalf("edit Brak: %d %s", r.code, r.body)
	}
	exp := srv.prepReq(tb.gm, "GET", c+"/characters.json", "", nil)
	if exp.code != 200 {
		t.Fatalf("export: %d", exp.code)
	}
	if p := srv.get(tb.player, c+"/characters.json"); p.code != 403 {
		t.Fatalf("a player exports: %d", p.code)
	}
	var file []struct {
		ID        string
		Revisions []struct {
			Revision int
			Kind     string
			Changes  []struct{ Label, Before, After string }
		}
	}
	// (The example's characters are the campaign's too; Brak is the one
	// prepared and edited.)
	err := json.Unmarshal(exp.body, &file)
	at := slices.IndexFunc(file, func(c struct {
		ID        string
		Revisions []struct {
			Revision int
			Kind     string
			Changes  []struct{ Label, Before, After string }
		}
	}) bool {
		return c.ID == "brak"
	})
	if err != nil || at < 0 || len(file[at].Revisions) != 2 ||
		file[at].Revisions[1].Kind != "edited" || file[at].Revisions[1].Changes[0].After != "2" {
		t.Fatalf("exported %s (%v)", exp.body, err)
	}

	var other struct{ ID string }
	srv.withUser(tb.gm).do("POST", "/api/campaigns", map[string]string{"name": "Second"}, &other)
	c2 := "/campaigns/" + other.ID
	imp := srv.upload(tb.gm, c2+"/characters/import", exp.body)
	if imp.code != http.StatusSeeOther || flash(imp.header, "notice") == "" {
		t.Fatalf("import: %d %s", imp.code, imp.location)
	}
	var imported []struct{ ID string }
	srv.withUser(tb.gm).do("GET", "/api/campaigns/"+other.ID+"/characters", nil, &imported)
	var revs revisionsReply
	srv.withUser(tb.gm).do("GET", "/api/campaigns/"+other.ID+"/characters/brak/revisions", nil, &revs)
	if len(revs.Revisions) != 3 || revs.Revisions[0].Kind != "imported" || revs.Revisions[1].Kind != "edited" || revs.Character.Revision != 3 {
		t.Fatalf("imported %+v", revs)
	}
	// Again: Brak exists, so nothing is imported; nor from broken files.
	for name, data := range map[string]string{
		"again":           string(exp.body),
		"malformed":       `[{"id":"x"`,
		"unknown field":   `[{"id":"x","name":"X","ruleset":"sw-zones","stats":{},"hp":3}]`,
		"bad stats":       `[{"id":"x","name":"X","ruleset":"sw-zones","stats":{"wounds":7}}]`,
		"bad revisions":   `[{"id":"x","name":"X","ruleset":"sw-zones","stats":{"attributes":{"agility":"d6","smarts":"d6","spirit":"d6","strength":"d6","vigor":"d6"}},"revisions":[{"revision":2,"kind":"created","stats":{}},{"revision":1,"kind":"edited","stats":{}}]}]`,
		"unknown ruleset": `[{"id":"x","name":"X","ruleset":"chess","stats":{}}]`,
		"bad id":          `[{"id":"a b/c","name":"X","ruleset":"sw-zones","stats":{"attributes":{"agility":"d6","smarts":"d6","spirit":"d6","strength":"d6","vigor":"d6"}}}]`,
	} {
		r := srv.upload(tb.gm, c2+"/characters/import", []byte(data))
		if r.code != http.StatusSeeOther || flash(r.header, "error") == "" {
			t.Fatalf("%s: %d %s", name, r.code, r.location)
		}
	}
	var listed []struct{ ID string }
	srv.withUser(tb.gm).do("GET", "/api/campaigns/"+other.ID+"/characters", nil, &listed)
	if len(listed) != len(file) || len(imported) != len(file) {
		t.Fatalf("after refused imports: %+v (imported %+v)", listed, imported)
	}
}
