package facts

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/moby/patternmatcher"
	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/bashfacts/argmodel"
)

// Recursive reads (docs/strict.md). grep -r, rg, cp -r, tar -c and zip -r
// read every file below the folder they are given, so a rule on .env or
// ~/.ssh/* is passed by naming the folder that holds it: grep -r KEY .
// prints .env. Under strict mode such a folder operand (bashfacts.Token.Role
// "tree", from the programs' argument models) is walked through the file
// system, and what the walk finds is one strict-only check on the path
// surface whose forms are the paths found, one spelling group each (the
// folder's spellings joined with the path below it), with Within set to the
// folder. The Rego library (regate.lib.checks) caps that check's deny at
// ask: the person named the folder, not the file, and decides; a hard
// guard still denies, and yolo does not approve the capped ask. The
// folder keeps its own path check.
//
// A program that skips hidden names and ignored paths by default (ripgrep
// without --hidden, -u, --no-ignore: Role "tree-visible") is walked the same
// way without the hidden names below the folder and, inside a git
// repository, without what the .gitignore files in the tree ignore
// (gitignore.go; what regate does not understand counts as read, and a
// .ignore or .rgignore file, which may re-include, turns that off).
//
// The walk is bounded as a search filter's is (filter.go): past
// maxTreeEntries entries it stops, and a strict check on the folder asks
// ("the folder holds more than N entries"). A link inside the tree is not
// followed (grep -r, ripgrep, cp -r, tar and zip do not by default); it is
// gated with its target, and a link to a folder also as "target/".

// Roles of a folder operand a program reads recursively.
const (
	TreeRole        = "tree"         // every entry below the folder
	TreeVisibleRole = "tree-visible" // hidden names and gitignored paths skipped
	ListTreeRole    = "list-tree"    // folders opened, files only named (ls -R)
	TreeTrackedRole = "tree-tracked" // gitignored paths skipped, hidden names read (git grep, rg --hidden)
	// searchRole is a host search tool's read (call.go): tree-tracked
	// without the version-control folders, which Claude Code's Grep
	// excludes and git grep never reads.
	searchRole = "search"
)

// maxTreeEntries bounds one recursive read's walk. Each entry is one
// spelling group of one check, and deciding a group costs about 17µs (one
// lookup of its candidate keys; BenchmarkTreeReadDecision, the default
// policy): 5000 entries are about 90 ms. A search filter's walk
// (filter.go) visits more (maxFilterEntries) because only its matches
// become checks, and so does a walk with a path hint (maxHintedEntries):
// only the paths a non-allow rule may match become groups, and listing an
// entry costs about a microsecond; the call's work budget (100,000 file
// system probes) stays the last bound.
const (
	maxTreeEntries   = 5000
	maxHintedEntries = 60000
)

// PathHint names what every path a non-allow path rule matches holds
// (compiler.PathHint, which the runtime copies): a walk keeps a path only
// when one of its spellings holds one of the fragments (compared without
// case), since any other path meets no rule but an allow, or none, and
// cannot change the decision.
type PathHint struct {
	Fragments []string // lower-cased
	// exact are the paths that rules without wildcards spell (lower-cased,
	// without a trailing slash): kept only when a spelling is one.
	exact map[string]bool
	All   bool // every path may matter: keep them all
}

// NewPathHint is the hint of the fragments and exact paths a compiled
// policy derives (compiler.PathHint).
func NewPathHint(fragments, exact []string, all bool) *PathHint {
	h := &PathHint{Fragments: fragments, All: all, exact: make(map[string]bool, len(exact))}
	for _, e := range exact {
		h.exact[e] = true
	}
	return h
}

// keeps reports whether a walk keeps the paths of groups.
func (h *PathHint) keeps(groups [][]string) bool {
	if h == nil || h.All {
		return true
	}
	for _, g := range groups {
		for _, s := range g {
			ls := strings.ToLower(s)
			for _, f := range h.Fragments {
				if strings.Contains(ls, f) {
					return true
				}
			}
			if h.exact[strings.TrimSuffix(ls, "/")] {
				return true
			}
		}
	}
	return false
}

// limit is how many entries a walk with this hint may visit.
func (h *PathHint) limit() int {
	if h == nil || h.All {
		return maxTreeEntries
	}
	return maxHintedEntries
}

