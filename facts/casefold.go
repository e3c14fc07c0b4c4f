package facts

import (
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"unicode"
)

// Case folding (issue 19, point 9). On a file system that folds case
// (macOS's default APFS, Windows' NTFS) `cat .ENV` opens .env and `RM`
// finds rm. Where the file system holding the working directory folds
// case, each existing component of a path is also spelt as its directory
// lists it (the on-disk spelling, part of the canonical form: what the
// kernel opens), and a command's program name is also spelt in lower case
// (a spelling of the unit, which strict mode decides). A policy says
// whether the file system folds case with "caseInsensitive"; without it,
// FoldsCase probes the working directory.

// SameFiler is a file system that can tell whether two paths name the same
// file: what FoldsCase needs to see that two spellings meet.
type SameFiler interface {
	SameFile(a, b string) bool
}

// SameFile reports whether a and b name the same file, links not followed.
func (OSFS) SameFile(a, b string) bool {
	fa, err := os.Lstat(a)
	if err != nil {
		return false
	}
	fb, err := os.Lstat(b)
	return err == nil && os.SameFile(fa, fb)
}

// FoldsCase reports whether the file system holding dir folds case: dir's
// last component that has a letter, spelt with its case flipped, names the
// same file. It never creates a file. A path without a letter, or a file
// system that cannot compare files, reads as not folding.
func FoldsCase(fsys FS, dir string) bool {
	sf, ok := fsys.(SameFiler)
	if !ok {
		return false
	}
	dir = path.Clean(dir)
	for p := dir; p != "/" && p != "."; p = path.Dir(p) {
		base := path.Base(p)
		flipped := flipCase(base)
		if flipped == base {
			continue
		}
		other := path.Join(path.Dir(p), flipped) + strings.TrimPrefix(dir, p)
		if _, err := fsys.Lstat(other); err != nil {
			return false
		}
		return sf.SameFile(dir, other)
	}
	return false
}

// flipCase swaps the case of every letter.
func flipCase(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}

// onDisk is name as the directory dir lists it: name itself when listed
// so, else the one entry equal to it under case folding. A directory that
// cannot be listed keeps the name as written.
func (r resolver) onDisk(dir, name string) string {
	lister, ok := r.fsys.(DirReader)
	if !ok {
		return name
	}
	names, err := lister.ReadDir(dir)
	if err != nil {
		return name
	}
	// Counted after the listing: the spelling found is right, and the
	// walk's next probe fails if the budget is spent.
	_ = r.spent.probe(len(names))
	folded := ""
	for _, n := range names {
		if n == name {
			return name
		}
		if folded == "" && strings.EqualFold(n, name) {
			folded = n
		}
	}
	if folded == "" {
		return name
	}
	return folded
}

// lowerProgramSpellings are a unit's text and spellings with the program
// name in lower case, where it has an upper-case letter: on a file system
// that folds case, `RM -rf x` runs rm. Only new spellings are returned.
func lowerProgramSpellings(text string, spellings []string) []string {
	var out []string
	for _, s := range append([]string{text}, spellings...) {
		word, rest, _ := strings.Cut(s, " ")
		base := path.Base(word)
		lower := strings.ToLower(base)
		if lower == base {
			continue
		}
		v := lower
		if rest != "" {
			v += " " + rest
		}
		if v != text && !contains(spellings, v) && !contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// FoldMapFS is a MapFS on a file system that folds case, as macOS's
// default one does: a path names the entry whose spelling equals it under
// case folding, and directories list the spellings the map gives. For tests.
type FoldMapFS MapFS

// find is the map's own spelling of name, "" when nothing matches.
func (m FoldMapFS) find(name string) string {
	name = path.Clean(name)
	if _, ok := m[name]; ok {
		return name
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.EqualFold(k, name) {
			return k
		}
		if len(k) > len(name) && k[len(name)] == '/' && strings.EqualFold(k[:len(name)], name) {
			return k[:len(name)]
		}
	}
	return ""
}

func (m FoldMapFS) Lstat(name string) (fs.FileMode, error) {
	if path.Clean(name) == "/" {
		return fs.ModeDir, nil
	}
	k := m.find(name)
	if k == "" {
		return 0, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrNotExist}
	}
	return MapFS(m).Lstat(k)
}

func (m FoldMapFS) Readlink(name string) (string, error) {
	return MapFS(m).Readlink(m.find(name))
}

func (m FoldMapFS) ReadDir(name string) ([]string, error) {
	k := m.find(name)
	if path.Clean(name) == "/" {
		k = "/"
	}
	if k == "" {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	return MapFS(m).ReadDir(k)
}

// SameFile compares the map's own spellings.
func (m FoldMapFS) SameFile(a, b string) bool {
	ka := m.find(a)
	return ka != "" && ka == m.find(b)
}

// SameFile reports whether a and b are the same key of the map.
func (m MapFS) SameFile(a, b string) bool {
	a, b = path.Clean(a), path.Clean(b)
	if a != b {
		return false
	}
	_, err := m.Lstat(a)
	return err == nil
}
