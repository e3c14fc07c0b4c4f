package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/delegation"
	"github.com/regate/regate/compiler/profile"
	"github.com/regate/regate/compiler/schema"
)

// checkDelegation checks one delegation policy file: its decoding errors,
// its invalid rates and windows (which refuse every call at the ceiling),
// and every key its schema does not name, with the key it most likely
// misspells. The decoder keeps an unknown field without a word (a field
// nobody compares fails every subset proof), so the schema finds them.
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
	return unknownKeys(src, schema.Delegation, "is kept, and no child policy can be proven within this one", out)
}

// unknownKeys adds to found the keys of src that the kind's schema does
// not allow, each positioned at the key with its "did you mean". A key the
// decoder already reported (at the same place) gets the suggestion added
// to that report instead of a second one.
func unknownKeys(src *compiler.Source, k schema.Kind, effect string, found compiler.Errors) (compiler.Errors, error) {
	doc, errs := compiler.ParseDocument(src.Name, src.Data)
	if errs != nil {
		return found, nil // the decoder reported the syntax
	}
	std := doc.Root.Clone()
	std.Standardize()
	vs, err := schema.ValidateJSON(k, std.Pack())
	if err != nil {
		return nil, withCode(exitFault, err)
	}
	for _, v := range vs {
		if v.Key == "" {
			continue // the decoder reports wrong values in its own words
		}
		at, ok := keyOffset(&doc.Root, v.Path, v.Key)
		if !ok {
			continue
		}
		pos := doc.Pos(at)
		known, _ := schema.Keys(k, v.Path...)
		where := ""
		if len(v.Path) > 0 {
			where = strings.Join(v.Path, ".")
		}
		if i := slices.IndexFunc(found, func(e *compiler.Error) bool { return e.Pos == pos && e.Code == compiler.CodeUnknownKey }); i >= 0 {
			if s := compiler.DidYouMean(v.Key, known); s != "" {
				found[i].Msg += fmt.Sprintf("; did you mean %q?", s)
			}
			continue
		}
		found = append(found, &compiler.Error{Pos: pos, Code: compiler.CodeUnknownKey, Severity: compiler.SeverityWarning,
			Msg: compiler.UnknownKeyMessage(v.Key, known, where, effect)})
	}
	return found, nil
}

// keyOffset finds the byte offset of key in the object at path below v
// (object keys, or array indexes in decimal).
func keyOffset(v *hujson.Value, path []string, key string) (int, bool) {
	for _, step := range path {
		switch t := v.Value.(type) {
		case *hujson.Object:
			m := member(t, step)
			if m == nil {
				return 0, false
			}
			v = &m.Value
		case *hujson.Array:
			i, err := strconv.Atoi(step)
			if err != nil || i < 0 || i >= len(t.Elements) {
				return 0, false
			}
			v = &t.Elements[i]
		default:
			return 0, false
		}
	}
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return 0, false
	}
	if m := member(obj, key); m != nil {
		return m.Name.StartOffset, true
	}
	return 0, false
}

// member is the last member of obj named key (the later of two wins).
func member(obj *hujson.Object, key string) *hujson.ObjectMember {
	for i := len(obj.Members) - 1; i >= 0; i-- {
		if obj.Members[i].Name.Value.(hujson.Literal).String() == key {
			return &obj.Members[i]
		}
	}
	return nil
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
