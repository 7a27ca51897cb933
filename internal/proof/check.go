package proof

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/fray-vtt/fray/internal/dice"
)

// Failure is a check that failed, at the first event it concerns.
type Failure struct {
	Seq    int64
	Reason string
}

func (f *Failure) Error() string { return fmt.Sprintf("seq %d: %s", f.Seq, f.Reason) }

func fail(seq int64, format string, args ...any) *Failure {
	return &Failure{Seq: seq, Reason: fmt.Sprintf(format, args...)}
}

// first returns the failure with the lowest seq, nil when there is none.
func first(fs ...*Failure) *Failure {
	var out *Failure
	for _, f := range fs {
		if f != nil && (out == nil || f.Seq < out.Seq) {
			out = f
		}
	}
	return out
}

// The few fields of an event the checks read. They are read from the
// event's JSON as the log has it, with nothing of the server's types.
type checkedEvent struct {
	Seq   int64           `json:"seq"`
	Kind  string          `json:"kind"`
	Data  json.RawMessage `json:"data"`
	Rolls []struct {
		Label string `json:"label"`
		Dice  []struct {
			Sides int   `json:"sides"`
			Faces []int `json:"faces"`
			At    int   `json:"at"`
		} `json:"dice"`
	} `json:"rolls"`
	Draw *dice.Position `json:"draw"`
}

// DiceReport counts what CheckDice found.
type DiceReport struct {
	Verified   int // faces recomputed from a published seed
	Pending    int // faces whose seed is not published yet (the encounter goes on)
	Unprovable int // faces rolled before the encounter's dice were committed to (logs from before provable dice)
	Epochs     int // seeds committed to
	Published  int // seeds published
}

// CheckDice recomputes every die of events (each an event's JSON, in seq
// order; events a viewer may not see may be missing) from the seeds the
// log publishes, and checks each published seed against the commitment
// made before its dice were rolled. complete says events is the whole log:
// then every face a command rolled must be recorded, none left out.
func CheckDice(events []json.RawMessage, complete bool) (DiceReport, *Failure) {
	var rep DiceReport
	evs := make([]checkedEvent, len(events))
	for i, raw := range events {
		if err := json.Unmarshal(raw, &evs[i]); err != nil {
			return rep, fail(evs[i].Seq, "not an event: %v", err)
		}
	}
	type commitment struct {
		hash string
		seq  int64
	}
	commitments := map[int]commitment{}
	seeds := map[int]dice.Seed{}
	firstCommit := int64(-1)
	for _, ev := range evs {
		var c struct {
			Epoch      int    `json:"epoch"`
			Commitment string `json:"commitment"`
		}
		switch ev.Kind {
		case "encounter-started", "dice-committed":
			if ev.Kind == "encounter-started" {
				var d struct {
					Dice *json.RawMessage `json:"dice"`
				}
				if len(ev.Data) == 0 || json.Unmarshal(ev.Data, &d) != nil || d.Dice == nil {
					continue
				}
				if err := json.Unmarshal(*d.Dice, &c); err != nil {
					return rep, fail(ev.Seq, "unreadable dice commitment: %v", err)
				}
			} else if err := json.Unmarshal(ev.Data, &c); err != nil {
				return rep, fail(ev.Seq, "unreadable dice commitment: %v", err)
			}
			if _, err := ParseHash(c.Commitment); err != nil {
				return rep, fail(ev.Seq, "dice commitment: %v", err)
			}
			if _, dup := commitments[c.Epoch]; dup {
				return rep, fail(ev.Seq, "dice epoch %d committed to twice", c.Epoch)
			}
			commitments[c.Epoch] = commitment{c.Commitment, ev.Seq}
			if firstCommit < 0 {
				firstCommit = ev.Seq
			}
		case "dice-published":
			var p struct {
				Epoch int    `json:"epoch"`
				Seed  string `json:"seed"`
			}
			if err := json.Unmarshal(ev.Data, &p); err != nil {
				return rep, fail(ev.Seq, "unreadable dice seed: %v", err)
			}
			seed, err := dice.ParseSeed(p.Seed)
			if err != nil {
				return rep, fail(ev.Seq, "dice seed: %v", err)
			}
			c, ok := commitments[p.Epoch]
			if !ok || c.seq > ev.Seq {
				return rep, fail(ev.Seq, "the seed of dice epoch %d is published but was never committed to", p.Epoch)
			}
			if seed.Commitment() != c.hash {
				return rep, fail(ev.Seq, "the seed published for dice epoch %d does not match its commitment (seq %d)", p.Epoch, c.seq)
			}
			seeds[p.Epoch] = seed
		}
	}
	rep.Epochs, rep.Published = len(commitments), len(seeds)

	type command struct {
		first int64 // the first event seen with its dice
		used  []bool
		n     int
	}
	commands := map[int64]*command{}
	var order []int64
	for _, ev := range evs {
		faces := 0
		for _, r := range ev.Rolls {
			for _, d := range r.Dice {
				faces += len(d.Faces)
			}
		}
		if faces == 0 {
			continue
		}
		if ev.Draw == nil {
			if firstCommit >= 0 && ev.Seq >= firstCommit {
				return rep, fail(ev.Seq, "dice without a draw after the dice were committed to")
			}
			rep.Unprovable += faces
			continue
		}
		p := *ev.Draw
		c, ok := commitments[p.Epoch]
		switch {
		case !ok || c.seq > ev.Seq:
			return rep, fail(ev.Seq, "dice drawn from epoch %d, never committed to before them", p.Epoch)
		case p.From < 1 || p.From > ev.Seq:
			return rep, fail(ev.Seq, "dice drawn at seq %d, which is not where their command began", p.From)
		case dice.CheckEntropy(p.Entropy) != nil:
			return rep, fail(ev.Seq, "dice drawn with malformed entropy %q", p.Entropy)
		}
		cmd := commands[p.From]
		if cmd == nil {
			cmd = &command{first: ev.Seq}
			commands[p.From] = cmd
			order = append(order, p.From)
		}
		seed, known := seeds[p.Epoch]
		var d *dice.Deriver
		if known {
			d = dice.NewDeriver(seed, p)
		}
		for _, r := range ev.Rolls {
			for _, die := range r.Dice {
				for j, f := range die.Faces {
					at := die.At + j
					if at < 0 || at > 1<<20 || die.Sides < 1 {
						return rep, fail(ev.Seq, "a die of %d sides at position %d", die.Sides, at)
					}
					for len(cmd.used) <= at {
						cmd.used = append(cmd.used, false)
					}
					if cmd.used[at] {
						return rep, fail(ev.Seq, "two dice at position %d of the command begun at seq %d", at, p.From)
					}
					cmd.used[at] = true
					cmd.n++
					if !known {
						rep.Pending++
						continue
					}
					if want := d.Face(at, die.Sides); f != want {
						return rep, fail(ev.Seq, "%q: a d%d at position %d shows %d, but the seed gives %d", r.Label, die.Sides, at, f, want)
					}
					rep.Verified++
				}
			}
		}
	}
	if complete {
		for _, from := range order {
			if cmd := commands[from]; cmd.n != len(cmd.used) {
				return rep, fail(cmd.first, "the command begun at seq %d rolled %d faces but its events record %d", from, len(cmd.used), cmd.n)
			}
		}
	}
	return rep, nil
}

