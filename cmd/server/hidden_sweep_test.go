package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/links"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

// The hidden-information sweep: every registered ruleset, every example
// encounter, every channel a player can read.

// The marks a swept hidden combatant carries: its id, its name and a word
// added to every name in its stats (its weapons, its armour, its powers).
// None may reach a player before the combatant is revealed.
const (
	unseenCombatant = "xqlurker"
	unseenName      = "Vantablack Ossery"
	unseenStat      = "Umbrafel"
	// unseenPortrait is the hidden combatant's portrait: unseen until the
	// reveal, like its name.
	unseenPortrait = engine.AssetPrefix + "0b5c0b5c0b5c0b5c0b5c0b5c0b5c0b5c0b5c0b5c0b5c0b5c0b5c0b5c0b5c0b5c"
	// gmSecret marks what no player may ever read, before or after the
	// reveal: the GM's notes (on the encounter, a zone, the player's
	// character, the hidden combatant; in the setup and written in play)
	// and the handouts never shown (prepared in the setup and in play),
	// their pictures' URLs included.
	gmSecret        = "Gmsecretmark"
	gmSecretPicture = engine.AssetPrefix + "5ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2e75ec2"
)

var secretMarks = regexp.MustCompile(`(?i)` + gmSecret + `|` + regexp.QuoteMeta(gmSecretPicture))

// addSecrets gives a setup document the GM's notes and an unrevealed
// handout carrying the secret marks, and the hidden combatant its notes
// and portrait.
func addSecrets(doc map[string]any, hidden map[string]any, pc string) {
	hidden["notes"] = gmSecret + " on the hidden one"
	hidden["portrait"] = unseenPortrait
	doc["notes"] = []any{
		map[string]any{"subject": "encounter", "text": gmSecret + " the bridge gives way"},
		map[string]any{"subject": "zone:ford", "text": gmSecret + " deep water"},
		map[string]any{"subject": "combatant:" + pc, "text": gmSecret + " the player's secret"},
	}
	doc["handouts"] = []any{
		map[string]any{"id": "sealed-letter", "title": gmSecret + " letter", "text": gmSecret + " text", "image": gmSecretPicture},
	}
	// A scene the GM prepared but never shows (offered to the GM alone, for
	// the scene and for a zone's picture), beside a scene laid as a map and
	// a zone's picture that players do see.
	doc["scene"] = sweptScene
	doc["scenes"] = []any{map[string]any{"name": gmSecret + " the lair", "image": gmSecretPicture}}
	doc["zoneScenes"] = []any{map[string]any{"zone": "ford", "image": sweptScene}}
	doc["sceneFit"] = map[string]any{"x": -0.5, "y": 0, "w": 6, "h": 4}
}

// sweptScene is the scene and a zone's picture in every swept encounter:
// players see it.
const sweptScene = engine.AssetPrefix + "5ce9e05ce9e05ce9e05ce9e05ce9e05ce9e05ce9e05ce9e05ce9e05ce9e05ce9"

// sweepCommands and sweepEvents bound the bot's play per example (the
// replay is read at every seq), so the sweep of every example stays within
// CI's budget.
const sweepCommands, sweepEvents = 40, 100

