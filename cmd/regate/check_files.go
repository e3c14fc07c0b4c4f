package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/compiler/profile"
)

// checkDelegation checks one delegation policy file: its decoding errors,
// its invalid rates and windows (which refuse every call at the ceiling),
// and every key it does not read, with the key it most likely misspells.
// The decoder keeps an unknown field without a word (a field nobody
// compares fails every subset proof), so check names them.
func checkDelegation(path string) (compiler.Errors, error) {
	src, err := readSource(path)
	if err != nil {
		return nil, err
	}
	var out compiler.Errors
	p, err := delegation.Decode(src.Name, src.Data)
	var errs compiler.Errors
	switch {
	case errors.As(err, &errs):
		out = append(out, errs...)
	case err != nil:
		return nil, withCode(exitBadRules, err)
	}
	if p != nil {
		for _, pr := range p.ValueProblems() {
			out = append(out, &compiler.Error{Pos: pr.Pos, Code: compiler.CodeOutOfRange, Severity: compiler.SeverityError,
				Msg: pr.Msg + "; the ceiling refuses every call under this policy"})
		}
	}
	return unknownKeys(src, "is kept, and no child policy can be proven within this one", out)
}

// unknownKeys adds to found the keys of src's objects that the decoder
// does not read (delegation.Keys: the top level and amplification_budget),
// each positioned at the key with its "did you mean". A key the decoder
// already reported (at the same place) gets the suggestion added to that
// report instead of a second one. It walks the document rather than
// validating it against compiler/schema's published schema: the schema
// library compiles its meta-schemas when the process starts, which would
// cost every hook call about 8 ms.
func unknownKeys(src *compiler.Source, effect string, found compiler.Errors) (compiler.Errors, error) {
	doc, errs := compiler.ParseDocument(src.Name, src.Data)
	if errs != nil {
		return found, nil // the decoder reported the syntax
	}
	var walk func(v *hujson.Value, path []string)
	walk = func(v *hujson.Value, path []string) {
		obj, ok := v.Value.(*hujson.Object)
		known := delegation.Keys(path...)
		if !ok || known == nil {
			return
		}
		for i := range obj.Members {
			m := &obj.Members[i]
			key := m.Name.Value.(hujson.Literal).String()
			if slices.Contains(known, key) {
				walk(&m.Value, append(path, key))
				continue
			}
			pos := doc.Pos(m.Name.StartOffset)
			if i := slices.IndexFunc(found, func(e *compiler.Error) bool { return e.Pos == pos && e.Code == compiler.CodeUnknownKey }); i >= 0 {
				if s := compiler.DidYouMean(key, known); s != "" {
					found[i].Msg += fmt.Sprintf("; did you mean %q?", s)
				}
				continue
			}
			found = append(found, &compiler.Error{Pos: pos, Code: compiler.CodeUnknownKey, Severity: compiler.SeverityWarning,
				Msg: compiler.UnknownKeyMessage(key, known, strings.Join(path, "."), effect)})
		}
	}
	walk(&doc.Root, nil)
	return found, nil
}

// checkProfileConfig checks one profile config.json with the profile
// decoder, which reports unknown keys itself. A file under a .pi folder
// is a project's (<project>/.pi/system-prompts/config.json), any other a
// global one: the scope decides what a bare profile id refers to and
// whether inheritGlobalBindings means anything.
func checkProfileConfig(path string) (compiler.Errors, error) {
	src, err := readSource(path)
	if err != nil {
		return nil, err
	}
	in := profile.Input{ProjectTrusted: true}
	if slices.Contains(strings.Split(filepath.ToSlash(filepath.Clean(path)), "/"), ".pi") {
		in.Project = src
	} else {
		in.Global = src
	}
	out, err := profile.Compile(in)
	if err != nil {
		return nil, withCode(exitFault, err)
	}
	return out.Diagnostics, nil
}
