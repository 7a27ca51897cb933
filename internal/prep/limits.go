package prep

import (
	"encoding/json"
	"regexp"

	"github.com/fray-vtt/fray/internal/board"
	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/sheet"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// Limits of what enters Fray as an encounter or a stat block, whichever
// way it comes: the encounter import (API, campaign page, `server encounter
// import`), the draft import and replace, every draft edit, the stat block
// forms and the bestiary and characters files. ReadSetup and CheckSetup
// (encounters and drafts) and CheckStatBlock (stat blocks) are the one
// validator; the battlefield's own limits are board's (board.MaxGridSide,
// board.MaxZones, …). Pages draw only what passed, and clamp besides.
const (
	// MaxSetupBytes bounds an encounter or draft document, and any file of
	// stat blocks.
	MaxSetupBytes = engine.MaxSetupBytes
	// MaxDepth bounds how deeply a document nests objects and arrays.
	MaxDepth      = strictjson.DefaultMaxDepth
	MaxCombatants = 100
	MaxSides      = 16
	MaxOptions    = 32
	// MaxNameLen bounds the names of encounters, sides, combatants and
	// stat blocks, in characters.
	MaxNameLen = 80
	// MaxIDLen bounds ids of sides, combatants and stat blocks, in bytes.
	MaxIDLen = 64
	// MaxStatsBytes bounds one combatant's or stat block's stats.
	MaxStatsBytes = 32 << 10
	// MaxStartBytes bounds one combatant's start.
	MaxStartBytes = 4 << 10
	// MaxStatBlocks bounds the entries of a bestiary or characters file.
	MaxStatBlocks = 500
	// MaxRevisions bounds the revisions of one character in a file.
	MaxRevisions = 1000
)

func invalid(format string, args ...any) error { return fray.Errorf(fray.EINVALID, format, args...) }

// ReadSetup decodes a setup document strictly (engine.DecodeSetup) and
// checks it against every limit (CheckSetup).
func ReadSetup(rules *engine.Registry, data []byte) (engine.Setup, error) {
	s, err := engine.DecodeSetup(data)
	if err != nil {
		return s, err
	}
	if err := CheckSetup(rules, s); err != nil {
		return engine.Setup{}, err
	}
	return s, nil
}

// CheckSetup checks a setup — an encounter's or a draft's, complete or
// not — against the limits: a known ruleset, counts of sides, combatants
// and options, lengths of names and ids, the size of stats and starts, and
// the battlefield under the ruleset's editor (board.CheckBattlefield).
// Whether it makes a valid encounter is engine.NewEncounter's to say.
func CheckSetup(rules *engine.Registry, s engine.Setup) error {
	if err := checkShape(s); err != nil {
		return err
	}
	rs, err := rules.Get(s.Ruleset)
	if err != nil {
		return err
	}
	e, boarded := EditorOf(rs)
	if !boarded {
		return nil
	}
	bf, err := board.Read(s.Battlefield)
	if err != nil {
		return invalid("%v", err)
	}
	starts := make(map[string]board.Start, len(s.Combatants))
	for _, c := range s.Combatants {
		st, err := board.ReadStart(c.Start)
		if err != nil {
			return invalid("combatant %q: %v", c.ID, err)
		}
		starts[c.ID] = st
	}
	if err := board.CheckBattlefield(e, bf, starts); err != nil {
		return invalid("%v", err)
	}
	return nil
}

// checkShape is what CheckSetup checks without the ruleset.
func checkShape(s engine.Setup) error {
	if s.Name == "" || !board.CheckText(s.Name, MaxNameLen) {
		return invalid("an encounter needs a name of 1–%d characters, without control characters", MaxNameLen)
	}
	if len(s.Ruleset) > MaxIDLen {
		return invalid("unknown ruleset")
	}
	if len(s.Options) > MaxOptions {
		return invalid("at most %d options, not %d", MaxOptions, len(s.Options))
	}
	for k, v := range s.Options {
		if len(k) > MaxIDLen || !board.CheckText(v, 200) {
			return invalid("option %.64q: a name of at most %d bytes and a value of at most 200 characters", k, MaxIDLen)
		}
	}
	if len(s.Sides) > MaxSides {
		return invalid("an encounter has at most %d sides, not %d", MaxSides, len(s.Sides))
	}
	for _, sd := range s.Sides {
		if !checkID(sd.ID) || !board.CheckText(sd.Name, MaxNameLen) {
			return invalid("side %.64q: an id of 1–%d bytes and a name of at most %d characters, without control characters", sd.ID, MaxIDLen, MaxNameLen)
		}
	}
	if len(s.Combatants) > MaxCombatants {
		return invalid("an encounter has at most %d combatants, not %d", MaxCombatants, len(s.Combatants))
	}
	for _, c := range s.Combatants {
		if !checkID(c.ID) || !board.CheckText(c.Name, MaxNameLen) || len(c.Side) > MaxIDLen || !board.CheckText(c.Player, MaxIDLen) {
			return invalid("combatant %.64q: an id of 1–%d bytes and a name of at most %d characters, without control characters", c.ID, MaxIDLen, MaxNameLen)
		}
		if len(c.Stats) > MaxStatsBytes {
			return invalid("combatant %q: stats are larger than %d bytes", c.ID, MaxStatsBytes)
		}
		if len(c.Start) > MaxStartBytes {
			return invalid("combatant %q: the start is larger than %d bytes", c.ID, MaxStartBytes)
		}
	}
	if len(s.Battlefield) > MaxSetupBytes {
		return invalid("the battlefield is larger than %d bytes", MaxSetupBytes)
	}
	return engine.CheckStage(s)
}

// checkID: 1–MaxIDLen bytes of text without control characters (the
// engine asks more of a combatant's or side's id when the encounter is
// created; a draft may hold one it would refuse for a while).
func checkID(id string) bool {
	return id != "" && len(id) <= MaxIDLen && board.CheckText(id, MaxIDLen)
}

// statID is what a stat block's id may be: a combatant id, as
// engine.NewEncounter checks it, so a character can join encounters.
var statID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// CheckStatBlock checks a bestiary entry or character as it enters from a
// form or a file: an id of letters, digits, '-' and '_' (a character's id
// is its combatant id), a name, and stats that are one JSON object within
// MaxStatsBytes.
func CheckStatBlock(id, name string, stats json.RawMessage) error {
	if !statID.MatchString(id) {
		return invalid("id %.64q: 1–%d letters, digits, '-' and '_', starting with a letter or digit", id, MaxIDLen)
	}
	if name == "" || !board.CheckText(name, MaxNameLen) {
		return invalid("a stat block needs a name of 1–%d characters, without control characters", MaxNameLen)
	}
	return CheckStats(stats)
}

// CheckStats checks stats as they enter: one JSON object within
// MaxStatsBytes, nested at most MaxDepth levels, without NUL characters.
func CheckStats(stats json.RawMessage) error {
	if len(stats) > MaxStatsBytes {
		return fray.Errorf(fray.ETOOLARGE, "stats are larger than %d bytes", MaxStatsBytes)
	}
	var obj map[string]json.RawMessage
	if err := strictjson.DecodeWith(stats, &obj, strictjson.Limits{AllowUnknown: true}); err != nil || obj == nil {
		return invalid("stats must be one JSON object")
	}
	return nil
}

// CheckRevisionText checks the words of a character revision that came in
// a file: its name, the encounter and the person, and what changed (at
// most 500 changes of short texts).
func CheckRevisionText(name, encounter, by string, changes []sheet.Change) error {
	if !board.CheckText(name, MaxNameLen) || !board.CheckText(encounter, MaxNameLen) || !board.CheckText(by, MaxNameLen) {
		return invalid("names are at most %d characters, without control characters", MaxNameLen)
	}
	if len(changes) > 500 {
		return invalid("at most 500 changes, not %d", len(changes))
	}
	for _, c := range changes {
		if !board.CheckText(c.Path, 200) || !board.CheckText(c.Label, 200) || !board.CheckText(c.Before, 200) || !board.CheckText(c.After, 200) {
			return invalid("a change is described in texts of at most 200 characters, without control characters")
		}
	}
	return nil
}