// treeChecks are the strict-only checks of a folder operand t that a
// program reads recursively (role TreeRole or TreeVisibleRole; any other
// role reads as TreeRole). dir is the token's effective directory, "" when
// it is unknown (after a cd to an unknown place): the read then asks. A
// token that names no folder (a file, or nothing) adds nothing: its own
// path check is all it reads.
func (e *Env) treeChecks(t bashfacts.Token, dir, role string) []Check {
	at := t.Pos.String()
	if dir == "" {
		return []Check{treeFloor(t.Value, [][]string{{path.Clean(t.Value)}}, at,
			"a cd to an unknown place came before it")}
	}
	f := e.PathForms(t.Value, dir)
	if f.Err == errBudget.Error() {
		// The folder's own check was resolved before the budget ran
		// out: what it holds cannot be walked, so the read asks.
		return []Check{treeFloor(t.Value, [][]string{{path.Clean(t.Value)}}, at, f.Err)}
	}
	if f.Err != "" || !f.Dir {
		return nil
	}
	folder := f.groups()
	w := treeWalk{env: e, folder: folder, visibleOnly: role == TreeVisibleRole, foldersOnly: role == ListTreeRole,
		trackedOnly: role == TreeTrackedRole || role == searchRole, skipVCS: role == searchRole,
		filter: compileFilters(t.Filters), hint: e.PathHint, changes: role == argmodel.TreeWrite}
	if w.changes {
		w.hint = e.WriteHint
	}
	// The program reads the folder the kernel opens (/dev/fd/../cwd is
	// the working directory, keys/.. the parent of the link's target).
	root := f.Canonical[0]
	if len(f.Kernel) > 0 {
		root = f.Kernel[0]
	}
	if role == argmodel.TreeContext {
		w.excludes = e.dockerignore(root)
	}
	err := w.walk(root, dir)
	var out []Check
	switch {
	case len(w.groups) > 0 && w.changes:
		// Changed or deleted: every entry on the path surface, and the
		// files (links included) on the write surface too, where the walk
		// kept what the write rules may match as well. A folder below is
		// left to what it holds, which the walk reaches: the rules that
		// guard a folder for what it may hold (the self floor's */.github,
		// which holds a host's hooks in any project) would otherwise ask
		// for every dependency that ships one (rm -rf node_modules).
		out = append(out, Check{Surface: "path", Value: t.Value, Forms: w.groups, Error: w.linkErr, At: at,
			StrictOnly: true, Within: t.Value, Changes: true})
		if len(w.files) > 0 {
			out = append(out, Check{Surface: "write", Value: t.Value, Forms: w.files, Error: w.linkErr, At: at,
				StrictOnly: true, Within: t.Value, Changes: true})
		}
	case len(w.groups) > 0:
		out = append(out, Check{Surface: "path", Value: t.Value, Forms: w.groups, Error: w.linkErr, At: at,
			StrictOnly: true, Within: t.Value})
	case w.linkErr != "":
		out = append(out, treeFloor(t.Value, folder, at, w.linkErr))
	}
	if err != nil {
		out = append(out, treeFloor(t.Value, folder, at, err.Error()))
	}
	return out
}

// treeFloor is the strict check of a recursive read strict mode cannot
// follow: it asks unless a rule denies the folder itself.
func treeFloor(value string, forms [][]string, at, why string) Check {
	return Check{Surface: "path", Value: value, Forms: forms, At: at, StrictOnly: true,
		Strict: "strict mode cannot check what a recursive read of " + value + " reads: " + why}
}

// treeWalk is one walk of a folder: what it found so far.
type treeWalk struct {
	env         *Env
	folder      [][]string // the folder's spelling groups
	visibleOnly bool
	// foldersOnly: the program opens the folders below and only names the
	// files (ls -R), so only the folders are gated, as "dir/" too.
	foldersOnly bool
	filter      nameFilter // grep's --include, --exclude, --exclude-dir
	// trackedOnly: the program reads what git tracks (git grep), so what
	// the .gitignore files ignore is skipped; an untracked file that is
	// not ignored still counts as read.
	trackedOnly bool
	// skipVCS: the version-control folders (vcsDirs) are not read.
	skipVCS bool
	// hint says which entries can matter (Env.PathHint, or Env.WriteHint
	// when the entries are changed or deleted); nil keeps every entry,
	// within maxTreeEntries.
	hint *PathHint
	// excludes: what a build context's .dockerignore leaves out (nil:
	// nothing).
	excludes *patternmatcher.PatternMatcher
	groups   [][]string // one group (two, through a link) per path found
	// changes: the program deletes or changes what the walk finds, so the
	// groups of the entries that are not folders are kept apart too
	// (files): they meet the write rules.
	changes bool
	files   [][]string
	linkErr string // the first link inside that could not be resolved
}

// limit is how many entries the walk may visit.
func (w *treeWalk) limit() int { return w.hint.limit() }

// treeDir is a folder still to list: its path below the walk's root and
// the .gitignore files that apply in it.
type treeDir struct {
	rel     string
	ignores []ignoreFile
}

