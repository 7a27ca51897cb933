package dice

import (
	"math"
	"testing"
)

// The vectors below were computed with an independent implementation of
// docs/protocol.md's derivation (Python's hmac and hashlib), so they pin
// the specification, not only this code.
const (
	vectorMaster     = "ef1352082d1937b8d9dc2177dcabffbee67761b00fc5ec606eb89c37e71d16db" // TestSeed(7)
	vectorSeed0      = "34cc72f4012ad6b2678c9746a5223dea6c85f3335c8032e0749e2c1dbeff13c2"
	vectorCommitment = "1b6ab346ebf935a13674f3d0bd08993668fcd5e56d3e046dd8b268676988a05b"
	vectorSeed1      = "9824a10bbc77eebf162dcedb3b72bc4366a26eabc855270c04be79181418dc04"
)

func TestDerivationVectors(t *testing.T) {
	master := TestSeed(7)
	if master.String() != vectorMaster {
		t.Fatalf("TestSeed(7) = %s", master)
	}
	s0 := master.Epoch(0)
	if s0.String() != vectorSeed0 || s0.Commitment() != vectorCommitment || master.Epoch(1).String() != vectorSeed1 {
		t.Fatalf("epoch seeds %s %s, commitment %s", s0, master.Epoch(1), s0.Commitment())
	}
	for _, tc := range []struct {
		p     Position
		sides int
		want  []int
	}{
		{Position{From: 12}, 6, []int{6, 6, 4, 1, 4, 1, 3, 3, 6, 6}},
		{Position{From: 12, Entropy: "c0ffee"}, 20, []int{16, 1, 18, 3, 15, 4, 12, 20, 19, 12}},
		{Position{From: 3, Entropy: "c0ffee"}, 52, []int{48, 21, 38, 45, 3}},
		// Half of all numbers are rejected for a die this large.
		{Position{From: 3, Entropy: "c0ffee"}, 1<<31 + 1, []int{1280323289, 16299780, 168493454, 211592205, 332620967}},
	} {
		d := NewDeriver(s0, tc.p)
		for k, want := range tc.want {
			if got := d.Face(k, tc.sides); got != want {
				t.Errorf("%+v d%d face %d: %d, want %d", tc.p, tc.sides, k, got, want)
			}
		}
	}
	// Every number of block 0 rejected: the face comes from block 1.
	if got := Derive(s0, Position{From: 3, Entropy: "c0ffee"}, 31, 1<<31+1); got != 1966725114 {
		t.Errorf("face 31 (from block 1): %d", got)
	}
}

func TestDerivedSourceFollowsPositions(t *testing.T) {
	master := TestSeed(7)
	r := NewRoller(NewDerived(master))
	p := Position{From: 12, Entropy: "c0ffee"}
	r.Begin(p)
	a, b := r.Die(20), r.Ace(6)
	if a.At != 0 || b.At != 1 {
		t.Fatalf("positions %d, %d", a.At, b.At)
	}
	if a.Faces[0] != 16 {
		t.Fatalf("first face %d, want the vector's 16", a.Faces[0])
	}
	for j, f := range b.Faces {
		if want := Derive(master.Epoch(0), p, b.At+j, 6); f != want {
			t.Fatalf("ace face %d: %d, want %d", j, f, want)
		}
	}
	if got := r.Rolled(); len(got) != 1+len(b.Faces) {
		t.Fatalf("rolled %v", got)
	}
	// The same position gives the same faces (a refused command rolls
	// nothing new); another entropy or seq, others.
	r.Begin(p)
	if again := r.Die(20); again.Faces[0] != 16 || again.At != 0 {
		t.Fatalf("begun again: %+v", again)
	}
	differ := func(q Position) bool {
		r.Begin(q)
		for k := 0; k < 8; k++ {
			if r.Die(20).Faces[0] != Derive(master.Epoch(0), p, k, 20) {
				return true
			}
		}
		return false
	}
	if !differ(Position{From: 13, Entropy: "c0ffee"}) || !differ(Position{From: 12, Entropy: "c0ffef"}) || !differ(Position{From: 12, Epoch: 1, Entropy: "c0ffee"}) {
		t.Fatal("another position gave the same faces")
	}
	if c, ok := r.Commitment(0); !ok || c != vectorCommitment {
		t.Fatalf("commitment %q %v", c, ok)
	}
	if !r.Provable() || NewRoller(NewSeeded(1)).Provable() {
		t.Fatal("Provable")
	}
}

