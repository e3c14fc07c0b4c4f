package facts

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/gobwas/glob"
)

// Search filters. A search tool's file filter (Claude Grep's glob, Gemini
// grep_search's include_pattern, Pi grep's glob, OpenCode grep's include;
// the host codecs pass it as input "glob", a string or an array of strings)
// names the files the search reads: Grep {pattern: "KEY", glob: ".env"}
// prints .env. So each filter is gated as a path read (docs/decisions.md):
//
//   - literally: the filter joined with the search path, and the bare
//     filter, each as a path with all its forms, so a rule on *.env, .env
//     or ~/.ssh/* meets it as written;
//   - when it holds a wildcard (* ? [ { or an escape): expanded against the
//     file system below the search path as a search tool reads it (a filter
//     without "/" matches a file's name at any depth), each match gated as a
//     path, so .en?, [.]env, {.env,x}, **/.env* or * meet the .env they
//     reach. A filter that cannot be compiled, or a tree too large to walk,
//     asks (the check's Error).

// Bounds of one filter's walk: past them the filter asks instead.
const (
	maxFilterEntries = 20000
	maxFilterMatches = 4096
)

// skipDirs are folders below the search root a filter's walk does not
// descend: git's object store and installed packages, which search tools
// skip and which would otherwise make every filter in a JavaScript project
// ask. A search rooted inside one is walked.
var skipDirs = map[string]bool{".git": true, "node_modules": true}

// filterChecks gates the search filters of a search tool whose search path
// is base (already gated by the caller).
func (e *Env) filterChecks(tool string, args map[string]any, base, cwd string) []Check {
	a := readArgument(args, "glob")
	var filters []string
	var out []Check
	switch {
	case !a.present:
		return nil
	case a.isString:
		filters = []string{a.value}
	case a.shape == "an array" && !a.mixed:
		filters = a.strings
	default:
		out = append(out, malformedCheck(tool, notAString("glob", a)))
		filters = a.strings
	}
	for _, f := range filters {
		for _, g := range splitFilter(f) {
			if len(out) > MaxChecks {
				return out // Build decides the call as one over-budget check
			}
			out = append(out, e.filterPathChecks(tool, g, base, cwd)...)
		}
	}
	return out
}

// splitFilter splits one filter value into the globs a search tool applies,
// as Claude Code's Grep does (2.1.332: split at white space, then at commas
// outside a word holding a brace pair), so "*.go .env" and "*.go,.env" are
// two filters; for a tool that reads the value as one glob this only adds
// checks. A glob starting with "!" excludes files (ripgrep's --glob), it
// names none to read, so it is not gated.
func splitFilter(f string) []string {
	var out []string
	for _, w := range strings.Fields(f) {
		parts := []string{w}
		if !strings.Contains(w, "{") || !strings.Contains(w, "}") {
			parts = strings.Split(w, ",")
		}
		for _, p := range parts {
			if p != "" && !strings.HasPrefix(p, "!") {
				out = append(out, p)
			}
		}
	}
	return out
}

// filterPathChecks gates one filter: literally, then its matches.
func (e *Env) filterPathChecks(tool, filter, base, cwd string) []Check {
	joined := path.Join(base, filter)
	out := e.toolPathChecks(tool, joined, cwd)
	if bare := path.Clean(filter); bare != joined {
		out = append(out, e.toolPathChecks(tool, filter, cwd)...)
	}
	if !strings.ContainsAny(filter, "*?[{\\") {
		return out
	}
	matches, err := e.walkFilter(filter, base, cwd)
	if err != nil {
		f := e.PathForms(joined, cwd)
		return append(out, Check{Surface: "path", Value: joined, Forms: f.groups(),
			Error: "the search filter " + filter + " could not be checked below " + base + ": " + err.Error()})
	}
	// A match is a path read: the path surface decides it. (The filter as
	// written is on the tool's surface too, above.)
	for _, m := range matches {
		out = append(out, e.pathChecks(m, cwd)...)
	}
	return out
}

