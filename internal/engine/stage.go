package engine

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/fray"
)

// The stage: what the table shows and keeps besides the fight — the scene
// image behind the board, handouts the GM prepares and reveals, and the
// GM's private notes. It is the GM's, like table talk: its commands are
// core GM commands accepted at any stage of an encounter (even while a
// question waits), they are not actions a rewind undoes, and a rewind
// keeps the stage as it is (a handout once shown stays shown, a note stays
// written).
//
// Pictures are campaign assets, named by their URL (AssetPrefix and the
// SHA-256 of their content); the server serves one to a player only when
// AssetsSeen says that player may see it.
const (
	// KindSetScene changes the scene image: {"kind":"set-scene","image":"/assets/<id>"}
	// ("" for none).
	KindSetScene = "set-scene"
	// KindAddHandout prepares a handout during play:
	// {"kind":"add-handout","title":"The letter","text":"…","image":"/assets/<id>"}.
	KindAddHandout = "add-handout"
	// KindRevealHandout shows a handout to everyone ("to" empty) or to the
	// players of the given player characters:
	// {"kind":"reveal-handout","handout":"h1","to":["ana"]} ("to" may also
	// be one id as a string).
	KindRevealHandout = "reveal-handout"
	// KindSetNote writes one of the GM's private notes: on the encounter
	// ("encounter"), a combatant ("combatant:<id>") or a place of the
	// battlefield ("zone:<id>"): {"kind":"set-note","subject":"encounter","text":"…"}.
	KindSetNote = "set-note"
	// KindSetZoneScene puts a picture inside one zone of a zones board:
	// {"kind":"set-zone-scene","zone":"ford","image":"/assets/<id>"} ("" for
	// none).
	KindSetZoneScene = "set-zone-scene"
	// KindSetSceneFit lays the scene over the board as a map at the GM's
	// scale: {"kind":"set-scene-fit","x":-0.5,"y":0,"w":20,"h":12} (see
	// SceneFit; w and h 0 for none: the scene fills the board again).
	KindSetSceneFit = "set-scene-fit"

	// Their events. Handouts added and notes set are for the GM alone
	// (Audience "gm"); a handout revealed to some players is for them.
	KindSceneSet        = "scene-set"
	KindHandoutAdded    = "handout-added"
	KindHandoutRevealed = "handout-revealed"
	KindNoteSet         = "note-set"
	KindZoneSceneSet    = "zone-scene-set"
	KindSceneFitSet     = "scene-fit-set"
)

// AssetPrefix starts every asset URL.
const AssetPrefix = "/assets/"

var assetURL = regexp.MustCompile(`^/assets/[0-9a-f]{64}$`)

// Limits of the stage.
const (
	MaxHandouts     = 100
	MaxHandoutTitle = 120
	MaxHandoutText  = 4000
	MaxNoteRunes    = 4000
	MaxNotes        = 300
	MaxScenes       = 50
	MaxZoneScenes   = 64
	// MaxFit bounds a fit's numbers (board units: far beyond any board).
	MaxFit = 1000
)

// Stage is Base's part for the table: see the comment above. Notes and
// unrevealed handouts are never projected to players.
type Stage struct {
	Scene    string    `json:"scene,omitempty"`  // the scene image's URL, "" for none
	Scenes   []Scene   `json:"scenes,omitempty"` // scenes the GM prepared to switch to
	Handouts []Handout `json:"handouts,omitempty"`
	Notes    []Note    `json:"notes,omitempty"`
	// Zones are the pictures inside zones, by zone id.
	Zones []ZoneScene `json:"zones,omitempty"`
	// Fit lays the scene over the board as a map; nil: it fills the board.
	Fit *SceneFit `json:"fit,omitempty"`
}

// ZoneScene is a picture drawn inside one zone of a zones board. The zone
// is the ruleset's place; the engine only names it, and puts the picture
// on the board's area of that id wherever the viewer's board has one.
type ZoneScene struct {
	Zone  string `json:"zone"`
	Image string `json:"image"`
}

