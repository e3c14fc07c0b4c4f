//go:build race

package hostile

// raceEnabled: the suite skips under the race detector. It runs the regate
// binary as a separate process, which the detector does not see into, so a
// second run would only cost CI time.
const raceEnabled = true
