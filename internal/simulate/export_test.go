package simulate

import "github.com/fray-vtt/fray/internal/engine"

// Play is Fight with the fight's events, for the tests.
func (s *Simulator) Play(seed uint64) (Fight, []engine.Event, error) { return s.play(seed) }