// SceneFit is where the scene lies under the board, in the board's own
// units: squares on a grid (the map covers W × H squares, its top-left
// corner at square X, Y — fractions and negative offsets allowed, so a
// map's printed grid can be matched), the zone map's columns and rows on a
// zones board. Other position models draw the scene filling the board.
type SceneFit struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// CheckFit checks a fit: W and H positive, every number within ±MaxFit.
func CheckFit(f *SceneFit) error {
	if f == nil {
		return nil
	}
	for _, n := range []float64{f.X, f.Y, f.W, f.H} {
		if math.IsNaN(n) || n < -MaxFit || n > MaxFit {
			return fray.Errorf(fray.EINVALID, "a map's place and size are numbers from %d to %d", -MaxFit, MaxFit)
		}
	}
	if f.W <= 0 || f.H <= 0 {
		return fray.Errorf(fray.EINVALID, "a map covers a width and a height above 0 (squares or zone-map cells)")
	}
	return nil
}

// ZoneScene returns the picture inside zone id ("" for none).
func (s *Stage) ZoneScene(id string) string {
	for _, z := range s.Zones {
		if z.Zone == id {
			return z.Image
		}
	}
	return ""
}

func setZoneScene(zs []ZoneScene, z ZoneScene) []ZoneScene {
	zs = slices.DeleteFunc(slices.Clone(zs), func(o ZoneScene) bool { return o.Zone == z.Zone })
	if z.Image != "" {
		zs = append(zs, z)
	}
	return zs
}

// Scene is a prepared scene image.
type Scene struct {
	Name  string `json:"name"`
	Image string `json:"image"`
}

// Handout is something the GM shows players: a text, a picture or both.
type Handout struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Text  string `json:"text,omitempty"`
	Image string `json:"image,omitempty"`
	// Revealed is set once shown; To are the player characters whose
	// players received it (empty with Revealed: everyone).
	Revealed bool     `json:"revealed,omitempty"`
	To       []string `json:"to,omitempty"`
}

// Note is one of the GM's private notes.
type Note struct {
	Subject string `json:"subject"` // "encounter", "combatant:<id>", "zone:<id>"
	Text    string `json:"text"`
}

// SceneFitSet is the data of KindSceneFitSet: Fit nil for none.
type SceneFitSet struct {
	Fit *SceneFit `json:"fit"`
}

// SceneSet is the data of KindSceneSet.
type SceneSet struct {
	Image string `json:"image"`
}

// HandoutRevealed is the data of KindHandoutRevealed and KindHandoutAdded.
type HandoutRevealed struct {
	Handout Handout `json:"handout"`
}

// IsStageEvent reports whether kind is one of the stage's events, which a
// rewind neither counts nor undoes.
func IsStageEvent(kind string) bool {
	switch kind {
	case KindSceneSet, KindHandoutAdded, KindHandoutRevealed, KindNoteSet, KindZoneSceneSet, KindSceneFitSet:
		return true
	}
	return false
}

func isStageCommand(kind string) bool {
	switch kind {
	case KindSetScene, KindAddHandout, KindRevealHandout, KindSetNote, KindSetZoneScene, KindSetSceneFit:
		return true
	}
	return false
}

// Note returns the GM's note on subject ("" for none).
func (s *Stage) Note(subject string) string {
	for _, n := range s.Notes {
		if n.Subject == subject {
			return n.Text
		}
	}
	return ""
}

func (s *Stage) handout(id string) *Handout {
	for i := range s.Handouts {
		if s.Handouts[i].ID == id {
			return &s.Handouts[i]
		}
	}
	return nil
}

