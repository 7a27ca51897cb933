package engine

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/fray-vtt/fray/internal/fray"
)

// Viewer is who is looking at or acting in an encounter: the GM, or a player
// controlling some combatants.
type Viewer struct {
	GM       bool     `json:"gm,omitempty"`
	Controls []string `json:"controls,omitempty"` // combatant ids this viewer commands
}

// GMViewer is the game master's viewer.
func GMViewer() Viewer { return Viewer{GM: true} }

// PlayerViewer is a player controlling the given combatants.
func PlayerViewer(ids ...string) Viewer { return Viewer{Controls: ids} }

// CanCommand reports whether v may issue commands for combatant id.
func (v Viewer) CanCommand(id string) bool { return v.GM || slices.Contains(v.Controls, id) }

// Key identifies the viewer for caching projections: viewers with equal keys see the same thing.
func (v Viewer) Key() string {
	if v.GM {
		return GM
	}
	ids := slices.Clone(v.Controls)
	slices.Sort(ids)
	return "p:" + strings.Join(ids, ",")
}

// MaxCommandBytes bounds a command's JSON size.
const MaxCommandBytes = 8 << 10

// Command is something a viewer asks the encounter to do. Kind selects the
// action; Actor is the combatant acting (empty for GM-level commands). The
// ruleset reads the remaining fields from Raw with Decode.
type Command struct {
	Kind  string          `json:"kind"`
	Actor string          `json:"actor,omitempty"`
	Raw   json.RawMessage `json:"-"`
}

// MarshalJSON returns the command's original JSON.
func (c Command) MarshalJSON() ([]byte, error) {
	if len(c.Raw) > 0 {
		return c.Raw, nil
	}
	type plain Command
	return json.Marshal(plain(c))
}

// UnmarshalJSON keeps the whole object so the ruleset can read its own fields.
func (c *Command) UnmarshalJSON(data []byte) error {
	type plain Command
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*c = Command(p)
	c.Raw = slices.Clone(data)
	return nil
}

// Decode reads the command's fields into v, rejecting unknown fields so a
// typo never silently becomes a default.
func (c Command) Decode(v any) error {
	dec := json.NewDecoder(bytes.NewReader(c.Raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fray.Errorf(fray.EINVALID, "bad %q command: %v", c.Kind, err)
	}
	return nil
}

// DecodeCommand parses and validates a command's JSON.
func DecodeCommand(data []byte) (Command, error) {
	var c Command
	if len(data) > MaxCommandBytes {
		return c, fray.Errorf(fray.ETOOLARGE, "command is larger than %d bytes", MaxCommandBytes)
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return c, fray.Errorf(fray.EINVALID, "command must be a JSON object")
	}
	if err := json.Unmarshal(trimmed, &c); err != nil {
		return Command{}, fray.Errorf(fray.EINVALID, "malformed command: %v", err)
	}
	if c.Kind == "" {
		return Command{}, fray.Errorf(fray.EINVALID, "command has no kind")
	}
	if len(c.Kind) > 64 || len(c.Actor) > 64 {
		return Command{}, fray.Errorf(fray.EINVALID, "command kind or actor is too long")
	}
	return c, nil
}

// NewCommand builds a command from a kind, an actor and extra fields, for
// tests and server-side callers.
func NewCommand(kind, actor string, fields map[string]any) Command {
	m := map[string]any{"kind": kind}
	if actor != "" {
		m["actor"] = actor
	}
	for k, v := range fields {
		m[k] = v
	}
	raw, _ := json.Marshal(m)
	return Command{Kind: kind, Actor: actor, Raw: raw}
}