// walk lists the folder whose canonical path is root, breadth first, and
// records every entry's spellings. dir is the base of relative spellings.
func (w *treeWalk) walk(root, dir string) error {
	list, ok := w.env.dirLister()
	if !ok {
		return errors.New("the file system cannot list directories")
	}
	honourIgnores := (w.visibleOnly || w.trackedOnly) && w.env.honoursGitignore(root)
	entries := 0
	queue := []treeDir{{}}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		ents, err := list(path.Join(root, d.rel))
		if isBudget(err) {
			return err
		}
		if err != nil {
			continue // unreadable or gone: the program reads nothing there either
		}
		ignores := d.ignores
		if honourIgnores {
			ignores = w.env.withGitignore(ignores, root, d.rel, ents)
		}
		for _, ent := range ents {
			if w.visibleOnly && strings.HasPrefix(ent.name, ".") {
				continue
			}
			if w.skipVCS && ent.dir && vcsDirs[ent.name] {
				continue
			}
			rel := path.Join(d.rel, ent.name)
			if ignored(ignores, rel, ent.dir) || !w.filter.reads(ent.name, ent.dir) {
				continue
			}
			if excluded, enter := w.excluded(rel, ent.dir); excluded {
				if enter {
					queue = append(queue, treeDir{rel: rel, ignores: ignores})
				}
				continue
			}
			if entries++; entries > w.limit() {
				return fmt.Errorf("the folder holds more than %d entries", w.limit())
			}
			if !w.foldersOnly || ent.dir {
				first := len(w.groups)
				w.add(rel, dir, ent.link)
				if w.changes && !ent.dir {
					w.files = append(w.files, w.groups[first:]...)
				}
			}
			if ent.dir {
				queue = append(queue, treeDir{rel: rel, ignores: ignores})
			}
		}
	}
	return nil
}

// add records the entry at rel: the folder's spelling groups joined with
// it; a link also with its target (and "target/" for a folder).
func (w *treeWalk) add(rel, dir string, link bool) {
	first := len(w.groups)
	for _, g := range w.folder {
		joined := make([]string, len(g))
		for i, s := range g {
			joined[i] = path.Join(s, rel)
		}
		w.groups = append(w.groups, joined)
	}
	if w.foldersOnly {
		for _, g := range w.groups[first:] {
			slashed := make([]string, len(g))
			for i, s := range g {
				slashed[i] = s + "/"
			}
			w.groups = append(w.groups, slashed)
		}
	}
	if link {
		f := w.env.PathForms(w.groups[first][0], dir)
		if f.Err != "" {
			if w.linkErr == "" {
				w.linkErr = f.Err
			}
		} else {
			w.groups = append(w.groups, f.Canonical)
			if d, ok := dirVariant(Check{Forms: [][]string{f.Canonical}}, f); ok {
				w.groups = append(w.groups, d.Forms...)
			}
		}
	}
	if !w.hint.keeps(w.groups[first:]) {
		w.groups = w.groups[:first] // no rule but an allow can meet it
	}
}

// ignored reports whether one of the .gitignore files ignores rel.
func ignored(files []ignoreFile, rel string, isDir bool) bool {
	for _, f := range files {
		if f.ignores(rel, isDir) {
			return true
		}
	}
	return false
}

// withGitignore adds the .gitignore of the folder rel (whose entries are
// ents) to the files that apply in it; one that negates turns them all off,
// and so does a .ignore or .rgignore, which ripgrep reads with precedence
// over .gitignore files and regate does not (a "!" line there re-includes
// what a .gitignore ignores).
func (e *Env) withGitignore(files []ignoreFile, root, rel string, ents []dirent) []ignoreFile {
	has := false
	for _, ent := range ents {
		if rgIgnoreFiles[ent.name] {
			return nil
		}
		has = has || ent.name == ".gitignore"
	}
	if !has {
		return files
	}
	reader, ok := e.fs().(FileReader)
	if !ok {
		return files
	}
	text, err := reader.ReadFile(path.Join(root, rel, ".gitignore"))
	if err != nil {
		return files
	}
	rules, negates := parseGitignore(string(text))
	if negates {
		return nil
	}
	if len(rules) == 0 {
		return files
	}
	out := make([]ignoreFile, len(files), len(files)+1)
	copy(out, files)
	return append(out, ignoreFile{base: rel, rules: rules})
}

// vcsDirs are the version-control folders Claude Code's Grep excludes
// (--glob !.git and the others, Claude Code 2.1.332).
var vcsDirs = map[string]bool{".git": true, ".svn": true, ".hg": true, ".bzr": true, ".jj": true, ".sl": true}

// rgIgnoreFiles are the ignore files ripgrep reads beside .gitignore, in
// every folder and those above the one searched, before .gitignore files.
var rgIgnoreFiles = map[string]bool{".ignore": true, ".rgignore": true}

// honoursGitignore reports whether a visible-only walk of the folder p may
// skip what .gitignore files ignore: p or a folder above it holds a .git
// (ripgrep honours .gitignore files only inside a git repository), and none
// of them holds a .ignore or .rgignore (whose "!" lines, which apply below
// them, would re-include what a .gitignore ignores).
func (e *Env) honoursGitignore(p string) bool {
	repo := false
	for {
		for name := range rgIgnoreFiles {
			if _, err := e.lstat(path.Join(p, name)); err == nil {
				return false
			}
		}
		if _, err := e.lstat(path.Join(p, ".git")); err == nil {
			repo = true
		}
		if p == "/" || p == "." || p == "" {
			return repo
		}
		p = path.Dir(p)
	}
}