// CheckAsset checks that url names a campaign asset ("" is none).
func CheckAsset(what, url string) error {
	if url != "" && !assetURL.MatchString(url) {
		return fray.Errorf(fray.EINVALID, "%s must be an uploaded picture's URL (%s<sha-256>), not %q", what, AssetPrefix, url)
	}
	return nil
}

func checkText(what, s string, max int) error {
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		return fray.Errorf(fray.EINVALID, "%s is not valid text", what)
	}
	if n := utf8.RuneCountInString(s); n > max {
		return fray.Errorf(fray.EINVALID, "%s is at most %d characters, this one has %d", what, max, n)
	}
	return nil
}

func checkHandout(h Handout) error {
	if !idPattern.MatchString(h.ID) {
		return fray.Errorf(fray.EINVALID, "handout id %q must be 1–64 letters, digits, '-' or '_'", h.ID)
	}
	if strings.TrimSpace(h.Title) == "" {
		return fray.Errorf(fray.EINVALID, "handout %q needs a title", h.ID)
	}
	if err := checkText("a handout's title", h.Title, MaxHandoutTitle); err != nil {
		return err
	}
	if err := checkText("a handout's text", h.Text, MaxHandoutText); err != nil {
		return err
	}
	if h.Text == "" && h.Image == "" {
		return fray.Errorf(fray.EINVALID, "handout %q needs a text or a picture", h.ID)
	}
	return CheckAsset("a handout's picture", h.Image)
}

// checkNoteSubject checks a note's subject against the encounter: the
// encounter itself, one of its combatants, or a place ("zone:<id>", which
// the engine cannot check further: places are the ruleset's).
func checkNoteSubject(b *Base, subject string) error {
	kind, id, _ := strings.Cut(subject, ":")
	switch {
	case subject == "encounter":
		return nil
	case kind == "combatant" && b.Combatant(id) != nil:
		return nil
	case kind == "zone" && idPattern.MatchString(id):
		return nil
	}
	return fray.Errorf(fray.EINVALID, "a note is on %q, %q or %q, not %q", "encounter", "combatant:<id>", "zone:<id>", subject)
}

// CheckStage checks the stage of a setup against the limits, without the
// encounter (prep checks drafts with it): pictures are asset URLs, texts
// and counts are bounded.
func CheckStage(setup Setup) error {
	if err := CheckAsset("the scene", setup.Scene); err != nil {
		return err
	}
	if len(setup.Scenes) > MaxScenes || len(setup.Handouts) > MaxHandouts || len(setup.Notes) > MaxNotes {
		return fray.Errorf(fray.EINVALID, "an encounter has at most %d scenes, %d handouts and %d notes", MaxScenes, MaxHandouts, MaxNotes)
	}
	for _, c := range setup.Combatants {
		if err := CheckAsset("combatant "+c.ID+"'s portrait", c.Portrait); err != nil {
			return err
		}
		if err := checkText("a note", c.Notes, MaxNoteRunes); err != nil {
			return err
		}
	}
	if len(setup.ZoneScenes) > MaxZoneScenes {
		return fray.Errorf(fray.EINVALID, "an encounter has at most %d zone pictures", MaxZoneScenes)
	}
	for _, z := range setup.ZoneScenes {
		if !idPattern.MatchString(z.Zone) {
			return fray.Errorf(fray.EINVALID, "a zone picture's zone %q must be a zone's id", z.Zone)
		}
		if err := CheckAsset("zone "+z.Zone+"'s picture", z.Image); err != nil {
			return err
		}
	}
	if err := CheckFit(setup.SceneFit); err != nil {
		return err
	}
	for _, n := range setup.Notes {
		if err := checkText("a note", n.Text, MaxNoteRunes); err != nil {
			return err
		}
		if err := checkText("a note's subject", n.Subject, 80); err != nil {
			return err
		}
	}
	return nil
}

