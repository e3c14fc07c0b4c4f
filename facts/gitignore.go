package facts

import (
	"errors"
	"io"
	"os"
	"path"
	"strings"
	"syscall"
)

// The .gitignore files a program such as ripgrep honours (the "tree-visible"
// reads of tree.go): the paths they ignore are not read, so they need not be
// gated. regate understands a subset of gitignore(5), and everything it does
// not understand counts as read (fail closed): a line it cannot read is
// dropped (ignoring less), and a file with a negation ("!", which re-includes
// what an earlier line or a parent's file ignored) turns off every ignore
// rule, its own and its parents', for its folder and below.
//
// Understood: blank lines and comments; a trailing "/" (folders only); a
// pattern with a "/" before its end, anchored at the .gitignore's folder and
// matched one component per level; a pattern without one, matched against
// an entry's name at any depth (a leading "**/" means the same); "*", "?"
// and "[…]" within a component ("[!…]" as "[^…]"). Dropped: backslash
// escapes, any other "**", POSIX classes ("[:"), a pattern that does not
// compile.

// maxGitignoreBytes bounds one .gitignore: a larger one is not read, which
// ignores nothing.
const maxGitignoreBytes = 64 << 10

// FileReader is a file system that can read a file: what the .gitignore
// files of a tree-visible read need. OSFS and MapFS are both.
type FileReader interface {
	ReadFile(name string) ([]byte, error)
}

// ReadFile reads a file of the host, up to a bound past which it fails.
func (OSFS) ReadFile(name string) ([]byte, error) {
	f, err := openRegular(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxGitignoreBytes+1))
	if err == nil && len(b) > maxGitignoreBytes {
		err = errors.New("the file is too large")
	}
	return b, err
}

// ReadFile reads a file of the map: a value "file:CONTENT" is a file with
// that content, "file" an empty one.
func (m MapFS) ReadFile(name string) ([]byte, error) {
	v, ok := m[path.Clean(name)]
	if !ok || (v != "file" && !strings.HasPrefix(v, "file:")) {
		return nil, &os.PathError{Op: "read", Path: name, Err: os.ErrNotExist}
	}
	return []byte(strings.TrimPrefix(strings.TrimPrefix(v, "file"), ":")), nil
}

// ignoreRule is one .gitignore line regate understands.
type ignoreRule struct {
	parts   []string // anchored: the components below the file's folder
	name    string   // unanchored: a glob on an entry's name at any depth
	dirOnly bool
}

// ignoreFile is the rules of one .gitignore in the folder base, relative
// to the walk's root ("" for the root).
type ignoreFile struct {
	base  string
	rules []ignoreRule
}

// parseGitignore returns the rules of a .gitignore that regate
// understands, and whether the file negates (has a "!" line).
func parseGitignore(text string) (rules []ignoreRule, negates bool) {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.HasPrefix(line, "!") {
			negates = true
			continue
		}
		if line == "" || line[0] == '#' || strings.Contains(line, `\`) {
			continue // blank, a comment, or an escape regate does not read
		}
		line = strings.TrimRight(line, " ")
		if r, ok := parseIgnoreLine(line); ok {
			rules = append(rules, r)
		}
	}
	return rules, negates
}

// parseIgnoreLine reads one pattern line; ok is false for a line regate
// does not understand.
func parseIgnoreLine(p string) (ignoreRule, bool) {
	var r ignoreRule
	if strings.HasSuffix(p, "/") {
		r.dirOnly, p = true, strings.TrimSuffix(p, "/")
	}
	for strings.HasPrefix(p, "**/") && !strings.Contains(p[3:], "/") {
		p = p[3:]
	}
	if p == "" || strings.Contains(p, "**") || strings.Contains(p, "[:") {
		return r, false
	}
	p = strings.ReplaceAll(p, "[!", "[^")
	if _, err := path.Match(p, ""); err != nil {
		return r, false
	}
	if strings.Contains(p, "/") {
		r.parts = splitPath(p)
		return r, len(r.parts) > 0
	}
	r.name = p
	return r, true
}

// ignores reports whether the file ignores the entry at rel (relative to
// the walk's root, inside the file's folder), a folder when isDir.
func (f ignoreFile) ignores(rel string, isDir bool) bool {
	below := rel
	if f.base != "" {
		below = strings.TrimPrefix(rel, f.base+"/")
	}
	name := path.Base(rel)
	var parts []string
	for _, r := range f.rules {
		if r.dirOnly && !isDir {
			continue
		}
		if r.parts == nil {
			if ok, _ := path.Match(r.name, name); ok {
				return true
			}
			continue
		}
		if parts == nil {
			parts = splitPath(below)
		}
		if len(parts) == len(r.parts) && matchEach(r.parts, parts) {
			return true
		}
	}
	return false
}

// matchEach reports whether each glob matches the component at its index.
func matchEach(globs, comps []string) bool {
	for i, g := range globs {
		if ok, _ := path.Match(g, comps[i]); !ok {
			return false
		}
	}
	return true
}

// openRegular opens a regular file of the host for reading, and fails on
// anything else: a fifo or a device planted where a .gitignore or a git
// index is expected would block the read, and with it the decision. The
// file is opened without blocking and checked once open, so that it cannot
// be swapped for a fifo in between.
func openRegular(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, &os.PathError{Op: "open", Path: name, Err: errors.New("not a regular file")}
	}
	return f, nil
}
