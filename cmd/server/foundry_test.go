package main

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/testdb"
)

// foundryUpload posts Foundry files (name → content) and pictures to
// path as u, with the ruleset.
func (s *testServer) foundryUpload(u *apiUser, path, ruleset string, files, pictures map[string][]byte) prepReply {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("ruleset", ruleset)
	for name, data := range files {
		fw, _ := mw.CreateFormFile("file", name)
		_, _ = fw.Write(data)
	}
	for name, data := range pictures {
		fw, _ := mw.CreateFormFile("pictures", name)
		_, _ = fw.Write(data)
	}
	_ = mw.Close()
	return s.prepReq(u, "POST", path, mw.FormDataContentType(), &buf)
}

// TestFoundryImport: a Foundry character goes into the player
// characters and a compendium pack into the bestiary, with the report of
// what was not mapped and what became of the portraits (inline: kept;
// named only: reported); a bad file stores nothing and names the field.
func TestFoundryImport(t *testing.T) {
	srv := startServer(t, testdb.URL(t))
	gm := srv.signup("gamemaster")
	var camp struct{ ID string }
	srv.withUser(gm).do("POST", "/api/campaigns", map[string]string{"name": "Moving in"}, &camp)
	c := "/campaigns/" + camp.ID
	read := func(name string) []byte {
		data, err := os.ReadFile("../../internal/rules/testdata/foundry/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}

	r := srv.foundryUpload(gm, c+"/pcs/foundry", "sw-zones", map[string][]byte{"kara.json": read("swade-character.json")}, nil)
	if r.code != 200 || !bytes.Contains(r.body, []byte("Kara Vance")) {
		t.Fatalf("character: %d %s", r.code, r.body)
	}
	for _, want := range []string{"system.details.biography.value", "Academics", "not kept", "worlds/test/kara.webp"} {
		if !strings.Contains(string(r.body), want) {
			t.Errorf("the report does not mention %q", want)
		}
	}
	sheet := srv.get(gm, c+"/pcs/kara-vance/export")
	if sheet.code != 200 || !bytes.Contains(sheet.body, []byte(`"d12+1"`)) {
		t.Fatalf("stored character: %d %s", sheet.code, sheet.body)
	}

	r = srv.foundryUpload(gm, c+"/bestiary/foundry", "d20-under", map[string][]byte{"monsters.db": read("symbaroum-pack.db")}, nil)
	if r.code != 200 || !bytes.Contains(r.body, []byte("Portrait kept.")) {
		t.Fatalf("pack: %d %s", r.code, r.body)
	}
	var entries []struct{ ID, Portrait string }
	if err := json.Unmarshal(srv.get(gm, c+"/bestiary.json").body, &entries); err != nil || len(entries) != 2 {
		t.Fatalf("bestiary: %v %+v", err, entries)
	}
	for _, e := range entries {
		if (e.ID == "corrupted-wolf") != (e.Portrait != "") {
			t.Errorf("%s: portrait %q", e.ID, e.Portrait)
		}
	}

	// A sw-zones import of a Symbaroum file, and a broken file: refused,
	// naming the field, nothing stored.
	for _, bad := range []struct {
		ruleset string
		file    []byte
		want    string
	}{
		{"sw-zones", read("symbaroum-pack.db"), "_stats.systemId"},
		{"sw-zones", []byte(`[{"name":"Orc","type":"npc"}]`), "field system"},
	} {
		r := srv.foundryUpload(gm, c+"/bestiary/foundry", bad.ruleset, map[string][]byte{"bad.json": bad.file}, nil)
		msg := flashOf(&http.Response{Header: r.header}, "error")
		if r.code != 303 || !strings.Contains(msg, bad.want) || !strings.Contains(msg, "Nothing was imported") {
			t.Errorf("%s: %d %q", bad.want, r.code, msg)
		}
	}
	if err := json.Unmarshal(srv.get(gm, c+"/bestiary.json").body, &entries); err != nil || len(entries) != 2 {
		t.Fatalf("a refused file stored something: %v %+v", err, entries)
	}
}