// newStage builds and checks the stage of a setup.
func newStage(b *Base, setup Setup) error {
	st := Stage{Scene: setup.Scene, Scenes: slices.Clone(setup.Scenes), Handouts: slices.Clone(setup.Handouts)}
	if err := CheckStage(setup); err != nil {
		return err
	}
	for _, z := range setup.ZoneScenes {
		st.Zones = setZoneScene(st.Zones, z)
	}
	if f := setup.SceneFit; f != nil {
		fit := *f
		st.Fit = &fit
	}
	for _, s := range st.Scenes {
		if err := checkText("a scene's name", s.Name, MaxHandoutTitle); err != nil {
			return err
		}
		if err := CheckAsset("a scene", s.Image); err != nil {
			return err
		}
		if s.Image == "" {
			return fray.Errorf(fray.EINVALID, "scene %q has no picture", s.Name)
		}
	}
	for i, h := range st.Handouts {
		if err := checkHandout(h); err != nil {
			return err
		}
		if slices.ContainsFunc(st.Handouts[:i], func(o Handout) bool { return o.ID == h.ID }) {
			return fray.Errorf(fray.EINVALID, "handout id %q is used twice", h.ID)
		}
		st.Handouts[i].Revealed, st.Handouts[i].To = false, nil
	}
	notes := slices.Clone(setup.Notes)
	for _, c := range setup.Combatants {
		if c.Notes != "" {
			notes = append(notes, Note{Subject: "combatant:" + c.ID, Text: c.Notes})
		}
	}
	for _, n := range notes {
		if err := checkNoteSubject(b, n.Subject); err != nil {
			return err
		}
		if err := checkText("a note", n.Text, MaxNoteRunes); err != nil {
			return err
		}
		if n.Text != "" {
			st.Notes = setNote(st.Notes, n)
		}
	}
	b.Stage = st
	return nil
}

func setNote(notes []Note, n Note) []Note {
	i := slices.IndexFunc(notes, func(o Note) bool { return o.Subject == n.Subject })
	switch {
	case i < 0 && n.Text != "":
		return append(notes, n)
	case i < 0:
		return notes
	case n.Text == "" && len(notes) == 1:
		return nil // no notes is nil, as a snapshot decodes it
	case n.Text == "":
		return slices.Delete(slices.Clone(notes), i, i+1)
	}
	notes = slices.Clone(notes)
	notes[i] = n
	return notes
}

