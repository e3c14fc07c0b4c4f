package facts

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"
	"mvdan.cc/sh/v3/pattern"

	"github.com/regate/regate/bashfacts"
)

// History reads (role "history", argmodel.History): git log -p, git show
// and git diff without a pathspec print what the repository's index and
// history hold, whatever the working directory names. Strict mode reads
// them as a read of every path git tracks: the paths of the repository's
// index (.git/index, decoded by go-git), gated as a recursive read's are
// (tree.go): one strict-only check on the path surface whose deny is
// capped at ask, kept to the paths a non-allow rule may match
// (PathHint). A path that history holds and the index no longer does (a
// secret committed, then removed) is not seen: only git itself could list
// it, and regate does not run git to decide.
//
// Anything regate cannot read as git would asks: an index that does not
// decode (a required extension it does not know, such as a split or sparse
// index), a SHA-256 repository, a repository whose index cannot be opened.
// A folder outside any repository adds nothing: git fails there.

// maxIndexBytes bounds the index read: about 100 bytes an entry.
const maxIndexBytes = 64 << 20

// FileOpener is a file system that can open a file to stream it: what a
// history read needs for a repository's index. OSFS and MapFS are both.
type FileOpener interface {
	Open(name string) (io.ReadCloser, error)
}

// Open opens a regular file of the host (openRegular).
func (OSFS) Open(name string) (io.ReadCloser, error) { return openRegular(name) }

// Open opens a file of the map, whose value is "file:CONTENT".
func (m MapFS) Open(name string) (io.ReadCloser, error) {
	b, err := m.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return io.NopCloser(strings.NewReader(string(b))), nil
}

// openRegularFile opens the file at name (what names it in errors) to
// stream it, when it is a regular file: a fifo would block the read and a
// link leads elsewhere. fs.ErrNotExist when there is none.
func (e *Env) openRegularFile(name, what string) (io.ReadCloser, error) {
	opener, ok := e.fs().(FileOpener)
	if !ok {
		return nil, errors.New("the file system cannot open " + what)
	}
	mode, err := e.lstat(name)
	switch {
	case err != nil:
		return nil, err
	case !mode.IsRegular():
		return nil, errors.New(what + " is not a regular file")
	}
	return opener.Open(name)
}

// historyChecks are the strict-only checks of a history read of the
// repository holding dir, the token's effective directory ("" when it is
// unknown: the read asks).
func (e *Env) historyChecks(t bashfacts.Token, dir string) []Check {
	return e.trackedReadChecks(t, dir, false)
}

// trackedReadChecks are historyChecks, kept, when changedOnly is set, to
// the tracked files whose work-tree copy may differ from the index's
// record (worktree.go): what git diff without a revision prints.
func (e *Env) trackedReadChecks(t bashfacts.Token, dir string, changedOnly bool) []Check {
	at := t.Pos.String()
	floor := func(why string) []Check {
		return []Check{{Surface: "path", Value: t.Value, Forms: [][]string{{path.Clean(t.Value)}}, At: at, StrictOnly: true,
			Strict: "strict mode cannot check what git reads from the repository's index and history: " + why}}
	}
	if dir == "" {
		return floor("a cd to an unknown place came before it")
	}
	tr, err := e.trackedPaths(dir, t.Pathspecs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // not in a repository: git fails
	case err != nil:
		return floor(err.Error())
	}
	var changed func(*index.Entry) bool
	if changedOnly {
		changed = e.changedSince(tr.gitDir, tr.root)
	}
	w := treeWalk{env: e, folder: tr.folder}
	for _, en := range tr.entries {
		first := len(w.groups)
		w.add(en.Name, dir, false) // a link's entry holds the link's text, not its target's
		if changed != nil && len(w.groups) > first && !changed(en) {
			w.groups = w.groups[:first] // kept by the hint, and as the index recorded it
		}
	}
	if len(w.groups) == 0 {
		return nil
	}
	return []Check{{Surface: "path", Value: t.Value, Forms: w.groups, At: at, StrictOnly: true, Within: t.Value}}
}

// tracked is what trackedPaths finds: the repository's work tree (root)
// and git folder, the index's entries that the pathspecs match, and the
// spelling groups of the root.
type tracked struct {
	root, gitDir string
	entries      []*index.Entry
	folder       [][]string
}

// trackedPaths are the paths the index of the repository holding dir
// tracks that specs match (pathspecMatcher), relative to the work tree's
// root; fs.ErrNotExist when dir is in no repository.
func (e *Env) trackedPaths(dir string, specs []string) (tracked, error) {
	root, gitDir, err := e.repository(dir)
	if err != nil {
		return tracked{}, err
	}
	all, err := e.indexEntries(gitDir)
	if err != nil {
		return tracked{}, err
	}
	match, err := pathspecMatcher(specs, root, dir)
	if err != nil {
		return tracked{}, err
	}
	f := e.PathForms(root, dir)
	if f.Err != "" {
		return tracked{}, errors.New(f.Err)
	}
	tr := tracked{root: root, gitDir: gitDir, folder: f.groups()}
	for _, en := range all {
		if match(en.Name) {
			tr.entries = append(tr.entries, en)
		}
	}
	return tr, nil
}