// walkFilter returns the paths below base (spelled as base joined with the
// path below it) that filter matches.
func (e *Env) walkFilter(filter, base, cwd string) ([]string, error) {
	// A leading **/ also matches at the root, which gobwas's ** followed by
	// a "/" does not: the filter without it is matched as well.
	// ripgrep and minimatch also negate a class with ^, gobwas only with !.
	filter = strings.ReplaceAll(filter, "[^", "[!")
	trimmed := filter
	for strings.HasPrefix(trimmed, "**/") {
		trimmed = trimmed[3:]
	}
	sources := []string{filter}
	if trimmed != filter && trimmed != "" {
		sources = append(sources, trimmed)
	}
	var globs []*glob.Pattern
	for _, f := range sources {
		g, err := glob.Compile(f, '/')
		if err != nil {
			return nil, fmt.Errorf("the filter is not a valid glob: %w", err)
		}
		globs = append(globs, g)
	}
	list, ok := e.dirLister()
	if !ok {
		return nil, fmt.Errorf("the file system cannot list directories")
	}
	root := e.PathForms(base, cwd).Referenced
	start := root[len(root)-1]
	for _, r := range root {
		if path.IsAbs(r) {
			start = r
			break
		}
	}
	anywhere := !strings.Contains(trimmed, "/")
	var out []string
	entries := 0
	queue := []string{""} // folders below start, relative to it
	for len(queue) > 0 {
		rel := queue[0]
		queue = queue[1:]
		ents, err := list(path.Join(start, rel))
		if isBudget(err) {
			return nil, err
		}
		if err != nil {
			continue // not a folder, gone, or unreadable: the search reads nothing there
		}
		for _, ent := range ents {
			if entries++; entries > maxFilterEntries {
				return nil, fmt.Errorf("more than %d entries to look at", maxFilterEntries)
			}
			r := path.Join(rel, ent.name)
			if filterMatches(globs, r, ent.name, anywhere) {
				if out = append(out, path.Join(base, r)); len(out) > maxFilterMatches {
					return nil, fmt.Errorf("it matches more than %d paths", maxFilterMatches)
				}
			}
			// Only real folders are descended: a search tool does not
			// follow a link to a folder, and a link that matches is gated
			// above with its target.
			if ent.dir && !skipDirs[ent.name] {
				queue = append(queue, r)
			}
		}
	}
	return out, nil
}

// filterMatches reports whether a filter matches the path rel below the
// search root, whose last element is name. A filter with no "/" (after a
// leading **/) matches the name at any depth, as ripgrep's and
// gitignore's globs do; one with a "/" matches the whole relative path or,
// to be safe about tools that do not anchor it, any tail of it.
func filterMatches(globs []*glob.Pattern, rel, name string, anywhere bool) bool {
	for _, g := range globs {
		if g.Match(name) || g.Match(rel) {
			return true
		}
		if anywhere {
			continue
		}
		for i := 0; i < len(rel); i++ {
			if rel[i] == '/' && g.Match(rel[i+1:]) {
				return true
			}
		}
	}
	return false
}

// dirent is one entry of a folder: its name, and whether it is a folder
// itself (not a link to one) or a symbolic link.
type dirent struct {
	name string
	dir  bool
	link bool
}

// dirLister returns how to list a folder with its entries' kinds: the host's
// file system reads both at once (a walk of many folders would otherwise
// cost a stat per entry); any other DirReader is asked entry by entry.
func (e *Env) dirLister() (func(string) ([]dirent, error), bool) {
	list, ok := e.plainDirLister()
	if !ok {
		return nil, false
	}
	// Every folder listed and every entry in it spends the call's budget;
	// a spent budget is an error the walks pass on (isBudget).
	return func(name string) ([]dirent, error) {
		if err := e.spent.probe(1); err != nil {
			return nil, err
		}
		ents, err := list(name)
		if berr := e.spent.probe(len(ents)); berr != nil {
			return nil, berr
		}
		return ents, err
	}, true
}

func (e *Env) plainDirLister() (func(string) ([]dirent, error), bool) {
	fsys := e.fs()
	if _, ok := fsys.(OSFS); ok {
		return func(name string) ([]dirent, error) {
			es, err := os.ReadDir(name)
			out := make([]dirent, len(es))
			for i, d := range es {
				out[i] = dirent{name: d.Name(), dir: d.IsDir(), link: d.Type()&fs.ModeSymlink != 0}
			}
			return out, err
		}, true
	}
	lister, ok := fsys.(DirReader)
	if !ok {
		return nil, false
	}
	return func(name string) ([]dirent, error) {
		names, err := lister.ReadDir(name)
		out := make([]dirent, len(names))
		for i, n := range names {
			mode, lerr := fsys.Lstat(path.Join(name, n))
			out[i] = dirent{name: n, dir: lerr == nil && mode.IsDir(), link: lerr == nil && mode&fs.ModeSymlink != 0}
		}
		return out, err
	}, true
}
