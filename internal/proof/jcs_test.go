package proof

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// testdata/jcs.json holds pairs of a JSON text and its canonical form as a
// browser writes it (JSON.stringify with every object's keys sorted, run
// by Node.js): RFC 8785's own examples, its number table, and an event.
func TestCanonicalMatchesTheBrowser(t *testing.T) {
	raw, err := os.ReadFile("testdata/jcs.json")
	if err != nil {
		t.Fatal(err)
	}
	var pairs [][2]string
	if err := json.Unmarshal(raw, &pairs); err != nil {
		t.Fatal(err)
	}
	if len(pairs) < 5 {
		t.Fatalf("%d pairs", len(pairs))
	}
	for _, p := range pairs {
		got, err := Canonical([]byte(p[0]))
		if err != nil {
			t.Errorf("%s: %v", p[0], err)
			continue
		}
		if string(got) != p[1] {
			t.Errorf("canonical form of\n  %s\nis\n  %s\nwant\n  %s", p[0], got, p[1])
		}
		// Canonical of canonical is itself.
		if again, err := Canonical(got); err != nil || string(again) != string(got) {
			t.Errorf("not idempotent: %s → %s (%v)", got, again, err)
		}
	}
}

func TestCanonicalNumbersFromBits(t *testing.T) {
	// RFC 8785, appendix B (checked against Node.js).
	for _, tc := range []struct {
		bits uint64
		want string
	}{
		{0x0000000000000000, "0"}, {0x8000000000000000, "0"}, {0x0000000000000001, "5e-324"},
		{0x8000000000000001, "-5e-324"}, {0x7fefffffffffffff, "1.7976931348623157e+308"},
		{0xffefffffffffffff, "-1.7976931348623157e+308"}, {0x4340000000000000, "9007199254740992"},
		{0xc340000000000000, "-9007199254740992"}, {0x4430000000000000, "295147905179352830000"},
		{0x44b52d02c7e14af5, "9.999999999999997e+22"}, {0x44b52d02c7e14af6, "1e+23"},
		{0x44b52d02c7e14af7, "1.0000000000000001e+23"}, {0x444b1ae4d6e2ef4e, "999999999999999700000"},
		{0x444b1ae4d6e2ef4f, "999999999999999900000"}, {0x444b1ae4d6e2ef50, "1e+21"},
		{0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"}, {0x3eb0c6f7a0b5ed8d, "0.000001"},
		{0x41b3de4355555553, "333333333.3333332"}, {0x41b3de4355555554, "333333333.33333325"},
		{0x41b3de4355555555, "333333333.3333333"}, {0x41b3de4355555556, "333333333.3333334"},
		{0x41b3de4355555557, "333333333.33333343"}, {0xbecbf647612f3696, "-0.0000033333333333333333"},
		{0x43143ff3c1cb0959, "1424953923781206.2"},
	} {
		if got := string(AppendNumber(nil, math.Float64frombits(tc.bits))); got != tc.want {
			t.Errorf("%016x: %s, want %s", tc.bits, got, tc.want)
		}
	}
}

func TestCanonicalRefuses(t *testing.T) {
	for _, bad := range []string{
		``, `{`, `{"a":1,"a":2}`, `[1,]`, `01`, `1.`, `1e`, `"\ud800"`, `"\udc00\ud800"`, "\"\xff\"", "\"a\nb\"",
		`{"a":1} x`, `1e400`, `tru`, `{"a" 1}`, `"\x"`, `[1 2]`, `NaN`,
	} {
		if out, err := Canonical([]byte(bad)); err == nil {
			t.Errorf("%q accepted as %s", bad, out)
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, s := range []string{`{"b":[1,2.5,"x"],"a":{"c":null}}`, `"\u00e9\ud83d\ude00"`, `-0.0000033`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		out, err := Canonical(raw)
		if err != nil {
			return
		}
		var a, b any
		if json.Unmarshal(raw, &a) != nil {
			t.Fatalf("canonical form of invalid JSON %q: %s", raw, out)
		}
		if err := json.Unmarshal(out, &b); err != nil {
			t.Fatalf("canonical form %s of %q is not JSON: %v", out, raw, err)
		}
		again, err := Canonical(out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("not idempotent: %s → %s (%v)", out, again, err)
		}
		if ref, err := canonicalReference(raw); err != nil || string(ref) != string(out) {
			t.Fatalf("canonical form of %q: %s, the reference gives %s (%v)", raw, out, ref, err)
		}
	})
}

// TestCanonicalMatchesTheReference holds Canonical to the first, plain
// implementation (jcs_reference_test.go) over random JSON texts: names
// beyond ASCII (U+E000–U+FFFF against surrogate pairs, where UTF-16 order
// is not code point order), escapes, every shape of number (integers on
// both sides of 15 digits, -0, fractions, exponents), nesting, whitespace
// and duplicate names — the same bytes, or both refusing.
func TestCanonicalMatchesTheReference(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 8785))
	names := []string{"a", "b", "seq", "kind", "A", `a\u0000`, "é", `\u00e9`, "€", `\ufb33`, `\uffff`, "\uffff", "\ue000", "😀", `\ud83d\ude00`, "𝄞", `\ud834\udd1e`, "ab", `a\"b`, `\n`, "", "z" + strings.Repeat("y", 40)}
	numbers := []string{"0", "-0", "7", "-12", "100", "123456789012345", "1234567890123456", "-9007199254740993", "99999999999999999999999",
		"0.5", "-0.0000033", "1.0", "4.50", "1e3", "1E+30", "2e-3", "-1.5e-7", "0.000001", "1e21", "1e400", "01", "1."}
	strs := []string{`""`, `"plain"`, `"\u20ac\t\"\\\/"`, `"\u000F"`, "\"é😀\"", `"\ud800"`, "\"a\nb\"", `"\uDBFF\uDFFF"`}
	var value func(depth int) string
	value = func(depth int) string {
		switch k := r.IntN(10); {
		case k < 2 && depth < 5:
			var b strings.Builder
			b.WriteString("{")
			for i := range r.IntN(7) {
				if i > 0 {
					b.WriteString(" ,")
				}
				fmt.Fprintf(&b, "\"%s\" : %s", names[r.IntN(len(names))], value(depth+1))
			}
			b.WriteString("}\n")
			return b.String()
		case k < 4 && depth < 5:
			var parts []string
			for range r.IntN(5) {
				parts = append(parts, value(depth+1))
			}
			return "[ " + strings.Join(parts, ",") + "]"
		case k < 6:
			return numbers[r.IntN(len(numbers))]
		case k < 8:
			return strs[r.IntN(len(strs))]
		default:
			return []string{"true", "false", "null", "nul"}[r.IntN(4)]
		}
	}
	accepted := 0
	for range 20000 {
		raw := []byte(value(0))
		got, err := Canonical(raw)
		want, werr := canonicalReference(raw)
		if (err == nil) != (werr == nil) || string(got) != string(want) {
			t.Fatalf("%s:\n  canonical %s (%v)\n  reference %s (%v)", raw, got, err, want, werr)
		}
		if err == nil {
			accepted++
		}
	}
	if accepted < 5000 {
		t.Fatalf("only %d of 20000 random texts were valid: the test checks little", accepted)
	}
}
