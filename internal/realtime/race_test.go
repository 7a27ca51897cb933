//go:build race

package realtime

// raceDetector: the tests run under the race detector (go test -race).
const raceDetector = true
