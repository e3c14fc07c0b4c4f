package rego

import "embed"

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
