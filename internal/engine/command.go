package engine

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// Viewer is who is looking at or acting in an encounter: the GM, or a player
// controlling some combatants.
type Viewer struct {
	GM       bool     `json:"gm,omitempty"`
	Controls []string `json:"controls,omitempty"` // combatant ids this viewer commands
	// Name is the signed-in person's display name, which the server sets
	// and chat messages carry. It is not part of what the viewer sees, nor
	// of Key: viewers who differ only by name see the same projection.
	Name string `json:"-"`
	// Players, on a GM's viewer, names the player who owns each player
	// character a player owns (combatant id → account name): decisions for
	// those are the players' to answer (owner.go).
	Players map[string]string `json:"players,omitempty"`
	// Agent, when set, sends the command on the person's behalf:
	// AgentStanding (the owner's standing order, with the owner's
	// viewer and name) or AgentFallback (a timer's fallback, with a GM
	// viewer). The server sets it, never a request; like Name it is not
	// part of what the viewer sees, nor of Key.
	Agent string `json:"-"`
}

// GMViewer is the game master's viewer.
func GMViewer() Viewer { return Viewer{GM: true} }

// PlayerViewer is a player controlling the given combatants.
func PlayerViewer(ids ...string) Viewer { return Viewer{Controls: ids} }

// CanCommand reports whether v may issue commands for combatant id.
func (v Viewer) CanCommand(id string) bool {
	return v.GM || (id != "" && slices.Contains(v.Controls, id))
}

// Key identifies the viewer for caching projections: viewers with equal keys see the same thing.
func (v Viewer) Key() string {
	if v.GM {
		return GM + v.playersKey()
	}
	ids := slices.Clone(v.Controls)
	slices.Sort(ids)
	return "p:" + strings.Join(ids, ",")
}

// MaxCommandBytes bounds a command's JSON size.
const MaxCommandBytes = 8 << 10

// Command is something a viewer asks the encounter to do: the envelope
// (Kind, and Actor, the combatant acting, empty for GM commands) and Args,
// the command's own fields, which the ruleset reads with Decode. On the
// wire the three are one JSON object: {"kind":"shoot","actor":"ana","target":"orc"}.
type Command struct {
	Kind  string
	Actor string
	Args  json.RawMessage // a JSON object without "kind", "actor" and "entropy"
	// Entropy is what the sender contributes to the command's provable
	// dice: up to 64 letters, digits, '-' or '_' ("entropy" on the wire;
	// see dice.Position). Pages send 16 random bytes in hexadecimal.
	Entropy string
}

// MarshalJSON writes the command as one object.
func (c Command) MarshalJSON() ([]byte, error) {
	fields := map[string]json.RawMessage{}
	if len(c.Args) > 0 {
		if err := json.Unmarshal(c.Args, &fields); err != nil {
			return nil, err
		}
	}
	kind, _ := json.Marshal(c.Kind)
	fields["kind"] = kind
	if c.Actor != "" {
		actor, _ := json.Marshal(c.Actor)
		fields["actor"] = actor
	}
	if c.Entropy != "" {
		e, _ := json.Marshal(c.Entropy)
		fields["entropy"] = e
	}
	return json.Marshal(fields)
}

// UnmarshalJSON splits the object into the envelope and the arguments.
func (c *Command) UnmarshalJSON(data []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	if fields == nil {
		return fray.Errorf(fray.EINVALID, "command must be a JSON object")
	}
	var out Command
	if raw, ok := fields["kind"]; ok {
		if err := json.Unmarshal(raw, &out.Kind); err != nil {
			return fray.Errorf(fray.EINVALID, "command kind must be a string")
		}
		delete(fields, "kind")
	}
	if raw, ok := fields["actor"]; ok {
		if !bytes.Equal(raw, []byte("null")) {
			if err := json.Unmarshal(raw, &out.Actor); err != nil {
				return fray.Errorf(fray.EINVALID, "command actor must be a string")
			}
		}
		delete(fields, "actor")
	}
	if raw, ok := fields["entropy"]; ok {
		if !bytes.Equal(raw, []byte("null")) {
			if err := json.Unmarshal(raw, &out.Entropy); err != nil {
				return fray.Errorf(fray.EINVALID, "command entropy must be a string")
			}
		}
		delete(fields, "entropy")
	}
	if len(fields) > 0 {
		args, err := json.Marshal(fields)
		if err != nil {
			return err
		}
		out.Args = args
	}
	*c = out
	return nil
}

// Decode reads the command's arguments into v strictly
// (strictjson.Unmarshal): an unknown field, or one named in another case,
// is refused, so a typo never silently becomes a default. v describes the
// arguments only: kind and actor are the envelope's.
func (c Command) Decode(v any) error {
	args := c.Args
	if len(args) == 0 {
		args = []byte("{}")
	}
	if err := strictjson.Unmarshal(args, v); err != nil {
		return fray.Errorf(fray.EINVALID, "bad %q command: %v", c.Kind, err)
	}
	return nil
}

