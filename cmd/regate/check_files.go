package main

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/compiler/profile"
)

// checkDelegation checks one delegation policy file: its decoding errors,
// its invalid rates and windows (which refuse every call at the ceiling),
// and every key it does not read, with the key it most likely misspells
// (delegation.Check).
func checkDelegation(path string) (compiler.Errors, error) {
	src, err := readSource(path)
	if err != nil {
		return nil, err
	}
	p, out := delegation.Check(src.Name, src.Data)
	if p != nil {
		for _, pr := range p.ValueProblems() {
			out = append(out, &compiler.Error{Pos: pr.Pos, Code: compiler.CodeOutOfRange, Severity: compiler.SeverityError,
				Msg: pr.Msg + "; the ceiling refuses every call under this policy"})
		}
	}
	return out, nil
}

// checkProfileConfig checks one profile config.json with the profile
// decoder, which reports unknown keys itself, and the profiles/ folder
// beside it: a reference to a profile of its own scope that is missing is
// an error, to an empty one a warning. A file under a .pi folder
// is a project's (<project>/.pi/system-prompts/config.json), any other a
// global one: the scope decides what a bare profile id refers to and
// whether inheritGlobalBindings means anything.
func checkProfileConfig(path string) (compiler.Errors, error) {
	src, err := readSource(path)
	if err != nil {
		return nil, err
	}
	scope := profile.Global
	if slices.Contains(strings.Split(filepath.ToSlash(filepath.Clean(path)), "/"), ".pi") {
		scope = profile.Project
	}
	// The profiles beside it, so that a reference to one that is missing
	// or empty is reported where it is written.
	folder := profile.ReadFolder(filepath.Dir(path))
	folder.Config = src
	in := profile.Input{ProjectTrusted: true}
	in.AddFolder(scope, folder)
	out, err := profile.Compile(in)
	if err != nil {
		return nil, withCode(exitFault, err)
	}
	return out.Diagnostics, nil
}