// decideStage decides one of the stage's GM commands.
func decideStage(tx *Tx, cmd Command) error {
	b := tx.Base()
	if !tx.viewer.GM {
		return fray.Errorf(fray.EFORBIDDEN, "only the GM may %s", strings.ReplaceAll(cmd.Kind, "-", " "))
	}
	if cmd.Actor != "" {
		return fray.Errorf(fray.EINVALID, "%q names no actor", cmd.Kind)
	}
	switch cmd.Kind {
	case KindSetScene:
		var args struct {
			Image string `json:"image"`
		}
		if err := cmd.Decode(&args); err != nil {
			return err
		}
		if err := CheckAsset("the scene", args.Image); err != nil {
			return err
		}
		if args.Image == b.Stage.Scene {
			return fray.Errorf(fray.EILLEGAL, "that is the scene already")
		}
		text := "The GM changes the scene."
		if args.Image == "" {
			text = "The GM clears the scene."
		}
		for _, s := range b.Stage.Scenes {
			if s.Image == args.Image && s.Name != "" {
				text = "The scene: " + s.Name + "."
			}
		}
		return tx.Emits(KindSceneSet, "", text, SceneSet{Image: args.Image})
	case KindSetZoneScene:
		var z ZoneScene
		if err := cmd.Decode(&struct {
			Zone  *string `json:"zone"`
			Image *string `json:"image"`
		}{&z.Zone, &z.Image}); err != nil {
			return err
		}
		area := boardArea(tx.rs, tx.st, z.Zone)
		if area == nil {
			return fray.Errorf(fray.EINVALID, "there is no zone %q on this board", z.Zone)
		}
		if err := CheckAsset("the zone's picture", z.Image); err != nil {
			return err
		}
		if z.Image == b.Stage.ZoneScene(z.Zone) {
			return fray.Errorf(fray.EILLEGAL, "that is the picture of %s already", area.Name)
		}
		if z.Image != "" && b.Stage.ZoneScene(z.Zone) == "" && len(b.Stage.Zones) >= MaxZoneScenes {
			return fray.Errorf(fray.EILLEGAL, "an encounter has at most %d zone pictures", MaxZoneScenes)
		}
		text := "The GM shows a picture of " + area.Name + "."
		if z.Image == "" {
			text = "The GM takes away the picture of " + area.Name + "."
		}
		return tx.Emits(KindZoneSceneSet, "", text, z)
	case KindSetSceneFit:
		var f SceneFit
		if err := cmd.Decode(&struct {
			X *float64 `json:"x"`
			Y *float64 `json:"y"`
			W *float64 `json:"w"`
			H *float64 `json:"h"`
		}{&f.X, &f.Y, &f.W, &f.H}); err != nil {
			return err
		}
		fit := &f
		if f.W == 0 && f.H == 0 {
			fit = nil // the scene fills the board again
		}
		if err := CheckFit(fit); err != nil {
			return err
		}
		if fit == nil && b.Stage.Fit == nil || fit != nil && b.Stage.Fit != nil && *fit == *b.Stage.Fit {
			return fray.Errorf(fray.EILLEGAL, "the map lies so already")
		}
		text := "The GM lays the map over the board."
		if fit == nil {
			text = "The GM lets the scene fill the board."
		}
		return tx.Emits(KindSceneFitSet, "", text, SceneFitSet{Fit: fit})
	case KindAddHandout:
		var h Handout
		if err := cmd.Decode(&struct {
			ID    *string `json:"id"`
			Title *string `json:"title"`
			Text  *string `json:"text"`
			Image *string `json:"image"`
		}{&h.ID, &h.Title, &h.Text, &h.Image}); err != nil {
			return err
		}
		if h.ID == "" {
			h.ID = "h" + strconv.Itoa(len(b.Stage.Handouts)+1)
			for n := len(b.Stage.Handouts) + 1; b.Stage.handout(h.ID) != nil; n++ {
				h.ID = "h" + strconv.Itoa(n+1)
			}
		}
		if err := checkHandout(h); err != nil {
			return err
		}
		if b.Stage.handout(h.ID) != nil {
			return fray.Errorf(fray.EILLEGAL, "there is a handout %q already", h.ID)
		}
		if len(b.Stage.Handouts) >= MaxHandouts {
			return fray.Errorf(fray.EILLEGAL, "an encounter has at most %d handouts", MaxHandouts)
		}
		ev := NewEvent(KindHandoutAdded, "", "The GM prepares a handout: "+h.Title+".", HandoutRevealed{Handout: h})
		ev.Audience = []string{GM}
		return tx.Emit(ev)
	case KindRevealHandout:
		var args struct {
			Handout string          `json:"handout"`
			To      json.RawMessage `json:"to"`
		}
		if err := cmd.Decode(&args); err != nil {
			return err
		}
		h := b.Stage.handout(args.Handout)
		if h == nil {
			return fray.Errorf(fray.ENOTFOUND, "no handout %q", args.Handout)
		}
		to, err := handoutAudience(b, args.To)
		if err != nil {
			return err
		}
		if h.Revealed && (len(h.To) == 0 || len(to) > 0 && !slices.ContainsFunc(to, func(id string) bool { return !slices.Contains(h.To, id) })) {
			return fray.Errorf(fray.EILLEGAL, "handout %q has been shown to them already", h.ID)
		}
		shown := Handout{ID: h.ID, Title: h.Title, Text: h.Text, Image: h.Image, Revealed: true, To: to}
		text := "The GM shows a handout: " + h.Title + "."
		ev := NewEvent(KindHandoutRevealed, "", text, HandoutRevealed{Handout: shown})
		if len(to) > 0 {
			ev.Audience = append([]string{GM}, to...)
			ev = ev.With(to...)
		}
		return tx.Emit(ev)
	case KindSetNote:
		var n Note
		if err := cmd.Decode(&struct {
			Subject *string `json:"subject"`
			Text    *string `json:"text"`
		}{&n.Subject, &n.Text}); err != nil {
			return err
		}
		if err := checkNoteSubject(b, n.Subject); err != nil {
			return err
		}
		if err := checkText("a note", n.Text, MaxNoteRunes); err != nil {
			return err
		}
		// Saving a note unchanged is no mistake (a form saved twice): it is
		// written again.
		if len(b.Stage.Notes) >= MaxNotes && b.Stage.Note(n.Subject) == "" {
			return fray.Errorf(fray.EILLEGAL, "an encounter has at most %d notes", MaxNotes)
		}
		ev := NewEvent(KindNoteSet, "", "The GM writes a note.", n)
		ev.Audience = []string{GM}
		return tx.Emit(ev)
	}
	return fray.Errorf(fray.EINVALID, "unknown command %q", cmd.Kind)
}