// TestHiddenInformationSweep plays every example encounter of every
// registered ruleset (a ruleset without an example fails) with the
// contract bot as the GM, the hidden combatant renamed — or, where the
// example has none, an NPC of the GM's side cloned as one — to marks no
// other text contains. A player who owns a PC watches over two live
// websockets (JSON with the view, and the page's HTML fragments), and
// after every command reads the API view and the encounter page (and
// every few commands the log page and the campaign timeline). At the end
// the GM reveals the combatant and the player reads the events API, a
// websocket resumed from 0 (JSON and HTML), both exports, the log and the
// replay at every seq. Nothing a player reads may carry the combatant's
// id, name or stats before the seq that revealed it; and every channel
// shows each event exactly as the live socket showed it then.
func TestHiddenInformationSweep(t *testing.T) {
	start := time.Now()
	dbURL := testdb.URL(t)
	// Links are followed after every command: no rate limit to speak of.
	srv := startServerEnv(t, dbURL, map[string]string{"FRAY_DICE_SEED": "23", "FRAY_LOGIN_REFILL": "1ms"})
	gm, player := srv.signup("sweep-gm"), srv.signup("sweep-player")
	signer := serverSigner(t, dbURL)
	labels := 0
	exs, err := prep.Examples()
	if err != nil {
		t.Fatal(err)
	}
	for i, rs := range rules.Registry().All() {
		var swept int
		for j, ex := range exs {
			var head struct{ Ruleset string }
			if err := json.Unmarshal(ex.Data, &head); err != nil {
				t.Fatalf("%s: %v", ex.Name, err)
			}
			if head.Ruleset != rs.ID() {
				continue
			}
			swept++
			t.Run(ex.Name, func(t *testing.T) {
				s := *srv
				s.t = t
				labels += sweepExample(t, &s, gm, player, signer, ex, uint64(i*100+j))
			})
		}
		if swept == 0 {
			t.Errorf("ruleset %s has no example encounter to sweep", rs.ID())
		}
	}
	t.Logf("swept %d examples in %s; %d answers by the player's standing orders", len(exs), time.Since(start).Round(time.Millisecond), labels)
	if labels == 0 && !t.Failed() {
		t.Error("the player's standing orders answered nothing: the sweep saw no such label")
	}
}

// serverSigner is the test server's own link signer, with the key it
// keeps in its database: the sweep signs the links a notice would carry.
func serverSigner(t testing.TB, dbURL string) *links.Signer {
	t.Helper()
	db, err := store.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	key, err := db.ServerKey(context.Background(), "links", links.NewKey)
	if err != nil {
		t.Fatal(err)
	}
	return links.NewSigner(key)
}

// unseenSetup returns the example's setup with its hidden combatant
// carrying the sweep's marks: the example's own, renamed (its id wherever
// the setup names it), or a hidden clone of an NPC (of a combatant of
// another side than the player's, where there is no NPC). Each start the
// clone may take is tried in turn: where the source stands, then beside
// it, then wherever the ruleset puts a combatant with no start.
func unseenSetup(t *testing.T, data []byte) (setups [][]byte, pc string) {
	t.Helper()
	doc := decodeNumbers(t, data)
	combatants, _ := doc["combatants"].([]any)
	var hidden, source map[string]any
	for _, c := range combatants {
		m := c.(map[string]any)
		switch {
		case m["hidden"] == true && hidden == nil:
			hidden = m
		case m["pc"] == true && pc == "":
			pc = m["id"].(string)
		}
	}
	if pc == "" {
		t.Fatal("the example has no player character")
	}
	if hidden != nil {
		renameValues(doc, hidden["id"].(string), unseenCombatant)
		hidden["name"] = unseenName
		markNames(hidden["stats"])
		addSecrets(doc, hidden, pc)
		setup, _ := json.Marshal(doc)
		return [][]byte{setup}, pc
	}
	var pcSide any
	for _, c := range combatants {
		if m := c.(map[string]any); m["id"] == pc {
			pcSide = m["side"]
		}
	}
	for _, npc := range []bool{true, false} {
		for _, c := range combatants {
			if m := c.(map[string]any); source == nil && m["side"] != pcSide && (m["pc"] != true || !npc) {
				source = m
			}
		}
	}
	if source == nil {
		t.Fatal("the example has no combatant to clone as a hidden one")
	}
	raw, _ := json.Marshal(source)
	var starts []any
	start, _ := source["start"].(map[string]any)
	starts = append(starts, start)
	for _, axis := range []string{"x", "y"} {
		if n, ok := start[axis].(json.Number); ok {
			for _, d := range []int64{1, -1, 2, -2} {
				i, _ := n.Int64()
				moved := maps.Clone(start)
				moved[axis] = i + d
				starts = append(starts, moved)
			}
		}
	}
	starts = append(starts, map[string]any{})
	for _, st := range starts {
		clone := decodeNumbers(t, raw)
		clone["id"], clone["name"], clone["hidden"], clone["pc"], clone["start"] = unseenCombatant, unseenName, true, false, st
		markNames(clone["stats"])
		addSecrets(doc, clone, pc)
		doc["combatants"] = append(slices.Clone(combatants), clone)
		setup, _ := json.Marshal(doc)
		setups = append(setups, setup)
	}
	return setups, pc
}

