package realtime

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/fray-vtt/fray/internal/dice"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/engine/enginetest"
	"github.com/fray-vtt/fray/internal/patience"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/store"
	"github.com/fray-vtt/fray/internal/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }

// sock is one test client's websocket; frames keeps every message it got
// after its snapshot (which came before any choice).
type sock struct {
	t      *testing.T
	conn   *websocket.Conn
	frames [][]byte
}

// dial connects to url and reads past its snapshot.
func dial(t *testing.T, url string) *sock {
	return &sock{t: t, conn: dialSnapshot(t, context.Background(), url)}
}

func (s *sock) read() []byte {
	s.t.Helper()
	ctx, cancel := patience.Context(context.Background())
	defer cancel()
	_, data, err := s.conn.Read(ctx)
	if err != nil {
		s.t.Fatal(err)
	}
	s.frames = append(s.frames, data)
	return data
}

// readTo reads until a frame brings the client to seq.
func (s *sock) readTo(seq int64) {
	s.t.Helper()
	for {
		var m struct {
			Type string
			Seq  int64
		}
		if err := json.Unmarshal(s.read(), &m); err != nil {
			s.t.Fatal(err)
		}
		if m.Type != "ack" && m.Seq >= seq {
			return
		}
	}
}

func (s *sock) send(id string, cmd map[string]any) {
	s.t.Helper()
	raw, _ := json.Marshal(map[string]any{"type": "command", "id": id, "command": cmd})
	if err := s.conn.Write(context.Background(), websocket.MessageText, raw); err != nil {
		s.t.Fatal(err)
	}
}

// duel plays a toy encounter over real websockets up to the hero's
// commitment to a sealed answer and returns every frame each socket
// received, with the encounter's id and the commitments blanked; finish
// has the orc commit, both reveal, and returns the orc's frames since.
func duel(t *testing.T, db *store.DB, campaign, heroChoice string) (hero, orc, gm []byte, finish func() []byte) {
	t.Helper()
	ctx := context.Background()
	reg := engine.NewRegistry(enginetest.Toy{})
	setup, _ := json.Marshal(enginetest.Setup())
	enc, err := prep.Import(ctx, db, reg, campaign, setup)
	if err != nil {
		t.Fatal(err)
	}
	hub := NewHub(Config{Events: db})
	svc := play.New(play.Config{Store: db, Rulesets: reg, Publisher: hub,
		NewSource: func() dice.Source { return dice.NewSeeded(1) }})
	t.Cleanup(svc.Close)
	viewers := map[string]engine.Viewer{"hero": engine.PlayerViewer("hero"), "orc": engine.PlayerViewer("orc"), "gm": engine.GMViewer()}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hub.Serve(w, r, ServeOptions{Encounter: enc.ID, Table: svc, Viewer: viewers[r.URL.Query().Get("as")], Since: -1, View: true})
	}))
	t.Cleanup(srv.Close)
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/?as="
	h, o, g := dial(t, url+"hero"), dial(t, url+"orc"), dial(t, url+"gm")
	submit := func(s *sock, id string, cmd map[string]any) {
		t.Helper()
		s.send(id, cmd)
		var seq int64
		for seq == 0 {
			var m struct {
				Type, ID, Message string
				Seq               int64
			}
			if err := json.Unmarshal(s.read(), &m); err != nil {
				t.Fatal(err)
			}
			if m.Type == "error" {
				t.Fatalf("%s: %s", id, m.Message)
			}
			if m.Type == "ack" && m.ID == id {
				seq = m.Seq
			}
		}
		for _, other := range []*sock{h, o, g} {
			if other != s {
				other.readTo(seq)
			}
		}
	}
	submit(g, "c1", map[string]any{"kind": "start"})
	submit(h, "c2", map[string]any{"kind": "duel", "actor": "hero", "target": "orc"})
	const heroNonce, orcNonce = "00112233445566778899aabbccddeeff", "ffeeddccbbaa99887766554433221100"
	commitment := func(decision, choice, nonce string) string {
		c, err := engine.Commitment(decision, choice, nil, nonce)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	submit(h, "c3", map[string]any{"kind": "answer", "decision": "d4", "commitment": commitment("d4", heroChoice, heroNonce)})
	hashes := regexp.MustCompile(`"commitment":"[0-9a-f]{64}"`)
	blank := func(s *sock) []byte {
		all := bytes.ReplaceAll(bytes.Join(s.frames, []byte("\n")), []byte(enc.ID), []byte("ENC"))
		return hashes.ReplaceAll(all, []byte(`"commitment":"HASH"`))
	}
	hero, orc, gm = blank(h), blank(o), blank(g)
	if !bytes.Contains(bytes.Join(h.frames, nil), []byte(commitment("d4", heroChoice, heroNonce))) {
		t.Fatal("the hero's socket does not show its commitment")
	}
	return hero, orc, gm, func() []byte {
		o.frames = nil
		submit(o, "c4", map[string]any{"kind": "answer", "decision": "d5", "commitment": commitment("d5", "careful", orcNonce)})
		submit(h, "c5", map[string]any{"kind": "unseal", "decision": "d4", "choice": heroChoice, "nonce": heroNonce})
		submit(o, "c6", map[string]any{"kind": "unseal", "decision": "d5", "choice": "careful", "nonce": orcNonce})
		return blank(o)
	}
}

// TestSealedChoiceOverWebsockets: after the hero commits to a sealed
// answer, every frame the orc's socket receives is byte for byte what it
// would be had the hero chosen the other option, but for the commitment's
// hash — and so is every frame of the GM's and the hero's own sockets: the
// server never had the choice. Once both committed and revealed, one
// reveal shows both.
func TestSealedChoiceOverWebsockets(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, testdb.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := db.CreateCampaign(ctx, "sealed")
	if err != nil {
		t.Fatal(err)
	}
	heroBold, orcBold, gmBold, _ := duel(t, db, c.ID, "bold")
	heroCareful, orcCareful, gmCareful, finish := duel(t, db, c.ID, "careful")
	if !bytes.Equal(orcBold, orcCareful) {
		t.Fatalf("the orc's socket tells the hero's stance apart:\n%s\n----\n%s", orcBold, orcCareful)
	}
	if bytes.Contains(orcBold, []byte("decision-sealed")) || !bytes.Contains(orcBold, []byte("Hero has answered.")) {
		t.Fatalf("the orc's frames: %s", orcBold)
	}
	for name, pair := range map[string][2][]byte{"GM": {gmBold, gmCareful}, "hero": {heroBold, heroCareful}} {
		if !bytes.Equal(pair[0], pair[1]) || bytes.Contains(pair[0], []byte("Bold")) && !bytes.Contains(pair[0], []byte(`"label":"Bold"`)) {
			t.Fatalf("the %s's socket tells the sealed answer:\n%s\n----\n%s", name, pair[0], pair[1])
		}
	}
	// The orc commits, both reveal: one reveal shows both to everyone.
	if after := finish(); !bytes.Contains(after, []byte("Revealed: Hero — Careful; Orc — Careful.")) {
		t.Fatalf("the orc's frames after the reveal: %s", after)
	}
}