// TestDerivedFacesAreUniform rolls 60,000 faces of dice whose sides do not
// divide 2³² and checks each face's count with a chi-squared test: a
// derivation that took u mod sides without rejection would still pass for
// small dice, so a huge die (where the bias is a third) is included.
func TestDerivedFacesAreUniform(t *testing.T) {
	d := NewDeriver(TestSeed(1).Epoch(0), Position{From: 1, Entropy: "uniform"})
	for _, sides := range []int{6, 20, 52} {
		counts := make([]int, sides)
		const n = 60000
		for k := 0; k < n; k++ {
			f := d.Face(k, sides)
			if f < 1 || f > sides {
				t.Fatalf("d%d face %d", sides, f)
			}
			counts[f-1]++
		}
		chi := 0.0
		exp := float64(n) / float64(sides)
		for _, c := range counts {
			chi += (float64(c) - exp) * (float64(c) - exp) / exp
		}
		// The 99.9th percentile of chi-squared with sides-1 degrees of freedom,
		// roughly (Wilson–Hilferty).
		df := float64(sides - 1)
		z := 3.09
		limit := df * math.Pow(1-2/(9*df)+z*math.Sqrt(2/(9*df)), 3)
		if chi > limit {
			t.Errorf("d%d: chi-squared %.1f over %.1f: %v", sides, chi, limit, counts)
		}
	}
	// A die of 3·2³⁰ sides: without rejection, numbers from 3·2³⁰ to 2³²
	// would wrap onto the lowest third of the faces, which would come up
	// half of the time; with it, each third comes up a third of the time.
	sides := 3 << 30
	thirds := [3]int{}
	for k := 0; k < 30000; k++ {
		thirds[(d.Face(k, sides)-1)/(1<<30)]++
	}
	for i, c := range thirds {
		if c < 9400 || c > 10600 {
			t.Fatalf("third %d of a d%d: %d of 30000 (%v)", i, sides, c, thirds)
		}
	}
}

func TestCheckEntropy(t *testing.T) {
	for _, ok := range []string{"", "c0ffee", "AZaz09-_", "0123456789012345678901234567890123456789012345678901234567890123"} {
		if err := CheckEntropy(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"a b", "é", "01234567890123456789012345678901234567890123456789012345678901234", "x\n"} {
		if CheckEntropy(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseSeed(t *testing.T) {
	s, err := ParseSeed(vectorSeed0)
	if err != nil || s != TestSeed(7).Epoch(0) {
		t.Fatalf("%v %v", s, err)
	}
	for _, bad := range []string{"", "00", vectorSeed0 + "00", "zz" + vectorSeed0[2:]} {
		if _, err := ParseSeed(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func BenchmarkDeriveFace(b *testing.B) {
	r := NewRoller(NewDerived(TestSeed(1)))
	for i := 0; b.Loop(); i++ {
		if i%8 == 0 {
			r.Begin(Position{From: int64(i), Entropy: "0123456789abcdef0123456789abcdef"})
		}
		r.Die(20)
	}
}

// TestDerivedKeepsNoPositionBehind begins command after command on one
// source — new seqs, entropies, an epoch and back — and checks every face
// against a derivation from scratch: the source keeps its keyed HMAC
// between commands, and nothing of a position may leak into the next.
func TestDerivedKeepsNoPositionBehind(t *testing.T) {
	master := TestSeed(3)
	src := NewDerived(master)
	for _, p := range []Position{
		{From: 1, Entropy: "aa"}, {From: 4}, {From: 9, Entropy: "aa"}, {From: 9, Entropy: "ab"},
		{From: 15, Epoch: 1}, {From: 15, Epoch: 1, Entropy: "aa"}, {From: 20}, {From: 1 << 40, Entropy: "zz"},
	} {
		src.Begin(p)
		for k := range 4 {
			if got, want := src.Face(20), Derive(master.Epoch(p.Epoch), p, k, 20); got != want {
				t.Fatalf("%+v face %d: %d, derived afresh %d", p, k, got, want)
			}
		}
	}
}