func decodeNumbers(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// renameValues replaces every string value old in v with new.
func renameValues(v any, old, new string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && s == old {
				x[k] = new
			} else {
				renameValues(e, old, new)
			}
		}
	case []any:
		for i, e := range x {
			if s, ok := e.(string); ok && s == old {
				x[i] = new
			} else {
				renameValues(e, old, new)
			}
		}
	}
}

// markNames adds the stat mark to every "name" in a stat block.
func markNames(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "name" {
				x[k] = s + " " + unseenStat
			} else {
				markNames(e)
			}
		}
	case []any:
		for _, e := range x {
			markNames(e)
		}
	}
}

// channelKey cuts a channel's name to what the sweep counts by.
var channelKey = regexp.MustCompile(` (\(|at |after |resumed |with ).*`)

var unseenMarks = regexp.MustCompile(`(?i)` + regexp.QuoteMeta(unseenCombatant) + `|` + regexp.QuoteMeta(unseenName) + `|` + unseenStat + `|` + regexp.QuoteMeta(unseenPortrait))

// leak returns where b names the hidden combatant, with some context, or "".
func leak(b []byte) string {
	loc := unseenMarks.FindIndex(b)
	if loc == nil {
		return ""
	}
	return fmt.Sprintf("%q in …%s…", b[loc[0]:loc[1]], b[max(0, loc[0]-240):min(len(b), loc[1]+120)])
}

// hiddenSweep is one example under way.
type hiddenSweep struct {
	t              *testing.T
	srv            *testServer
	gm, player     *apiUser
	id, campaign   string
	revealed       int64 // the seq that revealed the combatant; MaxInt64 until then
	checked        map[string]int
	live           map[int64]json.RawMessage // each event as the player's live socket got it
	jsonWS, htmlWS *fightSocket
	gmEvents       []engine.Event
	lastSeq        int64
	secretsChecked int // bodies searched for the GM's secrets
	// signer signs the links a notice would carry; opened is where each
	// decision was asked (its decision-opened event), read up to read.
	signer *links.Signer
	opened map[string]int64
	read   int64
}

// check fails the test when what the player read on channel names the
// hidden combatant.
func (sw *hiddenSweep) check(channel string, b []byte) {
	sw.t.Helper()
	sw.checked[channelKey.ReplaceAllString(channel, "")]++
	if l := leak(b); l != "" {
		sw.t.Errorf("%s shows the player the hidden combatant: %s", channel, l)
	}
	sw.checkSecrets(channel, b)
}

// checkSecrets fails the test when what the player read on channel, at
// any time, holds a GM's note or an unrevealed handout.
func (sw *hiddenSweep) checkSecrets(channel string, b []byte) {
	sw.t.Helper()
	if loc := secretMarks.FindIndex(b); loc != nil {
		sw.t.Errorf("%s shows the player a GM secret: %q in …%s…", channel, b[loc[0]:loc[1]], b[max(0, loc[0]-200):min(len(b), loc[1]+100)])
	}
	sw.secretsChecked++
}

// checkEvent checks one event the player read on channel, unless it came
// at or after the reveal.
func (sw *hiddenSweep) checkEvent(channel string, ev json.RawMessage) {
	sw.t.Helper()
	sw.checkSecrets(channel, ev)
	if seq := seqOf(sw.t, ev); seq < sw.revealed {
		sw.check(fmt.Sprintf("%s (event %d)", channel, seq), ev)
	}
}

