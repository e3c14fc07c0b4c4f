//go:build race

package delegate

// raceEnabled: the delegation soundness fuzzer runs few pairs under the
// race detector, where it decides nothing concurrently in its short run
// and runs many times slower.
const raceEnabled = true
