package facts

import (
	"path"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/bashfacts/argmodel"
)

// Roles (docs/strict.md, "Argument models"): a path token whose program's
// argument model says what the program does with it is decided on that
// role's surface too, as the file tools are: read on "read", a write on
// "write", an in-place edit or an append on "write" and "edit" (through
// appendWriteChecks, as a redirect), a folder read recursively on "read".
// A listed or examined path (ls, stat) stays on the path surface alone.
// These checks are StrictOnly: without strict mode the spec's reading
// stands.

// appendRoleChecks adds the strict-only checks of token t's role after its
// path check c; base is the command's base directory.
func (e *Env) appendRoleChecks(out []Check, c Check, t bashfacts.Token, base string) []Check {
	switch t.Role {
	case argmodel.Read:
		return append(out, roleCheck(c, "read"))
	case TreeRole, TreeVisibleRole, TreeTrackedRole, argmodel.TreeContext:
		// The folder on the read surface, and what a walk of it finds
		// (tree.go).
		out = append(out, roleCheck(c, "read"))
		dir, _ := e.effectiveDir(t.Dir, base)
		return append(out, e.treeChecks(t, dir, t.Role)...)
	case ListTreeRole:
		dir, _ := e.effectiveDir(t.Dir, base)
		return append(out, e.treeChecks(t, dir, t.Role)...)
	case argmodel.TreeWrite:
		// What rm -r, chmod -R or find … -delete deletes or changes below
		// the folder: its entries on the path and write surfaces
		// (tree.go); the folder itself too unless filters select what
		// changes (find … -name P -delete).
		if t.Filters == nil {
			out = e.appendWriteChecks(out, c, bashfacts.WriteCreate)
		}
		dir, _ := e.effectiveDir(t.Dir, base)
		return append(out, e.treeChecks(t, dir, t.Role)...)
	case argmodel.History:
		// What git prints from the repository's index and history
		// (history.go); the folder itself is not read.
		dir, _ := e.effectiveDir(t.Dir, base)
		return append(out, e.historyChecks(t, dir)...)
	case argmodel.WorktreeChanges:
		// The tracked files git diff prints: those the work tree changed
		// (worktree.go).
		dir, _ := e.effectiveDir(t.Dir, base)
		return append(out, e.trackedReadChecks(t, dir, true)...)
	case argmodel.Compose:
		// What the compose project found from the folder reads and mounts
		// (compose.go); the folder itself is not read.
		return append(out, e.composeChecks(t, base)...)
	case argmodel.Patch:
		// The patch on the read surface, and each file it names on the
		// write surface (patch.go).
		return e.appendPatchChecks(out, c, t, base)
	case argmodel.Archive:
		// The archive on the read surface, and each file its entries make
		// on the write surface (archive.go).
		return e.appendArchiveChecks(out, c, t, base)
	case argmodel.Write:
		out = e.appendWriteChecks(out, c, bashfacts.WriteCreate)
		return e.appendIntoChecks(out, t, base)
	case argmodel.Edit:
		return e.appendWriteChecks(out, c, bashfacts.WriteAppend)
	}
	return out
}

// roleCheck is c on the read surface, decided by strict mode alone and by
// the read rules alone (Check.Role): the read surface's own catch-all
// decides it as it decides the read tool's call, the universal fallback
// does not.
func roleCheck(c Check, surface string) Check {
	r := c
	r.Surface, r.StrictOnly, r.Bare, r.Role = surface, true, false, surface
	return r
}

// absentTargetCheck is the path check of a bare name a program writes or
// edits that does not exist yet (tee out.lock, cp README x.lock): the spec
// gates a bare name only when it exists, but a write creates it. It stays
// bare (only a rule that names it decides it on the path surface) and is
// strict-only; its write and edit checks follow from its role.
func (e *Env) absentTargetCheck(t bashfacts.Token, base string) (Check, bool) {
	if !t.Bare || (t.Role != argmodel.Write && t.Role != argmodel.Edit && t.Role != argmodel.TreeWrite) {
		return Check{}, false
	}
	named := t
	named.Bare = false
	c, _, ok := e.tokenCheck(named, base)
	if !ok {
		return Check{}, false
	}
	c.Bare, c.StrictOnly = true, true
	return c, true
}

// roleChecksOf counts the role checks tokens add, so that the checks are
// allocated once.
func roleChecksOf(tokens []bashfacts.Token) int {
	n := 0
	for i := range tokens {
		switch tokens[i].Role {
		case argmodel.Read, argmodel.Tree, argmodel.Write, argmodel.TreeWrite:
			n++
		case argmodel.Edit:
			n += 2
		}
	}
	return n
}

// appendIntoChecks adds, for a write target of cp, mv, install or ln that is a
// folder, the files written inside it (bashfacts.Token.Into): cp x.lock
// build/ writes build/x.lock, which meets write *.lock as cp x.lock
// build/x.lock does. Each is a strict-only path check with its write
// checks.
func (e *Env) appendIntoChecks(out []Check, t bashfacts.Token, base string) []Check {
	if len(t.Into) == 0 {
		return out
	}
	dir, known := e.effectiveDir(t.Dir, base)
	if !known || !e.PathForms(t.Value, dir).Dir {
		return out
	}
	for _, name := range t.Into {
		inside := t
		inside.Value, inside.Into, inside.Bare, inside.Pattern = path.Join(t.Value, name), nil, false, false
		c, _, ok := e.tokenCheck(inside, base)
		if !ok {
			continue
		}
		c.StrictOnly = true
		out = append(out, c)
		out = e.appendWriteChecks(out, c, bashfacts.WriteCreate)
	}
	return out
}
