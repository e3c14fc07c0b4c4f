//go:build race

package attack_test

// raceEnabled: the attack family skips under the race detector, where it
// finds nothing (it runs one command at a time) and runs many times slower;
// the run without it covers the family.
const raceEnabled = true
