//go:build !race

package delegate

const raceEnabled = false
