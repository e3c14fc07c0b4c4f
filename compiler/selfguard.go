package compiler

import (
	"path"
	"slices"
	"strings"
)

// Guarded is one of regate's own places that the self floor guards
// (docs/self-protection.md): the rule files a decision was compiled from,
// the state folder and logs, the host settings that register the hook. A
// write or an edit of it (a move, delete, link or permission change is one
// of these to the facts) asks, whatever the policy, a session approval or
// yolo say; only a deny stays a deny. The caller lists them, since only it
// knows where its files are (cmd/regate: SelfGuards).
type Guarded struct {
	// Path is an absolute path, a ~/ path, or a pattern that names a place in
	// any folder (*/.claude/settings.json).
	Path string
	// What the place is, as the message names it: "the policy file regate
	// decides with".
	What string
	// Folder guards everything inside Path too.
	Folder bool
	// Secret guards every use of Path on the path surface too, reads
	// included: a key that signs regate's records.
	Secret bool
}

// selfLayer is the self floor's rule set: the guarded places on the write
// and edit surfaces, each an ask whose reason names the place, with the
// folders that hold a guarded path (exact: moving or deleting one moves or
// deletes what it holds, while a write into it writes another file), and
// the secrets, whose every use on the path surface asks. No file positions
// them.
func selfLayer(guarded []Guarded, home string, spec *decisionSpec) layer {
	if len(guarded) == 0 {
		return layer{name: "self", data: map[string]any{}}
	}
	var rules []Rule
	seen := map[string]bool{}
	add := func(pattern, reason string) {
		if pattern == "" || seen[pattern] {
			return
		}
		seen[pattern] = true
		rules = append(rules, Rule{Pattern: pattern, Action: Ask, Reason: reason})
	}
	for _, g := range guarded {
		p := ExpandHome(g.Path, home)
		if path.IsAbs(p) {
			p = path.Clean(p)
		}
		add(p, g.What+selfReasonEnd)
		if g.Folder {
			add(strings.TrimSuffix(p, "/")+"/*", "inside "+g.What+selfReasonEnd)
		}
	}
	// Holders after the places, so that a holder that is itself guarded
	// keeps its own reason.
	for _, g := range guarded {
		p := ExpandHome(g.Path, home)
		rest, anywhere := strings.CutPrefix(p, "*/")
		switch {
		case anywhere && !strings.ContainsAny(rest, "*?"):
			// A place in any project: its folders there (*/.claude).
			for dir := path.Dir(rest); dir != "."; dir = path.Dir(dir) {
				add("*/"+dir, "a folder that holds "+g.What+selfReasonEnd)
			}
		case path.IsAbs(p) && !strings.ContainsAny(p, "*?"):
			for dir := path.Dir(path.Clean(p)); dir != "/"; dir = path.Dir(dir) {
				add(dir, "a folder that holds "+g.What+selfReasonEnd)
			}
		}
	}
	perm := Permission{Surfaces: []*Surface{{Name: "write", Rules: rules}, {Name: "edit", Rules: slices.Clone(rules)}}}
	spec.self = true
	_, surfaces := permissionData(&perm, home)
	spec.selfConfirms, spec.selfMany = confirmsUsed(surfaces)
	data := map[string]any{"surfaces": surfaces}
	// A secret is one exact path: a set lookup per spelling of every path
	// check, which costs far less than a matcher's lookup.
	secrets := map[string]any{}
	for _, g := range guarded {
		if p := ExpandHome(g.Path, home); g.Secret && path.IsAbs(p) {
			p = path.Clean(p)
			secrets[p] = lookupValue(Rule{Pattern: p, Action: Ask, Reason: g.What + selfReasonEnd}, 0, false)
		}
	}
	if len(secrets) > 0 {
		data["secrets"] = secrets
		spec.selfSecrets = true
	}
	return layer{name: "self", data: data}
}

// selfReasonEnd ends every self-floor reason: why the floor asks.
const selfReasonEnd = "; regate guards the files that decide an agent's permissions, whatever the rules, approvals or yolo say"
