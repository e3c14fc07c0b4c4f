//go:build race

package conformance_test

// raceEnabled: the metamorphic test skips under the race detector, where
// it finds nothing (no goroutines) and runs many times slower.
const raceEnabled = true