// repository finds the repository that holds dir: its work tree's root and
// its git folder (.git, or the folder a .git file names, as a linked work
// tree's does). fs.ErrNotExist when there is none.
func (e *Env) repository(dir string) (root, gitDir string, err error) {
	for p := path.Clean(dir); ; p = path.Dir(p) {
		if err := e.spent.probe(1); err != nil {
			return "", "", err
		}
		dotGit := path.Join(p, ".git")
		mode, err := e.lstat(dotGit)
		switch {
		case err == nil && mode.IsDir():
			return p, dotGit, nil
		case err == nil && mode.IsRegular():
			reader, ok := e.fs().(FileReader)
			if !ok {
				return "", "", errors.New("the file system cannot read " + dotGit)
			}
			b, err := reader.ReadFile(dotGit)
			target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
			if err != nil || !ok {
				return "", "", fmt.Errorf("%s does not name a git folder", dotGit)
			}
			target = strings.TrimSpace(target)
			if !path.IsAbs(target) {
				target = path.Join(p, target)
			}
			return p, path.Clean(target), nil
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return "", "", err
		}
		if p == "/" || p == "." {
			return "", "", fs.ErrNotExist
		}
	}
}

// indexEntries are the entries of the index of the git folder, one a
// path (the first stage of a conflicted one).
func (e *Env) indexEntries(gitDir string) ([]*index.Entry, error) {
	if reader, ok := e.fs().(FileReader); ok {
		if cfg, err := reader.ReadFile(path.Join(gitDir, "config")); err == nil &&
			strings.Contains(strings.ToLower(string(cfg)), "sha256") {
			return nil, errors.New("a SHA-256 repository, whose index regate does not read")
		}
	}
	// git's own index is a regular file.
	f, err := e.openRegularFile(path.Join(gitDir, "index"), "the index")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil // no index yet: nothing is tracked
	case err != nil:
		return nil, err
	}
	defer f.Close()
	var idx index.Index
	if err := index.NewDecoder(bufio.NewReader(io.LimitReader(f, maxIndexBytes))).Decode(&idx); err != nil {
		return nil, fmt.Errorf("the index does not decode: %v", err)
	}
	if limit := e.PathHint.limit(); len(idx.Entries) > limit {
		return nil, fmt.Errorf("the index tracks more than %d paths", limit)
	}
	if err := e.spent.probe(len(idx.Entries)); err != nil {
		return nil, err
	}
	out := make([]*index.Entry, 0, len(idx.Entries))
	for i, en := range idx.Entries {
		if i > 0 && idx.Entries[i-1].Name == en.Name {
			continue // another stage of a conflicted path
		}
		out = append(out, en)
	}
	return out, nil
}

// pathspecMatcher reports which tracked paths (relative to the work tree's
// root) the pathspecs match as git matches them, relative to dir: a
// literal one names a path or a folder above paths, a glob one is matched
// against the whole path with * and ? crossing "/" (git's wildmatch
// without WM_PATHNAME, done by mvdan.cc/sh/v3/pattern). No pathspecs
// match everything.
func pathspecMatcher(specs []string, root, dir string) (func(string) bool, error) {
	if len(specs) == 0 {
		return func(string) bool { return true }, nil
	}
	prefix := ""
	if rel, ok := strings.CutPrefix(path.Clean(dir), path.Clean(root)); ok {
		prefix = strings.TrimPrefix(rel, "/")
	}
	var literals []string
	var globs []*regexp.Regexp
	for _, s := range specs {
		full := path.Clean(path.Join(prefix, s))
		if !strings.ContainsAny(s, "*?[") {
			literals = append(literals, full)
			continue
		}
		literals = append(literals, full) // git matches a glob as written too (d[1].txt)
		expr, err := pattern.Regexp(path.Join(prefix, s), pattern.EntireString)
		if err != nil {
			return nil, fmt.Errorf("the pathspec %s is not a pattern regate reads: %v", s, err)
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, fmt.Errorf("the pathspec %s is not a pattern regate reads: %v", s, err)
		}
		globs = append(globs, re)
	}
	return func(name string) bool {
		for _, l := range literals {
			if l == "." || name == l || strings.HasPrefix(name, l+"/") {
				return true
			}
		}
		for _, re := range globs {
			if re.MatchString(name) {
				return true
			}
		}
		return false
	}, nil
}