func sweepExample(t *testing.T, srv *testServer, gm, player *apiUser, signer *links.Signer, ex prep.Example, seed uint64) (labels int) {
	setups, pc := unseenSetup(t, ex.Data)
	var created struct{ ID, Campaign, Message string }
	var refused []string
	for _, setup := range setups {
		if code := srv.call(gm, "POST", "/api/encounters", setup, &created); code == http.StatusCreated {
			break
		} else {
			refused = append(refused, fmt.Sprintf("%d %s", code, created.Message))
		}
	}
	if created.ID == "" {
		t.Fatalf("every setup with the hidden combatant was refused: %v", refused)
	}
	srv.join(gm, created.Campaign, player, pc)
	sw := &hiddenSweep{t: t, srv: srv, gm: gm, player: player, id: created.ID, campaign: created.Campaign,
		revealed: 1<<63 - 1, checked: map[string]int{}, live: map[int64]json.RawMessage{}, signer: signer, opened: map[string]int64{}}
	// The player is away, with a standing order for every prompt (its
	// first answer): the answers it gives are labelled in every channel.
	// And the encounter has a clock, which the player's pages show.
	var decl struct {
		Prompts []engine.PromptSpec `json:"prompts"`
	}
	srv.call(player, "GET", "/api/encounters/"+sw.id+"/orders", nil, &decl)
	orders := engine.StandingOrders{}
	for _, q := range decl.Prompts {
		orders[q.Kind] = engine.StandingOrder{When: engine.Always, Then: q.Answers[0].Value}
	}
	if code := srv.call(player, "PUT", "/api/encounters/"+sw.id+"/orders", map[string]any{"character": pc, "away": true, "orders": orders}, nil); code != http.StatusOK {
		t.Fatalf("standing orders: %d", code)
	}
	if code := srv.call(gm, "PUT", "/api/encounters/"+sw.id+"/deadline", map[string]any{"bank": "3h", "increment": "30m", "fallback": "next-turn"}, nil); code != http.StatusOK {
		t.Fatalf("clock: %d", code)
	}
	sw.jsonWS = srv.connect(player, sw.id, "view=1")
	sw.htmlWS = srv.connect(player, sw.id, "view=1&html=1")
	sw.pages("at setup", true)
	// The GM writes notes and prepares a handout in play, all secret; and
	// sees them, so the sweep cannot pass for want of secrets.
	for i, cmd := range []map[string]any{
		{"kind": engine.KindSetNote, "subject": "encounter", "text": gmSecret + " written in play"},
		{"kind": engine.KindSetNote, "subject": "combatant:" + unseenCombatant, "text": gmSecret + " about the hidden one"},
		{"kind": engine.KindAddHandout, "title": "Map", "text": gmSecret + " prepared in play", "image": gmSecretPicture},
	} {
		if code, e := srv.command(gm, sw.id, fmt.Sprint("secret", i), cmd); code != 200 {
			t.Fatalf("%v: %d %+v", cmd, code, e)
		}
	}
	if code := srv.call(gm, "PUT", "/api/campaigns/"+sw.campaign+"/notes", map[string]string{"notes": gmSecret + " the campaign's notes"}, nil); code != 200 {
		t.Fatalf("campaign notes: %d", code)
	}
	if gv := srv.get(gm, "/api/encounters/"+sw.id).body; !secretMarks.Match(gv) || !bytes.Contains(gv, []byte(unseenPortrait)) {
		t.Fatal("the GM's view holds no notes, handout or portrait: the sweep would look for nothing")
	}
	sw.pages("with the GM's secrets", true)

	rng := rand.New(rand.NewPCG(seed, 23))
	for step := 0; step < sweepCommands; step++ {
		v := srv.viewAs(gm, sw.id)
		if v.Status == engine.StatusFinished || v.Seq >= sweepEvents {
			break
		}
		v.Actions = slices.DeleteFunc(v.Actions, func(a engine.Action) bool {
			return a.Kind == engine.KindReveal || a.Kind == engine.KindRevealHandout || // the GM's choices to show
				a.Kind == engine.KindSetScene || a.Kind == engine.KindSetZoneScene
		})
		cmd := contractPick(rng, v, nil)
		if cmd == nil {
			t.Fatalf("nothing offered (status %s, waiting %v)", v.Status, v.Waiting)
		}
		var reply errorReply
		code := srv.call(gm, "POST", "/api/encounters/"+sw.id+"/commands", map[string]any{"id": fmt.Sprint("s", step), "command": cmd}, &reply)
		if code != http.StatusOK && (code >= 500 || reply.Message == "") {
			t.Fatalf("%v answered %d %+v", cmd, code, reply)
		}
		if !sw.stillHidden() {
			break // a rule revealed it (an ambusher who attacks)
		}
		if code == http.StatusOK && sw.stillHidden() {
			sw.pages(fmt.Sprint("after command ", step), step%10 == 9)
		}
	}

	// The GM reveals the combatant, unless the fight is over or a rule did.
	v := srv.viewAs(gm, sw.id)
	if i := slices.IndexFunc(v.Combatants, func(c engine.Combatant) bool { return c.ID == unseenCombatant }); i >= 0 && v.Combatants[i].Hidden && v.Status != engine.StatusFinished {
		if code, e := srv.command(gm, sw.id, "reveal", map[string]any{"kind": engine.KindReveal, "combatant": unseenCombatant}); code != 200 {
			t.Fatalf("reveal: %d %+v", code, e)
		}
	}
	sw.gmEvents = sw.gmLog()
	for _, ev := range sw.gmEvents {
		var d engine.Revealed
		if ev.Kind == engine.KindRevealed && ev.Decode(&d) == nil && d.Combatant == unseenCombatant {
			sw.revealed = ev.Seq
			break
		}
	}
	sw.lastSeq = sw.gmEvents[len(sw.gmEvents)-1].Seq
	sw.jsonWS.waitSeq(sw.lastSeq)
	sw.htmlWS.waitSeq(sw.lastSeq)
	sw.liveFrames()
	sw.history()
	for _, ev := range sw.gmEvents {
		var d engine.DecisionResolved
		if (ev.Kind == engine.KindDecisionResolved || ev.Kind == engine.KindDecisionAnswered) && ev.Decode(&d) == nil && d.Via == engine.AgentStanding {
			labels++
		}
	}
	t.Logf("%d events, revealed at %d; checked %v; %d bodies searched for the GM's secrets; %d answers by standing order", sw.lastSeq, sw.revealed, sw.checked, sw.secretsChecked, labels)
	return labels
}

