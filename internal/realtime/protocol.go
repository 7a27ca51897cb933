// Package realtime serves encounters over websockets: it keeps the clients
// of each encounter, sends each one its own projection on connect or resume,
// relays their commands, and fans every update out without letting a slow
// client stall the others. The wire protocol is documented in docs/protocol.md.
package realtime

import (
	"encoding/json"
	"strings"

	"github.com/fray-vtt/fray/internal/engine"
	"github.com/fray-vtt/fray/internal/fray"
	"github.com/fray-vtt/fray/internal/play"
	"github.com/fray-vtt/fray/internal/strictjson"
)

// ProtocolVersion is the version of the websocket protocol.
const ProtocolVersion = 1

// MaxMessageBytes bounds one client message; larger ones close the socket.
const MaxMessageBytes = 16 << 10

// ClientMessage is what a browser or bot sends.
type ClientMessage struct {
	Type    string          `json:"type"`
	ID      string          `json:"id"`
	Command json.RawMessage `json:"command"`
}

// DecodeClientMessage parses a client message and the command it carries:
// one JSON object and nothing after it (strictjson), so a message that a
// lenient reader would take for a command is refused as a whole.
func DecodeClientMessage(data []byte) (ClientMessage, engine.Command, error) {
	var m ClientMessage
	if err := strictjson.Decode(data, &m); err != nil {
		return ClientMessage{}, engine.Command{}, fray.Errorf(fray.ErrorCode(err), "malformed message: %s", strings.TrimPrefix(fray.ErrorMessage(err), "malformed JSON: "))
	}
	if m.Type != "command" {
		return m, engine.Command{}, fray.Errorf(fray.EINVALID, "unknown message type %q", m.Type)
	}
	if err := play.CheckCommandID(m.ID); err != nil {
		return ClientMessage{Type: m.Type}, engine.Command{}, err
	}
	cmd, err := engine.DecodeCommand(m.Command)
	if err != nil {
		return m, engine.Command{}, err
	}
	return m, cmd, nil
}

// snapshotMessage is sent on connect when the client cannot resume.
type snapshotMessage struct {
	Type    string            `json:"type"` // "snapshot"
	Version int               `json:"version"`
	Seq     int64             `json:"seq"`
	View    engine.View       `json:"view"`
	HTML    map[string]string `json:"html,omitempty"`
}

type ackMessage struct {
	Type string `json:"type"` // "ack"
	ID   string `json:"id"`
	Seq  int64  `json:"seq"`
}

type errorMessage struct {
	Type    string `json:"type"` // "error"
	ID      string `json:"id,omitempty"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func encode(v any) []byte {
	b, err := marshal(v)
	if err != nil {
		panic("realtime: encode: " + err.Error())
	}
	return b
}