// handoutAudience reads reveal-handout's "to": nothing or "" for everyone,
// a player character's id, or a list of them.
func handoutAudience(b *Base, raw json.RawMessage) ([]string, error) {
	var to []string
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
	case raw[0] == '"':
		var one string
		if err := json.Unmarshal(raw, &one); err != nil {
			return nil, fray.Errorf(fray.EINVALID, "to: %v", err)
		}
		if one != "" {
			to = []string{one}
		}
	default:
		if err := json.Unmarshal(raw, &to); err != nil {
			return nil, fray.Errorf(fray.EINVALID, "to is a player character's id or a list of them")
		}
	}
	for _, id := range to {
		if c := b.Combatant(id); c == nil || !c.PC {
			return nil, fray.Errorf(fray.EINVALID, "show a handout to player characters: %q is none", id)
		}
	}
	slices.Sort(to)
	return slices.Compact(to), nil
}

// applyStage folds one of the stage's events into b.
func applyStage(b *Base, ev Event) error {
	switch ev.Kind {
	case KindSceneSet:
		var d SceneSet
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Stage.Scene = d.Image
	case KindHandoutAdded:
		var d HandoutRevealed
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Stage.Handouts = append(slices.Clip(b.Stage.Handouts), d.Handout)
	case KindHandoutRevealed:
		var d HandoutRevealed
		if err := ev.Decode(&d); err != nil {
			return err
		}
		hs := slices.Clone(b.Stage.Handouts)
		for i := range hs {
			if hs[i].ID != d.Handout.ID {
				continue
			}
			switch {
			case len(d.Handout.To) == 0:
				hs[i].To = nil
			case !hs[i].Revealed || len(hs[i].To) > 0:
				to := append(slices.Clone(hs[i].To), d.Handout.To...)
				slices.Sort(to)
				hs[i].To = slices.Compact(to)
			}
			hs[i].Revealed = true
		}
		b.Stage.Handouts = hs
	case KindNoteSet:
		var n Note
		if err := ev.Decode(&n); err != nil {
			return err
		}
		b.Stage.Notes = setNote(b.Stage.Notes, n)
	case KindZoneSceneSet:
		var z ZoneScene
		if err := ev.Decode(&z); err != nil {
			return err
		}
		b.Stage.Zones = setZoneScene(b.Stage.Zones, z)
	case KindSceneFitSet:
		var d SceneFitSet
		if err := ev.Decode(&d); err != nil {
			return err
		}
		b.Stage.Fit = d.Fit
	}
	return nil
}