// NoArgs fails unless the command has no arguments.
func (c Command) NoArgs() error { return c.Decode(&struct{}{}) }

// DecodeCommand parses and validates a command's JSON.
func DecodeCommand(data []byte) (Command, error) {
	var c Command
	if len(data) > MaxCommandBytes {
		return c, fray.Errorf(fray.ETOOLARGE, "command is larger than %d bytes", MaxCommandBytes)
	}
	plain, ok := plainCommand(data)
	if ok {
		c = plain
	} else {
		if err := strictjson.Check(data, 0); err != nil {
			return c, fray.Errorf(fray.EINVALID, "command: %s", strings.TrimPrefix(fray.ErrorMessage(err), "malformed JSON: "))
		}
		trimmed := bytes.TrimSpace(data)
		if len(trimmed) == 0 || trimmed[0] != '{' {
			return c, fray.Errorf(fray.EINVALID, "command must be a JSON object")
		}
		if err := json.Unmarshal(trimmed, &c); err != nil {
			if fray.ErrorCode(err) == fray.EINVALID {
				return Command{}, err
			}
			return Command{}, fray.Errorf(fray.EINVALID, "malformed command: %v", err)
		}
	}
	if c.Kind == "" {
		return Command{}, fray.Errorf(fray.EINVALID, "command has no kind")
	}
	if len(c.Kind) > 64 || len(c.Actor) > 64 {
		return Command{}, fray.Errorf(fray.EINVALID, "command kind or actor is too long")
	}
	if err := checkEntropy(c); err != nil {
		return Command{}, err
	}
	return c, nil
}

// plainCommand reads the commonest command, one with no arguments —
// {"kind":…,"actor":…,"entropy":…}, plain strings (strictjson.PlainFields),
// each key once — as UnmarshalJSON would, without its maps and its second
// pass over the fields; it reports false for anything else, which
// DecodeCommand then reads the ordinary way. Every command a socket sends
// is decoded here, and the ordinary way was most of reading one.
func plainCommand(data []byte) (Command, bool) {
	var buf [3]strictjson.Field
	fields, ok := strictjson.PlainFields(data, buf[:0])
	if !ok || len(fields) > len(buf) {
		return Command{}, false
	}
	var c Command
	var seen [3]bool
	for _, f := range fields {
		var i int
		switch string(f.Key) {
		case "kind":
			i = 0
		case "actor":
			i = 1
		case "entropy":
			i = 2
		default:
			return Command{}, false
		}
		if f.Object || seen[i] {
			return Command{}, false
		}
		seen[i] = true
		switch i {
		case 0:
			c.Kind = string(f.Value)
		case 1:
			c.Actor = string(f.Value)
		case 2:
			c.Entropy = string(f.Value)
		}
	}
	return c, true
}

// NewCommand builds a command from a kind, an actor and its arguments, for
// tests and server-side callers.
func NewCommand(kind, actor string, args map[string]any) Command {
	c := Command{Kind: kind, Actor: actor}
	if len(args) > 0 {
		raw, ok := appendPlainArgs(nil, args)
		if !ok {
			var err error
			if raw, err = json.Marshal(args); err != nil {
				panic("engine.NewCommand: " + err.Error())
			}
		}
		c.Args = raw
	}
	return c
}

// appendPlainArgs appends args encoded byte for byte as json.Marshal
// encodes them, when every key is plain and every value a plain string, a
// bool or an int (what tactics mostly send), and says whether it could: a
// simulation builds a command for every look its tactics take, and the
// reflection of json.Marshal was a few per cent of it.
func appendPlainArgs(buf []byte, args map[string]any) ([]byte, bool) {
	keys := make([]string, 0, len(args))
	for k := range args {
		if !plainJSONString(k) {
			return nil, false
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	buf = append(buf, '{')
	for i, k := range keys {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, '"')
		buf = append(buf, k...)
		buf = append(buf, '"', ':')
		switch v := args[k].(type) {
		case string:
			if !plainJSONString(v) {
				return nil, false
			}
			buf = append(buf, '"')
			buf = append(buf, v...)
			buf = append(buf, '"')
		case bool:
			buf = strconv.AppendBool(buf, v)
		case int:
			buf = strconv.AppendInt(buf, int64(v), 10)
		default:
			return nil, false
		}
	}
	return append(buf, '}'), true
}

// plainJSONString says whether json.Marshal encodes s as s in quotes:
// printable ASCII, nothing it escapes (quote, backslash, and <, > and &
// for HTML).
func plainJSONString(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}