// Commitment is the commitment to answering decision with choice and
// values (a JSON object; nil or null for none) under nonce: the lowercase
// hexadecimal SHA-256 of the canonical JSON of
// {"choice":choice,"decision":decision,"nonce":nonce,"values":values}.
func Commitment(decision, choice string, values json.RawMessage, nonce string) (string, error) {
	v := bytes.TrimSpace(values)
	if len(v) == 0 || bytes.Equal(v, []byte("null")) {
		v = []byte("{}")
	}
	if v[0] != '{' {
		return "", fmt.Errorf("values must be a JSON object")
	}
	str := func(s string) []byte { b, _ := json.Marshal(s); return b }
	var b bytes.Buffer
	b.WriteString(`{"choice":`)
	b.Write(str(choice))
	b.WriteString(`,"decision":`)
	b.Write(str(decision))
	b.WriteString(`,"nonce":`)
	b.Write(str(nonce))
	b.WriteString(`,"values":`)
	b.Write(v)
	b.WriteString(`}`)
	canon, err := Canonical(b.Bytes())
	if err != nil {
		return "", fmt.Errorf("values must be a JSON object: %w", err)
	}
	h := sha256.Sum256(canon)
	return hex.EncodeToString(h[:]), nil
}

// SealedReport counts what CheckSealed found.
type SealedReport struct {
	Committed int // answers committed to
	Revealed  int // revealed and matching their commitments
	Forfeited int // never revealed: the default applied
	Waiting   int // committed, not revealed yet
}

// CheckSealed checks every sealed answer revealed in events against the
// commitment made to it earlier in the log.
func CheckSealed(events []json.RawMessage) (SealedReport, *Failure) {
	var rep SealedReport
	type committed struct {
		hash string
		seq  int64
		done bool
	}
	kept := map[string]*committed{}
	for _, raw := range events {
		var ev checkedEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return rep, fail(ev.Seq, "not an event: %v", err)
		}
		switch ev.Kind {
		case "decision-answered":
			var d struct {
				ID         string `json:"id"`
				Commitment string `json:"commitment"`
			}
			if json.Unmarshal(ev.Data, &d) != nil || d.Commitment == "" {
				continue
			}
			kept[d.ID] = &committed{hash: d.Commitment, seq: ev.Seq}
			rep.Committed++
		case "decision-forfeited":
			var d struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(ev.Data, &d) == nil && kept[d.ID] != nil && !kept[d.ID].done {
				kept[d.ID].done = true
				rep.Forfeited++
			}
		case "decisions-revealed":
			var d struct {
				Answers []struct {
					ID        string          `json:"id"`
					Choice    string          `json:"choice"`
					Nonce     string          `json:"nonce"`
					Committed json.RawMessage `json:"committed"`
					Forfeited bool            `json:"forfeited"`
				} `json:"answers"`
			}
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				return rep, fail(ev.Seq, "unreadable revealed answers: %v", err)
			}
			for _, a := range d.Answers {
				c := kept[a.ID]
				if c == nil || a.Forfeited {
					continue // answered outright (by the GM), or forfeited
				}
				if a.Nonce == "" {
					return rep, fail(ev.Seq, "the answer to %s was committed to (seq %d) but is revealed without its nonce", a.ID, c.seq)
				}
				got, err := Commitment(a.ID, a.Choice, a.Committed, a.Nonce)
				if err != nil || got != c.hash {
					return rep, fail(ev.Seq, "the answer revealed for %s does not match its commitment (seq %d)", a.ID, c.seq)
				}
				c.done = true
				rep.Revealed++
			}
		}
	}
	for _, c := range kept {
		if !c.done {
			rep.Waiting++
		}
	}
	return rep, nil
}
