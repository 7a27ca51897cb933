package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/proof"
	"github.com/fray-vtt/fray/internal/testdb"
)

// TestVerifyExport plays a duel to its end over the API (the GM answering
// some sealed stances in two steps), takes the GM's and a player's JSON
// exports, and checks them with `server verify`: both verify, the
// player's with the events withheld from them given by digest only. Then
// every way of tampering with the GM's export — an event changed, removed
// (from the events, or from the chain too), two events swapped, a die
// changed, a die changed and the chain recomputed after it — fails with
// the seq of the first bad event; and a head the pages never showed is
// refused.
func TestVerifyExport(t *testing.T) {
	srv := startServerEnv(t, testdb.URL(t), map[string]string{"FRAY_DICE_SEED": "7"})
	gm, pl := srv.signup("verify-gm"), srv.signup("verify-player")
	ex, err := prep.ExampleNamed("d20-duel-dawn-duel")
	if err != nil {
		t.Fatal(err)
	}
	var enc struct{ ID, Campaign string }
	if code := srv.call(gm, "POST", "/api/encounters", ex.Data, &enc); code != http.StatusCreated {
		t.Fatalf("import: %d", code)
	}
	srv.join(gm, enc.Campaign, pl, "aldric")
	rng := rand.New(rand.NewPCG(3, 11))
	sealed := map[string]map[string]any{}
	for step := 0; ; step++ {
		v := srv.viewAs(gm, enc.ID)
		if v.Status == engine.StatusFinished {
			break
		}
		if step > 500 {
			t.Fatal("the duel did not end")
		}
		cmd := contractPick(rng, v, sealed)
		srv.call(gm, "POST", "/api/encounters/"+enc.ID+"/commands", map[string]any{"id": fmt.Sprint("v", step), "command": cmd}, nil)
	}
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	verify := func(file string, heads ...string) (string, error) {
		var out bytes.Buffer
		err := run(context.Background(), append([]string{"verify", file}, heads...), func(string) string { return "" }, &out)
		return out.String(), err
	}
	export := func(u *apiUser) []byte {
		p := srv.get(u, "/api/encounters/"+enc.ID+"/export.json")
		if p.code != http.StatusOK {
			t.Fatalf("export: %d %s", p.code, p.body)
		}
		return p.body
	}

	gmExport, plExport := export(gm), export(pl)
	out, err := verify(write("gm.json", gmExport))
	if err != nil || !strings.Contains(out, "OK") {
		t.Fatalf("the GM's export does not verify: %v\n%s", err, out)
	}
	rep, _ := proof.Verify(gmExport)
	t.Logf("%s", rep)
	if rep.Whole != rep.Events || rep.Dice.Verified == 0 || rep.Dice.Pending != 0 || rep.Sealed.Revealed == 0 {
		t.Fatalf("the GM's export: %s", rep)
	}
	if out, err := verify(write("player.json", plExport), rep.Head.Short()); err != nil {
		t.Fatalf("the player's export does not verify: %v\n%s", err, out)
	}
	if prep, _ := proof.Verify(plExport); prep.Withheld == 0 || prep.Head != rep.Head || prep.Whole == prep.Events {
		t.Fatalf("the player's export should withhold the sealed answers but share the head: %s", prep)
	}

	var doc map[string]json.RawMessage
	if err := json.Unmarshal(gmExport, &doc); err != nil {
		t.Fatal(err)
	}
	var events []map[string]any
	var chain []map[string]any
	json.Unmarshal(doc["events"], &events)
	json.Unmarshal(doc["chain"], &chain)
	withDice := -1
	for i, ev := range events {
		if ev["rolls"] != nil && ev["draw"] != nil {
			withDice = i
			break
		}
	}
	if withDice < 3 || len(events) < withDice+3 {
		t.Fatalf("no event with dice to tamper with (%d of %d)", withDice, len(events))
	}
	seqOf := func(i int) int64 { return int64(events[i]["seq"].(float64)) }
	// tampered writes the export with events and chain changed by f.
	tampered := func(f func(evs []map[string]any, ch []map[string]any) ([]map[string]any, []map[string]any)) []byte {
		var evs []map[string]any
		var ch []map[string]any
		json.Unmarshal(doc["events"], &evs)
		json.Unmarshal(doc["chain"], &ch)
		evs, ch = f(evs, ch)
		d := map[string]any{}
		for k, v := range doc {
			d[k] = v
		}
		d["events"], d["chain"] = evs, ch
		b, _ := json.Marshal(d)
		return b
	}
	bumpDie := func(ev map[string]any) {
		die := ev["rolls"].([]any)[0].(map[string]any)["dice"].([]any)[0].(map[string]any)
		faces := die["faces"].([]any)
		sides := die["sides"].(float64)
		faces[0] = float64(int(faces[0].(float64))%int(sides) + 1)
	}
	k := 2 // an event in the middle, before the dice
	cases := []struct {
		name string
		doc  []byte
		seq  int64
	}{
		{"an event's text changed", tampered(func(e, c []map[string]any) ([]map[string]any, []map[string]any) {
			e[k]["text"] = e[k]["text"].(string) + "!"
			return e, c
		}), seqOf(k)},
		{"an event removed", tampered(func(e, c []map[string]any) ([]map[string]any, []map[string]any) {
			return append(e[:k:k], e[k+1:]...), c
		}), seqOf(k)},
		{"an event removed from the chain too", tampered(func(e, c []map[string]any) ([]map[string]any, []map[string]any) {
			return append(e[:k:k], e[k+1:]...), append(c[:k:k], c[k+1:]...)
		}), seqOf(k)},
		{"two events swapped", tampered(func(e, c []map[string]any) ([]map[string]any, []map[string]any) {
			e[k], e[k+1] = e[k+1], e[k]
			return e, c
		}), seqOf(k)},
		{"two events swapped with their seqs", tampered(func(e, c []map[string]any) ([]map[string]any, []map[string]any) {
			e[k]["seq"], e[k+1]["seq"] = e[k+1]["seq"], e[k]["seq"]
			e[k], e[k+1] = e[k+1], e[k]
			return e, c
		}), seqOf(k)},
		{"a die changed", tampered(func(e, c []map[string]any) ([]map[string]any, []map[string]any) {
			bumpDie(e[withDice])
			return e, c
		}), seqOf(withDice)},
		{"a die changed and the chain recomputed", tampered(func(e, c []map[string]any) ([]map[string]any, []map[string]any) {
			bumpDie(e[withDice])
			prev, _ := proof.ParseHash(c[withDice-1]["link"].(string))
			for i := withDice; i < len(e); i++ {
				raw, _ := json.Marshal(e[i])
				var salt proof.Salt
				d, _ := proof.Digest(salt, raw)
				prev = proof.Link(prev, int64(i+1), d)
				c[i]["salt"], c[i]["digest"], c[i]["link"] = strings.Repeat("00", proof.SaltSize), d.String(), prev.String()
			}
			return e, c
		}), seqOf(withDice)},
	}
	firstSeq := regexp.MustCompile(`seq (\d+):`)
	for _, c := range cases {
		out, err := verify(write("tampered.json", c.doc))
		if err == nil {
			t.Errorf("%s: verifies:\n%s", c.name, out)
			continue
		}
		m := firstSeq.FindStringSubmatch(err.Error())
		if m == nil || m[1] != fmt.Sprint(c.seq) {
			t.Errorf("%s: %v; want the first bad seq %d", c.name, err, c.seq)
		}
	}
	// The whole chain recomputed verifies on its own, but not against a
	// head a page showed.
	recomputed := tampered(func(e, c []map[string]any) ([]map[string]any, []map[string]any) {
		e[k]["text"] = "Nothing happened."
		prev := proof.Genesis(enc.ID)
		for i := range e {
			raw, _ := json.Marshal(e[i])
			var salt proof.Salt
			d, _ := proof.Digest(salt, raw)
			prev = proof.Link(prev, int64(i+1), d)
			c[i]["salt"], c[i]["digest"], c[i]["link"] = strings.Repeat("00", proof.SaltSize), d.String(), prev.String()
		}
		return e, c
	})
	var d map[string]any
	json.Unmarshal(recomputed, &d)
	delete(d, "head")
	recomputed, _ = json.Marshal(d)
	file := write("rewritten.json", recomputed)
	if _, err := verify(file); err != nil {
		t.Fatalf("a consistent rewrite should verify on its own: %v", err)
	}
	if _, err := verify(file, rep.Links[k+1].Short()); err == nil || !strings.Contains(err.Error(), "never passed through") {
		t.Errorf("a rewrite verified against a head the page saw: %v", err)
	}
	if _, err := verify(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing file verifies")
	}
}
