//go:build !race

package attack_test

const raceEnabled = false
