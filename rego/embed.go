package rego

import "embed"

// FS holds the static Rego library: every .rego file under lib/, tests
// included. The compiler links generated modules against it and the runtime
// loads it next to them.
//
//go:embed lib/*.rego fast/*.rego
var FS embed.FS

// Modules returns the library's modules (tests excluded) keyed by path.
func Modules() (map[string]string, error) {
	return load(false)
}

// TestModules returns the library's test modules keyed by path.
func TestModules() (map[string]string, error) {
	return load(true)
}

// FastModules returns the library for regate's embedded runtime: the same
// modules, with lib/match.rego replaced by fast/match.rego, whose best is
// the Go builtin regate_match_best that the runtime registers.
func FastModules() (map[string]string, error) {
	mods, err := load(false)
	if err != nil {
		return nil, err
	}
	b, err := FS.ReadFile("fast/match.rego")
	if err != nil {
		return nil, err
	}
	delete(mods, "regate/lib/match.rego")
	mods["regate/lib/match.rego"] = string(b)
	return mods, nil
}
