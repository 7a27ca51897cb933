// Package layers holds one test: the module's import graph runs one way,
// from the commands down to the foundations (layers_test.go lists the
// layers). It has no code of its own.
package layers
