package runtime

import (
	"hash/maphash"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
)

// terms are the input document's keys and its common values, built once
// (and never changed) so that building a document allocates no key.
var terms = func() map[string]*ast.Term {
	m := map[string]*ast.Term{}
	for _, k := range []string{
		"tool", "unregistered", "checks", "session", "approvals", "agent", "floor", "ask",
		"surface", "value", "forms", "keys", "origin", "at", "error", "wrapper", "unparseable",
		"reason", "strict", "malformed", "within", "role", "bare", "strict_only", "spec_only",
		"opaque", "indirection", "read", "keyspec", "", "plain", "any_keys", "changes",
		// the decision object's members (decisionFrom)
		"action", "matched", "layer", "pos", "message", "yolo",
		// the surfaces of the built-in tools
		"bash", "path", "write", "edit", "mcp", "skill", "task", "find", "grep", "ls", "glob", "list",
	} {
		m[k] = ast.StringTerm(k)
	}
	return m
}()

// term is the prebuilt term of s, or a new one.
func term(s string) *ast.Term {
	if t, ok := terms[s]; ok {
		return t
	}
	return ast.StringTerm(s)
}

// getString is the string member key of o, "" when absent or not a string.
func getString(o ast.Object, key string) string {
	s, _ := get(o, key).(ast.String)
	return string(s)
}

// getBool is the boolean member key of o, false when absent or not one.
func getBool(o ast.Object, key string) bool {
	b, _ := get(o, key).(ast.Boolean)
	return bool(b)
}

func get(o ast.Object, key string) ast.Value {
	if t := o.Get(term(key)); t != nil {
		return t.Value
	}
	return nil
}

// recentStrings remembers the string terms of recent input documents, so
// that the values calls repeat (a program's candidate keys, its words, the
// project's paths) are boxed once rather than in every document: a slot
// per hash of the string, the last one stored winning. Terms are never
// changed once built, so documents and goroutines share them.
var recentStrings struct {
	seed  maphash.Seed
	slots [1 << 12]atomic.Pointer[ast.Term]
}

func init() { recentStrings.seed = maphash.MakeSeed() }

// maxRecentString is the longest string remembered: longer ones (whole
// commands) rarely repeat.
const maxRecentString = 64

// recentString is the term of s from recentStrings, stored there when absent.
func recentString(s string) *ast.Term {
	slot := &recentStrings.slots[maphash.String(recentStrings.seed, s)&(1<<12-1)]
	if t := slot.Load(); t != nil && string(t.Value.(ast.String)) == s {
		return t
	}
	t := ast.StringTerm(s)
	slot.Store(t)
	return t
}
