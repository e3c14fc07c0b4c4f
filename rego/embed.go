package rego

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// FS holds the static Rego library: every .rego file under lib/, tests
// included. The compiler links generated modules against it and the runtime
// loads it next to them.
//
//go:embed lib/*.rego
var FS embed.FS

// Modules returns the library's modules (tests excluded) keyed by path.
func Modules() (map[string]string, error) {
	return load(false)
}

// TestModules returns the library's test modules keyed by path.
func TestModules() (map[string]string, error) {
	return load(true)
}

// Hash digests the library's modules (tests excluded): a compiled policy's
// hash covers it, since the decision the compiler generates is composed
// with it.
var Hash = sync.OnceValue(func() string {
	mods, err := Modules()
	if err != nil {
		return "unreadable: " + err.Error()
	}
	h := sha256.New()
	for _, p := range slices.Sorted(maps.Keys(mods)) {
		fmt.Fprintf(h, "%d:%s%d:%s", len(p), p, len(mods[p]), mods[p])
	}
	return hex.EncodeToString(h.Sum(nil))
})
