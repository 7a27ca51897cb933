package web

import (
	"context"
	"testing"

	"github.com/fray-vtt/fray/internal/board/boardtest"
)

// BenchmarkFragments renders the page's fragments of one update (every
// section, the new log entries and the roll card of the last action) for
// each sample board, as the hub does once per kind of viewer.
func BenchmarkFragments(b *testing.B) {
	ctx := WithActURL(context.Background(), "/act")
	for _, s := range boardtest.All() {
		events := lastAction(s)
		b.Run(s.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Fragments(ctx, s.View, events, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