// boardArea returns zone id of the board as the GM sees it, nil when the
// ruleset draws no zones or has no such zone.
func boardArea(rs Ruleset, st State, id string) *board.Area {
	bd, ok := rs.(Boarder)
	if !ok {
		return nil
	}
	return areaOf(bd.Board(st, GMViewer()), id)
}

func areaOf(bb *board.Board, id string) *board.Area {
	if bb == nil || bb.Zones == nil {
		return nil
	}
	for i := range bb.Zones.Areas {
		if bb.Zones.Areas[i].ID == id {
			return &bb.Zones.Areas[i]
		}
	}
	return nil
}

// received reports whether v has been shown handout h.
func received(h Handout, v Viewer) bool {
	if v.GM {
		return true
	}
	return h.Revealed && (len(h.To) == 0 || slices.ContainsFunc(h.To, v.CanCommand))
}

// projectStage puts into view what v may see of the stage: the scene, the
// handouts v received (for a player without whom else they went to), and
// for the GM everything, notes included.
func projectStage(b *Base, v Viewer, view *View) {
	view.Scene, view.SceneFit = b.Stage.Scene, b.Stage.Fit
	// A zone's picture goes with the zone: onto the viewer's board, where
	// it has that zone (the ruleset's projection already filtered it).
	if view.Board != nil && view.Board.Zones != nil {
		for i := range view.Board.Zones.Areas {
			view.Board.Zones.Areas[i].Image = b.Stage.ZoneScene(view.Board.Zones.Areas[i].ID)
		}
	}
	for _, h := range b.Stage.Handouts {
		if !received(h, v) {
			continue
		}
		if !v.GM {
			h.To = nil
		}
		view.Handouts = append(view.Handouts, h)
	}
	if v.GM {
		view.Notes = b.Stage.Notes
		view.Scenes = b.Stage.Scenes
	}
}

// AssetsSeen returns the pictures v may see in st now: the scene, the
// pictures of the zones on v's board, the portraits of the combatants v
// sees, the handouts v received. The server serves a player no other
// picture of the encounter's.
func AssetsSeen(rs Ruleset, st State, v Viewer) []string {
	b := st.Core()
	var urls []string
	add := func(u string) {
		if u != "" && !slices.Contains(urls, u) {
			urls = append(urls, u)
		}
	}
	add(b.Stage.Scene)
	if len(b.Stage.Zones) > 0 {
		if bd, ok := rs.(Boarder); ok {
			seen := bd.Board(st, v)
			for _, z := range b.Stage.Zones {
				if areaOf(seen, z.Zone) != nil {
					add(z.Image)
				}
			}
		}
	}
	for _, c := range b.Combatants {
		if Visible(st, v, c.ID) {
			add(c.Portrait)
		}
	}
	for _, h := range b.Stage.Handouts {
		if received(h, v) {
			add(h.Image)
		}
	}
	if v.GM {
		for _, s := range b.Stage.Scenes {
			add(s.Image)
		}
	}
	return urls
}