// stillHidden reports whether the GM's view still has the combatant hidden.
func (sw *hiddenSweep) stillHidden() bool {
	sw.t.Helper()
	v := sw.srv.viewAs(sw.gm, sw.id)
	return slices.ContainsFunc(v.Combatants, func(c engine.Combatant) bool { return c.ID == unseenCombatant && c.Hidden })
}

// pages reads what the player's pages and views show now (with history,
// the log page and the timeline too); before the reveal, none may name the
// hidden combatant.
func (sw *hiddenSweep) pages(when string, history bool) {
	sw.t.Helper()
	p := sw.srv.get(sw.player, "/api/encounters/"+sw.id)
	sw.check("the API view "+when, p.body)
	p = sw.srv.get(sw.player, "/encounters/"+sw.id)
	sw.check("the encounter page "+when, p.body)
	sw.check("the clock "+when, sw.srv.get(sw.player, "/api/encounters/"+sw.id+"/clock").body)
	sw.links(when)
	if history {
		sw.words(when)
		sw.check("the standing orders page "+when, sw.srv.get(sw.player, "/encounters/"+sw.id+"/orders").body)
		sw.check("the standing orders API "+when, sw.srv.get(sw.player, "/api/encounters/"+sw.id+"/orders").body)
		sw.check("the log page "+when, sw.srv.get(sw.player, "/encounters/"+sw.id+"/log").body)
		sw.check("the timeline "+when, sw.srv.get(sw.player, "/campaigns/"+sw.campaign+"/timeline").body)
	}
}

