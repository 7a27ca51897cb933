package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/testdb"
	"github.com/fray-vtt/fray/internal/uvtt/uvtttest"
)

// TestMapCommand: `server map` of every test map, for every ruleset with
// zones or a grid, prints a setup document that `server simulate` plays
// and the import API accepts; the house's zones are the rooms, placed
// where they lie; the picture goes to -picture; bad input says why.
func TestMapCommand(t *testing.T) {
	ctx := context.Background()
	env := func(string) string { return "" }
	dir := t.TempDir()
	srv := startServer(t, testdb.URL(t))
	gm := srv.signup("cartographer")
	var camp struct{ ID string }
	if code := srv.withUser(gm).do("POST", "/api/campaigns", map[string]string{"name": "Maps"}, &camp); code != http.StatusCreated {
		t.Fatalf("campaign: %d", code)
	}
	names := make([]string, 0)
	for name := range uvtttest.All() {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		file := filepath.Join(dir, name+".dd2vtt")
		if err := os.WriteFile(file, uvtttest.All()[name].JSON(), 0o600); err != nil {
			t.Fatal(err)
		}
		// Each ruleset's battlefield: zones or a grid (the picture fitted
		// to it), or places (the picture only a scene).
		for _, rs := range []struct {
			id, model string
			places    bool
		}{{"sw-zones", "", false}, {"d20-tactical", "", false}, {"d20-under", "", false}, {"d6-bands", "", false},
			{"d20-under", board.Ladder, true}, {"d20-duel", "", true}} {
			t.Run(name+"/"+rs.id+rs.model, func(t *testing.T) {
				var out strings.Builder
				var report strings.Builder
				args := []string{file, "-ruleset", rs.id, "-name", name + " " + rs.id}
				if rs.model != "" {
					args = append(args, "-model", rs.model)
				}
				if err := mapCmd(ctx, args, &out, &report); err != nil {
					t.Fatal(err)
				}
				setup, err := engine.DecodeSetup([]byte(out.String()))
				if err != nil {
					t.Fatalf("the document does not decode: %v\n%s", err, out.String())
				}
				bf, err := board.Read(setup.Battlefield)
				if err != nil {
					t.Fatal(err)
				}
				if setup.Name != name+" "+rs.id || (setup.SceneFit == nil) != rs.places || (bf.Places != nil) != rs.places {
					t.Errorf("name %q, fit %v, places %v", setup.Name, setup.SceneFit, bf.Places)
				}
				doc := filepath.Join(t.TempDir(), "setup.json")
				if err := os.WriteFile(doc, []byte(out.String()), 0o600); err != nil {
					t.Fatal(err)
				}
				var odds strings.Builder
				if err := run(ctx, []string{"simulate", doc, "-runs", "2", "-seed", "3", "-rounds", "4"}, env, &odds); err != nil {
					t.Fatalf("server simulate refuses it: %v\n%s", err, out.String())
				}
				var enc struct{ ID string }
				if code := srv.withUser(gm).do("POST", "/api/campaigns/"+camp.ID+"/encounters", []byte(out.String()), &enc); code != http.StatusCreated {
					t.Fatalf("the import API refuses it: %d\n%s", code, out.String())
				}
			})
		}
	}
	// On d20-under's distance categories and d20-duel's engagements the
	// rooms are places: -place puts a side or a fighter in one and the
	// starting distance is the walk between the rooms (the house's Room 1
	// to Room 3: 8 squares, 12.2 m, Medium — more than a 10 m move; Room
	// 2 to Room 3: 4.6 m, beyond a duel's 2 m: not engaged).
	var out, report strings.Builder
	for _, tc := range []struct {
		args      []string
		want, say string
	}{
		{[]string{"-ruleset", "d20-under", "-model", "ladder", "-place", "heroes=Room 1", "-place", "cult=room 3"}, "[{heroes cult Medium}]", "12.2 m, Medium"},
		{[]string{"-ruleset", "d20-under", "-model", "ladder", "-place", "Queen's rangers=Room 2", "-place", "cult=Room 3"}, "[{heroes cult Short}]", "4.6 m, Short"},
		{[]string{"-ruleset", "d20-duel", "-place", "jesper=Room 2", "-place", "krall=Room 2"}, "[{jesper krall Striking}]", "0.0 m, Striking"},
		{[]string{"-ruleset", "d20-duel", "-place", "jesper=Room 2", "-place", "krall=Room 3"}, "[]", "4.6 m, not engaged"},
	} {
		out.Reset()
		report.Reset()
		if err := mapCmd(ctx, append([]string{filepath.Join(dir, "house.dd2vtt")}, tc.args...), &out, &report); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		setup, err := engine.DecodeSetup([]byte(out.String()))
		if err != nil {
			t.Fatal(err)
		}
		bf, _ := board.Read(setup.Battlefield)
		got := fmt.Sprint(bf.Distances)
		if bf.Model != board.Ladder {
			got = fmt.Sprint(bf.Pairs)
		}
		if got != tc.want || !strings.Contains(report.String(), tc.say) || !strings.Contains(report.String(), "3 rooms to start in, 2 links") {
			t.Errorf("%v: derived %s, want %s; report %q", tc.args, got, tc.want, report.String())
		}
		doc := filepath.Join(dir, "placed.json")
		if err := os.WriteFile(doc, []byte(out.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		var odds strings.Builder
		if err := run(ctx, []string{"simulate", doc, "-runs", "2", "-seed", "3", "-rounds", "4"}, env, &odds); err != nil {
			t.Errorf("%v: server simulate refuses it: %v", tc.args, err)
		}
	}
	// The house for sw-zones: three rooms, placed on the page's 12
	// columns (10 squares across: 1.2 columns a square), joined as drawn.
	out.Reset()
	report.Reset()
	if err := mapCmd(ctx, []string{filepath.Join(dir, "house.dd2vtt"), "-ruleset", "sw-zones"}, &out, &report); err != nil {
		t.Fatal(err)
	}
	setup, _ := engine.DecodeSetup([]byte(out.String()))
	bf, err := board.Read(setup.Battlefield)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, z := range bf.Zones {
		got = append(got, z.ID+" "+itoaP(z.X)+","+itoaP(z.Y)+" "+itoaP(&z.W)+"×"+itoaP(&z.H)+" "+strings.Join(z.Adjacent, "+"))
	}
	want := []string{"room-1 0,0 6×7 room-2", "room-2 6,0 6×4 room-1+room-3", "room-3 6,4 6×3 room-2"}
	if !slices.Equal(got, want) {
		t.Errorf("house zones\n got %q\nwant %q", got, want)
	}
	if f := setup.SceneFit; f.X != 0 || f.Y != 0 || f.W != 12 || f.H != 7.2 {
		t.Errorf("fit %+v", f)
	}
	if len(setup.Notes) != 1 || !strings.Contains(setup.Notes[0].Text, "Room 1 → Room 3: 2 zones, 8 squares") {
		t.Errorf("range note %+v", setup.Notes)
	}
	if !strings.Contains(report.String(), "3 zones, 2 links") {
		t.Errorf("report %q", report.String())
	}
	// On d20-tactical's grid the squares outside the L are walls, in the
	// ruleset's own property, and no one starts in them.
	out.Reset()
	if err := mapCmd(ctx, []string{filepath.Join(dir, "l-room.dd2vtt"), "-ruleset", "d20-tactical"}, &out, &report); err != nil {
		t.Fatal(err)
	}
	setup, _ = engine.DecodeSetup([]byte(out.String()))
	bf, _ = board.Read(setup.Battlefield)
	walls := map[[2]int]bool{}
	for _, c := range bf.Cells {
		if c.Props.Bool("wall") && c.X >= 4 && c.Y < 4 {
			walls[[2]int{c.X, c.Y}] = true
		}
	}
	if bf.Width != 8 || bf.Height != 8 || len(bf.Cells) != 16 || len(walls) != 16 {
		t.Errorf("l-room grid %d × %d, cells %+v", bf.Width, bf.Height, bf.Cells)
	}
	for _, c := range setup.Combatants {
		if st, _ := board.ReadStart(c.Start); st.X != nil && walls[[2]int{*st.X, *st.Y}] {
			t.Errorf("%s starts in a wall at %d,%d", c.ID, *st.X, *st.Y)
		}
	}
	// On a grid the house keeps its walls between squares and its two
	// doors, as the file left them (internal/battlemap TestEdges has the
	// whole list).
	out.Reset()
	report.Reset()
	if err := mapCmd(ctx, []string{filepath.Join(dir, "house.dd2vtt"), "-ruleset", "d20-tactical"}, &out, &report); err != nil {
		t.Fatal(err)
	}
	setup, _ = engine.DecodeSetup([]byte(out.String()))
	bf, _ = board.Read(setup.Battlefield)
	var doors []string
	for _, e := range bf.Edges {
		if e.Kind == board.EdgeDoor {
			doors = append(doors, e.ID()+" "+strconv.FormatBool(e.Open))
		}
	}
	if len(bf.Edges) != 11 || !slices.Equal(doors, []string{"5,1,w false", "7,3,n true"}) {
		t.Errorf("house edges %+v", bf.Edges)
	}
	if !strings.Contains(report.String(), "Between squares: 9 walls, 2 doors") {
		t.Errorf("report %q", report.String())
	}
	// The picture, re-encoded.
	pic := uvtttest.Archway()
	pic.Image = scenePNG(t, 70*10, 70*5)
	file := filepath.Join(dir, "pictured.uvtt")
	if err := os.WriteFile(file, pic.JSON(), 0o600); err != nil {
		t.Fatal(err)
	}
	png := filepath.Join(dir, "scene.png")
	if err := mapCmd(ctx, []string{file, "-ruleset", "sw-zones", "-picture", png}, &out, &report); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(png); err != nil || len(data) < 100 {
		t.Errorf("picture: %v, %d bytes", err, len(data))
	}
	// Refusals say why.
	bad := filepath.Join(dir, "bad.uvtt")
	os.WriteFile(bad, []byte(`{"format":0.3,"resolution":{"map_size":{"x":10,"y":10},"pixels_per_grid":50},"line_of_sight":[[{"x":0,"y":0},{"x":90,"y":0}]]}`), 0o600)
	big := filepath.Join(dir, "big.uvtt")
	os.WriteFile(big, uvtttest.Map{W: 150, H: 20}.JSON(), 0o600)
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{bad, "-ruleset", "sw-zones"}, "outside the 10 × 10 squares"},
		{[]string{big, "-ruleset", "d20-tactical"}, "crop the map"},
		{[]string{filepath.Join(dir, "house.dd2vtt"), "-ruleset", "d20-duel", "-place", "nobody=Room 1"}, `no combatant "nobody"`},
		{[]string{filepath.Join(dir, "house.dd2vtt"), "-ruleset", "d20-under", "-model", "ladder", "-place", "heroes=Cellar"}, `no room "Cellar"`},
		{[]string{filepath.Join(dir, "house.dd2vtt"), "-ruleset", "d20-under", "-place", "heroes"}, "a place is WHO=ROOM"},
		{[]string{filepath.Join(dir, "house.dd2vtt"), "-ruleset", "d20-under", "-place", "heroes=Room 1"}, "no rooms from a map"},
		{[]string{filepath.Join(dir, "house.dd2vtt"), "-ruleset", "d20-under", "-model", "hex"}, `no "hex" battlefield`},
		{[]string{filepath.Join(dir, "house.dd2vtt")}, "-ruleset is required"},
		{[]string{filepath.Join(dir, "house.dd2vtt"), "-ruleset", "sw-zones", "-picture", png}, "holds no picture"},
	} {
		if err := mapCmd(ctx, tc.args, &out, &report); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%v: %v, want it to say %q", tc.args, err, tc.says)
		}
	}
}

func itoaP(p *int) string {
	if p == nil {
		return "-"
	}
	return strconv.Itoa(*p)
}

// scenePNG is a w × h picture of a battlemap: stone, with a grid every
// 70 pixels.
func scenePNG(t testing.TB, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{150, 140, 120, 255}
			if x%70 == 0 || y%70 == 0 {
				c = color.RGBA{60, 55, 50, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
