package proof

import (
	"testing"

	"github.com/fray-vtt/fray/internal/dice"
)

// TestProtocolWorkedExample keeps docs/protocol.md's worked example
// ("Checking a history") true.
func TestProtocolWorkedExample(t *testing.T) {
	g := Genesis("0b5e7c1a-2f3d-4e5f-8a9b-0c1d2e3f4a5b")
	var salt Salt
	for i := range salt {
		salt[i] = byte(i)
	}
	d, err := Digest(salt, []byte(`{"seq":1,"kind":"encounter-started","round":0,"text":"The encounter begins.","command":"start"}`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Commitment("d5", "reckless", []byte(`{"weapon":"dagger","aim":"find-weakness"}`), "00112233445566778899aabbccddeeff")
	if err != nil {
		t.Fatal(err)
	}
	seed := dice.TestSeed(1)
	p := dice.Position{From: 7, Entropy: "3f9a0c"}
	for name, got := range map[string]string{
		"17a59ab3d66f3ea43c17859ebc35dc68ecba72de21957d77f1305edd5b7e95a5": g.String(),
		"e37da404d16e8f40a24706d7234bfef62e69b6840d33ae11547839854fb1ae98": d.String(),
		"c0cde13c41f14a188e0dc52d896d8b128b45aef7adf48cceb63f5a65a44749be": Link(g, 1, d).String(),
		"51b07fcf927ad9456504214f9827a990473c8f784ac09f1b8abab349215d7b35": c,
		"68c4564b9759e382475f57a16bb6813f34c2e4b79ceca106661147628ad5226f": seed.String(),
		"3480fef0114fc0273b9e6f2d0bd7ea3696c2e725101a87122b070b0b5720aa14": seed.Commitment(),
	} {
		if got != name {
			t.Errorf("got %s, the example says %s", got, name)
		}
	}
	for k, want := range []int{7, 11, 2} {
		if got := dice.Derive(seed, p, k, 20); got != want {
			t.Errorf("d20 %d: %d, the example says %d", k, got, want)
		}
	}
}