// words asks, as the player, the command line (POST and GET
// /api/encounters/{id}/say) to complete the hidden combatant's name and
// id after each of their actions' words, and to read sentences naming it
// (each refused: it names nothing the player's view holds), and the table's
// questions (the board described, the status, help): no answer may name
// the combatant, nor a completion finish its name. A sentence that could
// be read as a command carrying free text is left out: the player's own
// words would reach the log.
func (sw *hiddenSweep) words(when string) {
	sw.t.Helper()
	base := "/api/encounters/" + sw.id + "/say"
	v := sw.srv.viewAs(sw.player, sw.id)
	texts := []string{"", "describe the board", "status", "help", unseenName, "attack " + unseenName}
	partial := []string{"", "a", unseenName[:5], unseenCombatant[:4]}
	for _, a := range v.Actions {
		if slices.ContainsFunc(a.Fields, func(f engine.Field) bool { return f.Type == engine.FieldString }) {
			continue
		}
		texts = append(texts, a.Label+" "+unseenName, a.Label+" "+unseenCombatant)
		partial = append(partial, a.Label+" ", a.Label+" "+unseenName[:5], a.Label+" "+unseenCombatant[:4])
	}
	for _, text := range partial {
		sw.check("the command line's completions "+when, sw.srv.get(sw.player, base+"?text="+url.QueryEscape(text)).body)
	}
	for _, text := range texts {
		var reply json.RawMessage
		code := sw.srv.call(sw.player, "POST", base, map[string]string{"text": text}, &reply)
		if code >= 500 {
			sw.t.Fatalf("said %q: %d %s", text, code, reply)
		}
		sw.check("the command line's answer "+when, reply)
		// A sentence read as a command answers with what it was read as
		// and the seq it was stored at. (The encounter's own seq is no
		// witness: the away player's standing orders answer on the
		// deadline worker's time, between two of these sentences.)
		var said struct {
			Said string `json:"said"`
			Seq  int64  `json:"seq"`
		}
		if json.Unmarshal(reply, &said) == nil && (said.Said != "" || said.Seq != 0) {
			sw.t.Fatalf("%q was read as a command (%d): %s", text, code, reply)
		}
	}
}

// links follows, as the player, the links a notice would carry now: to
// each decision waiting for them (the decision page and its API) and to
// their turn; neither the links nor what they open may show the hidden
// combatant.
func (sw *hiddenSweep) links(when string) {
	sw.t.Helper()
	for since := sw.read; ; {
		var page struct{ Events []engine.Event }
		sw.srv.call(sw.gm, "GET", fmt.Sprintf("/api/encounters/%s/events?since=%d", sw.id, since), nil, &page)
		if len(page.Events) == 0 {
			break
		}
		for _, ev := range page.Events {
			var d engine.DecisionOpened
			if ev.Kind == engine.KindDecisionOpened && ev.Decode(&d) == nil {
				sw.opened[d.Decision.ID] = ev.Seq
			}
		}
		since = page.Events[len(page.Events)-1].Seq
		sw.read = since
	}
	var v engine.View
	sw.srv.call(sw.player, "GET", "/api/encounters/"+sw.id, nil, &v)
	var tokens []string
	for _, d := range v.Pending {
		tokens = append(tokens, sw.signer.Sign(links.Link{User: sw.player.ID, Encounter: sw.id, Decision: d.ID, Seq: sw.opened[d.ID], Expires: time.Now().Add(time.Hour).Unix()}))
	}
	if v.Attention != nil && len(v.Attention.Turn) > 0 {
		tokens = append(tokens, sw.signer.Sign(links.Link{User: sw.player.ID, Encounter: sw.id, Seq: v.Seq, Expires: time.Now().Add(time.Hour).Unix()}))
	}
	for _, token := range tokens {
		payload, _, _ := strings.Cut(token, ".")
		raw, _ := base64.RawURLEncoding.DecodeString(payload)
		sw.check("a notice's link "+when, raw)
		sw.check("the decision page "+when, sw.srv.get(sw.player, "/act/"+token).body)
		sw.check("the decision API "+when, sw.srv.get(sw.player, "/api/act/"+token).body)
	}
}

// gmLog is the whole log as the GM reads it.
func (sw *hiddenSweep) gmLog() []engine.Event {
	sw.t.Helper()
	var log []engine.Event
	for since := int64(0); ; {
		var page struct{ Events []engine.Event }
		sw.srv.call(sw.gm, "GET", fmt.Sprintf("/api/encounters/%s/events?since=%d", sw.id, since), nil, &page)
		if len(page.Events) == 0 {
			return log
		}
		log = append(log, page.Events...)
		since = page.Events[len(page.Events)-1].Seq
	}
}

