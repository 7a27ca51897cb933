//go:build !linux

package realtime

import "testing"

func raiseOpenFiles(*testing.T, int) {}
