package rego

import (
	"embed"
	"io/fs"
	"path"
)

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
// modules, with each lib/X.rego that has a fast/X.rego twin replaced by it.
// The twin delegates to the Go builtin the runtime registers
// (regate_decide).
func FastModules() (map[string]string, error) {
	mods, err := load(false)
	if err != nil {
		return nil, err
	}
	twins, err := fs.Glob(FS, "fast/*.rego")
	if err != nil {
		return nil, err
	}
	for _, p := range twins {
		b, err := FS.ReadFile(p)
		if err != nil {
			return nil, err
		}
		mods["regate/lib/"+path.Base(p)] = string(b)
	}
	return mods, nil
}