// frame is a websocket message as the sweep reads it.
type sweepFrame struct {
	Type   string            `json:"type"`
	Seq    int64             `json:"seq"`
	Events []json.RawMessage `json:"events"`
	View   json.RawMessage   `json:"view"`
	HTML   map[string]string `json:"html"`
}

// liveFrames checks every frame the player's sockets received.
func (sw *hiddenSweep) liveFrames() {
	sw.t.Helper()
	for _, ws := range []*fightSocket{sw.jsonWS, sw.htmlWS} {
		name := "the live JSON socket"
		if ws == sw.htmlWS {
			name = "the live HTML socket"
		}
		for _, raw := range ws.all() {
			var f sweepFrame
			if err := json.Unmarshal(raw, &f); err != nil {
				sw.t.Fatal(err)
			}
			// A frame up to the reveal shows nothing of the combatant; one
			// that brings the reveal may show it in the view and fragments,
			// but not in the events before the reveal.
			if f.Seq < sw.revealed {
				sw.check(fmt.Sprintf("%s (frame at %d)", name, f.Seq), raw)
			} else {
				sw.checkSecrets(fmt.Sprintf("%s (frame at %d)", name, f.Seq), raw)
			}
			for _, ev := range f.Events {
				sw.checkEvent(name, ev)
				if ws == sw.jsonWS {
					sw.live[seqOf(sw.t, ev)] = ev
				}
			}
		}
	}
}

