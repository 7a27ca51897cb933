package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/fray-vtt/fray/internal/battlemap"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/images"
	"github.com/fray-vtt/fray/internal/prep"
	"github.com/fray-vtt/fray/internal/rules"
	"github.com/fray-vtt/fray/internal/uvtt"
)

// mapCmd runs `server map FILE -ruleset ID [-model MODEL] [-name NAME]
// [-zone N] [-gap N] [-min N] [-place WHO=ROOM]… [-picture OUT]`: the
// setup document a battlemap file makes for the ruleset, on standard
// output, with what the reading did on report (standard error); no
// database. On a battlefield without zones (pairs, distance categories)
// the rooms are places: -place puts a side (categories) or a combatant
// (pairs) in a room, and the starting distances follow from the paths. The picture cannot travel in a setup
// document (a scene is an uploaded picture): -picture writes it,
// re-encoded through the bounded picture path, to upload as the scene.
func mapCmd(ctx context.Context, args []string, stdout, report io.Writer) error {
	if len(args) == 0 || args[0] == "" || args[0][0] == '-' {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			fmt.Fprint(stdout, usage)
			return nil
		}
		return fmt.Errorf("usage: server map FILE -ruleset ID [-model MODEL] [-name NAME] [-zone N] [-gap N] [-min N] [-place WHO=ROOM]… [-picture OUT]")
	}
	file := args[0]
	fs := flag.NewFlagSet("map", flag.ContinueOnError)
	fs.SetOutput(report)
	rulesetID := fs.String("ruleset", "", "the ruleset's id (sw-zones, d6-bands, d20-under, d20-tactical, d20-duel)")
	model := fs.String("model", "", "the battlefield's position model when the ruleset offers several (d20-under: grid or ladder)")
	var places placeFlags
	fs.Var(&places, "place", "WHO=ROOM: start a side (ladder) or a combatant (pairs), by id or name, in a room of the map, by name (repeatable)")
	name := fs.String("name", "", "the encounter's name (default: the map's, or \"Imported map\")")
	zone := fs.Int("zone", 0, "the widest zone, in squares of the map (default: the ruleset's)")
	gap := fs.Float64("gap", battlemap.DefaultGap, "the widest gap between wall ends read as an opening, in squares")
	minCells := fs.Int("min", battlemap.DefaultMinCells, "rooms of fewer squares merge into a neighbour")
	picture := fs.String("picture", "", "write the map's picture here (PNG or JPEG, as re-encoded)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	if *rulesetID == "" {
		return fmt.Errorf("-ruleset is required: the id of a ruleset (sw-zones, d6-bands, d20-under, d20-tactical, d20-duel)")
	}
	rs, err := rules.Registry().Get(*rulesetID)
	if err != nil {
		return err
	}
	if *zone < 0 || *zone > 100 || *gap < 0 || *gap > 20 || *minCells < 0 || *minCells > 100 {
		return fmt.Errorf("-zone is 0 to 100 squares, -gap 0 to 20, -min 0 to 100")
	}
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	m, err := uvtt.Read(ctx, f)
	if err != nil {
		return fmt.Errorf("%s: %s", file, fray.ErrorMessage(err))
	}
	setup, rep, err := prep.MapSetup(rs, m, *name, *model, battlemap.Options{ZoneSpan: *zone, Gap: *gap, MinCells: *minCells})
	if err != nil {
		return fmt.Errorf("%s: %s", file, fray.ErrorMessage(err))
	}
	if len(places) > 0 {
		e, _ := prep.EditorOf(rs)
		var rows []prep.PlaceRange
		for _, p := range places {
			if rows, err = prep.Place(e, &setup, p[0], p[1]); err != nil {
				return fmt.Errorf("-place %s=%s: %s", p[0], p[1], fray.ErrorMessage(err))
			}
		}
		rep.Ranges = rep.Ranges[:0]
		for _, r := range rows {
			rep.Ranges = append(rep.Ranges, r.String())
		}
	}
	if *picture != "" {
		if err := writePicture(ctx, m, *picture); err != nil {
			return fmt.Errorf("%s: %s", file, fray.ErrorMessage(err))
		}
	}
	fmt.Fprintf(report, "%s (%s, %d × %d squares):", file, m.Source, m.Width, m.Height)
	switch {
	case rep.Zones > 0:
		fmt.Fprintf(report, " %s, %s.\n", plural(rep.Zones, "zone"), plural(rep.Links, "link"))
	case rep.Places > 0:
		fmt.Fprintf(report, " %s to start in, %s.\n", plural(rep.Places, "room"), plural(rep.Links, "link"))
	default:
		fmt.Fprintf(report, " a grid of %d × %d.\n", rep.Width, rep.Height)
	}
	for _, n := range rep.Notes {
		fmt.Fprintln(report, "  "+n)
	}
	for _, r := range rep.Ranges {
		fmt.Fprintln(report, "  "+r)
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(setup)
}

// writePicture writes m's picture, through images' bounded path, to path.
func writePicture(ctx context.Context, m *uvtt.Map, path string) error {
	if m.Image == "" {
		return fray.Errorf(fray.EINVALID, "the map file holds no picture")
	}
	data, err := images.Unembed(m.Image)
	if err != nil {
		return err
	}
	p, err := images.Process(ctx, data)
	if err != nil {
		return err
	}
	return os.WriteFile(path, p.Display.Data, 0o644)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// placeFlags are the -place flags, WHO=ROOM each, in order.
type placeFlags [][2]string

func (p *placeFlags) String() string { return fmt.Sprint(*p) }

func (p *placeFlags) Set(v string) error {
	who, room, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(who) == "" || strings.TrimSpace(room) == "" {
		return fmt.Errorf("a place is WHO=ROOM (a side or combatant, and a room of the map), not %q", v)
	}
	*p = append(*p, [2]string{strings.TrimSpace(who), strings.TrimSpace(room)})
	return nil
}
