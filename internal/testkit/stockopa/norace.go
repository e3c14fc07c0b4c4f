//go:build !race

package stockopa

const raceEnabled = false