// history checks every history channel, and that each shows every event
// as the live socket did.
func (sw *hiddenSweep) history() {
	sw.t.Helper()
	agree := func(channel string, events []json.RawMessage) {
		sw.t.Helper()
		seen := map[int64]bool{}
		for _, ev := range events {
			seq := seqOf(sw.t, ev)
			seen[seq] = true
			sw.checkEvent(channel, ev)
			if seq > sw.lastSeq {
				// An away player's standing order answered after the
				// sockets were read to the end: checked, not compared.
				continue
			}
			if live, ok := sw.live[seq]; !ok {
				sw.t.Errorf("%s shows event %d, which the live socket never showed: %s", channel, seq, ev)
			} else if !sameJSON(sw.t, live, ev) {
				sw.t.Errorf("%s shows event %d\n\t%s\nbut the live socket showed\n\t%s", channel, seq, ev, live)
			}
		}
		for seq := range sw.live {
			if !seen[seq] {
				sw.t.Errorf("%s leaves out event %d, which the live socket showed", channel, seq)
			}
		}
	}
	// The events API, from 0.
	var api []json.RawMessage
	for since := int64(0); ; {
		var page struct{ Events []json.RawMessage }
		sw.srv.call(sw.player, "GET", fmt.Sprintf("/api/encounters/%s/events?since=%d", sw.id, since), nil, &page)
		if len(page.Events) == 0 {
			break
		}
		api = append(api, page.Events...)
		since = seqOf(sw.t, page.Events[len(page.Events)-1])
	}
	agree("the events API", api)

	// A websocket resumed from 0, as JSON and with the page's fragments.
	for _, q := range []string{"since=0", "since=0&html=1"} {
		ws := sw.srv.connect(sw.player, sw.id, q)
		var f sweepFrame
		if err := json.Unmarshal(ws.all()[0], &f); err != nil {
			sw.t.Fatal(err)
		}
		if f.Type != "events" {
			sw.t.Fatalf("resuming from 0 gave a %s", f.Type)
		}
		agree("the socket resumed with "+q, f.Events)
		sw.checkSecrets("the socket resumed with "+q, ws.all()[0])
		if f.HTML != nil {
			for part, html := range f.HTML {
				sw.checkHTML("the fragment "+part+" resumed from 0", []byte(html))
			}
		}
		ws.conn.CloseNow()
	}

	// The exports.
	var doc struct {
		Events     []json.RawMessage `json:"events"`
		Combatants json.RawMessage   `json:"combatants"`
	}
	p := sw.srv.get(sw.player, "/api/encounters/"+sw.id+"/export.json")
	if err := json.Unmarshal(p.body, &doc); err != nil {
		sw.t.Fatalf("export.json: %d %s", p.code, p.body)
	}
	agree("the JSON export", doc.Events)
	sw.checkSecrets("the JSON export", p.body)
	if sw.revealed == 1<<63-1 {
		sw.check("the JSON export", p.body)
	}
	md := sw.srv.get(sw.player, "/encounters/"+sw.id+"/export.md").body
	sw.checkSecrets("the Markdown export", md)
	sw.checkBlocks("the Markdown export", md, regexp.MustCompile("(?m)^- (?:~~)?`#([0-9]+)`"))

	// The log page, every page of it.
	for after := int64(0); ; {
		body := sw.srv.get(sw.player, fmt.Sprintf("/encounters/%s/log?after=%d", sw.id, after)).body
		sw.checkHTML(fmt.Sprintf("the log page after %d", after), body)
		sw.checkSecrets(fmt.Sprintf("the log page after %d", after), body)
		m := regexp.MustCompile(`log\?after=([0-9]+)`).FindSubmatch(body)
		if m == nil {
			break
		}
		after, _ = strconv.ParseInt(string(m[1]), 10, 64)
	}
	timeline := sw.srv.get(sw.player, "/campaigns/"+sw.campaign+"/timeline").body
	sw.checkSecrets("the timeline", timeline)
	if sw.revealed == 1<<63-1 {
		sw.check("the timeline", timeline)
	}
	// After the reveal too: the views and pages.
	sw.checkSecrets("the API view at the end", sw.srv.get(sw.player, "/api/encounters/"+sw.id).body)
	sw.checkSecrets("the encounter page at the end", sw.srv.get(sw.player, "/encounters/"+sw.id).body)
	sw.checkSecrets("the campaign page at the end", sw.srv.get(sw.player, "/campaigns/"+sw.campaign).body)

	// The replay, at every seq before the reveal: the page and the API.
	for seq := int64(0); seq <= sw.lastSeq && seq < sw.revealed; seq++ {
		sw.check(fmt.Sprintf("the replay page at %d", seq), sw.srv.get(sw.player, fmt.Sprintf("/encounters/%s/replay?seq=%d", sw.id, seq)).body)
		var step struct{ Event json.RawMessage }
		p := sw.srv.get(sw.player, fmt.Sprintf("/api/encounters/%s/replay?seq=%d", sw.id, seq))
		sw.check(fmt.Sprintf("the API replay at %d", seq), p.body)
		if err := json.Unmarshal(p.body, &step); err != nil {
			sw.t.Fatalf("API replay at %d: %d %s", seq, p.code, p.body)
		}
		if live, ok := sw.live[seq]; ok && !sameJSON(sw.t, live, step.Event) {
			sw.t.Errorf("the API replay at %d shows\n\t%s\nbut the live socket showed\n\t%s", seq, step.Event, live)
		}
	}
}

// checkHTML checks a page or fragment: whole before the reveal; after it,
// each log entry (id="ev-SEQ") of an event before the reveal.
func (sw *hiddenSweep) checkHTML(channel string, body []byte) {
	sw.t.Helper()
	if sw.revealed == 1<<63-1 {
		sw.check(channel, body)
		return
	}
	sw.checkBlocks(channel, body, regexp.MustCompile(`id="ev-([0-9]+)"`))
}

// checkBlocks checks the parts of a document that start where at matches
// (its group the event's seq) and run to the next match, for events before
// the reveal; all of it when nothing was revealed.
func (sw *hiddenSweep) checkBlocks(channel string, body []byte, at *regexp.Regexp) {
	sw.t.Helper()
	if sw.revealed == 1<<63-1 {
		sw.check(channel, body)
		return
	}
	ms := at.FindAllSubmatchIndex(body, -1)
	for i, m := range ms {
		end := len(body)
		if i+1 < len(ms) {
			end = ms[i+1][0]
		}
		seq, _ := strconv.ParseInt(string(body[m[2]:m[3]]), 10, 64)
		if seq < sw.revealed {
			sw.check(fmt.Sprintf("%s (event %d)", channel, seq), body[m[0]:min(end, m[0]+4000)])
		}
	}
}
