//go:build race

package stockopa

// raceEnabled skips the stock-OPA tests under the race detector: they
// exercise an external process, where it finds nothing, and run several
// times slower.
const raceEnabled = true