// stageActions are the GM's actions on the stage; bb is the GM's board.
func stageActions(b *Base, bb *board.Board) []Action {
	var out []Action
	if len(b.Stage.Scenes) > 0 || b.Stage.Scene != "" {
		scenes := []Choice{{Value: "", Label: "No scene"}}
		for _, s := range b.Stage.Scenes {
			if s.Image != b.Stage.Scene {
				scenes = append(scenes, Choice{Value: s.Image, Label: s.Name})
			}
		}
		if b.Stage.Scene == "" {
			scenes = scenes[1:]
		}
		if len(scenes) > 0 {
			out = append(out, Action{Kind: KindSetScene, Label: "Change scene", Fields: []Field{
				{Name: "image", Label: "Scene", Type: FieldSelect, Options: scenes},
			}})
		}
	}
	subjects := make([]Choice, 1, 1+len(b.Combatants))
	subjects[0] = Choice{Value: "encounter", Label: "The encounter"}
	for _, c := range b.Combatants {
		subjects = append(subjects, Choice{Value: "combatant:" + c.ID, Label: c.Name})
	}
	out = append(out, Action{Kind: KindSetNote, Label: "Note (GM only)", Help: "A private note no player ever sees.", Fields: []Field{
		{Name: "subject", Label: "On", Type: FieldSelect, Options: subjects},
		{Name: "text", Label: "Note", Type: FieldString},
	}})
	var handouts []Choice
	for _, h := range b.Stage.Handouts {
		if !h.Revealed || len(h.To) > 0 {
			handouts = append(handouts, Choice{Value: h.ID, Label: h.Title})
		}
	}
	if len(handouts) > 0 {
		to := []Choice{{Value: "", Label: "Everyone"}}
		for _, c := range b.Combatants {
			if c.PC {
				to = append(to, Choice{Value: c.ID, Label: c.Name})
			}
		}
		out = append(out, Action{Kind: KindRevealHandout, Label: "Show handout", Fields: []Field{
			{Name: "handout", Label: "Handout", Type: FieldSelect, Options: handouts},
			{Name: "to", Label: "To", Type: FieldSelect, Options: to},
		}})
	}
	return append(out, mapActions(b, bb)...)
}

// mapActions are the GM's actions on the pictures of the board: a zone's
// picture (chosen among the encounter's pictures: prepared scenes, the
// scene, the zones' pictures; the API takes any of the campaign's), and
// the map's fit on a grid or zones board with a scene.
func mapActions(b *Base, bb *board.Board) []Action {
	var out []Action
	if bb == nil {
		return nil
	}
	if bb.Zones != nil && len(bb.Zones.Areas) > 0 {
		var pics []Choice
		add := func(url, label string) {
			if url != "" && !slices.ContainsFunc(pics, func(c Choice) bool { return c.Value == url }) {
				pics = append(pics, Choice{Value: url, Label: label})
			}
		}
		add(b.Stage.Scene, "The scene")
		for _, s := range b.Stage.Scenes {
			add(s.Image, s.Name)
		}
		zones := make([]Choice, 0, len(bb.Zones.Areas))
		for _, a := range bb.Zones.Areas {
			zones = append(zones, Choice{Value: a.ID, Label: a.Name})
			if url := b.Stage.ZoneScene(a.ID); url != "" { // most zones have none: no label to make
				add(url, "The picture of "+a.Name)
			}
		}
		if len(pics) > 0 {
			pics = append(pics, Choice{Value: "", Label: "None"})
			out = append(out, Action{Kind: KindSetZoneScene, Label: "Zone picture", Help: "A picture drawn inside one zone, for everyone.", Fields: []Field{
				{Name: "zone", Label: "Zone", Type: FieldSelect, Options: zones},
				{Name: "image", Label: "Picture", Type: FieldSelect, Options: pics},
			}})
		}
	}
	if b.Stage.Scene != "" && (bb.Grid != nil && bb.Model == board.Grid || bb.Zones != nil && bb.Model == board.Zones) {
		unit := "squares"
		if bb.Model == board.Zones {
			unit = "zone-map cells"
		}
		f := SceneFit{}
		if b.Stage.Fit != nil {
			f = *b.Stage.Fit
		}
		num := func(name, label string, v float64, lo int) Field {
			return Field{Name: name, Label: label, Type: FieldNumber, Min: lo, Max: MaxFit, Default: strconv.Itoa(int(math.Round(v)))}
		}
		out = append(out, Action{Kind: KindSetSceneFit, Label: "Map scale",
			Help: "Lay the scene under the board as a map covering so many " + unit + " (width and height 0: it fills the board).",
			Fields: []Field{
				num("x", "Left edge at column", f.X, -MaxFit), num("y", "Top edge at row", f.Y, -MaxFit),
				num("w", "Width in "+unit, f.W, 0), num("h", "Height in "+unit, f.H, 0),
			}})
	}
	return out
}
