package facts

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
)

// FS is the part of a file system that facts needs: what kind of entry a
// path names, without following a final link, and where a link points.
// A path that does not exist returns an error for which
// errors.Is(err, fs.ErrNotExist) holds.
type FS interface {
	Lstat(name string) (fs.FileMode, error)
	Readlink(name string) (string, error)
}

// OSFS is the host's file system.
type OSFS struct{}

func (OSFS) Lstat(name string) (fs.FileMode, error) {
	fi, err := os.Lstat(name)
	if err != nil {
		return 0, err
	}
	return fi.Mode().Type(), nil
}

func (OSFS) Readlink(name string) (string, error) { return os.Readlink(name) }

// MapFS is a virtual file system for tests and conformance cases. A key is
// an absolute path; a value is "file", "dir" or "link:TARGET". Every parent
// of a key is a directory. Nothing else exists.
type MapFS map[string]string

func (m MapFS) Lstat(name string) (fs.FileMode, error) {
	name = path.Clean(name)
	if v, ok := m[name]; ok {
		switch {
		case v == "dir":
			return fs.ModeDir, nil
		case strings.HasPrefix(v, "link:"):
			return fs.ModeSymlink, nil
		}
		return 0, nil
	}
	if name == "/" {
		return fs.ModeDir, nil
	}
	prefix := name + "/"
	for k := range m {
		if strings.HasPrefix(k, prefix) {
			return fs.ModeDir, nil
		}
	}
	return 0, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrNotExist}
}

func (m MapFS) Readlink(name string) (string, error) {
	v, ok := m[path.Clean(name)]
	if target, isLink := strings.CutPrefix(v, "link:"); ok && isLink {
		return target, nil
	}
	return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
}

// Canonical resolves every symbolic link in the absolute path p, as the
// kernel does (resolve.go): a component that does not exist is kept as
// written; a link whose target is absent still resolves to that target
// (R14). A loop, or more than 40 links, is an error.
func Canonical(fsys FS, p string) (string, error) {
	r, err := resolver{fsys: fsys, cwd: "/"}.resolve(p)
	return r.path, err
}

// DirReader is a file system that can list a directory: what strict mode
// needs to expand a glob as the shell would. OSFS and MapFS are both.
type DirReader interface {
	ReadDir(name string) ([]string, error)
}

// ReadDir lists the names in a directory.
func (OSFS) ReadDir(name string) ([]string, error) {
	entries, err := os.ReadDir(name)
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, err
}

// ReadDir lists the names in a directory of the map.
func (m MapFS) ReadDir(name string) ([]string, error) {
	name = path.Clean(name)
	if mode, err := m.Lstat(name); err != nil {
		return nil, err
	} else if !mode.IsDir() {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	prefix := name + "/"
	if name == "/" {
		prefix = "/"
	}
	seen := map[string]bool{}
	var names []string
	for k := range m {
		rest, ok := strings.CutPrefix(k, prefix)
		if !ok || rest == "" {
			continue
		}
		child, _, _ := strings.Cut(rest, "/")
		if !seen[child] {
			seen[child] = true
			names = append(names, child)
		}
	}
	sort.Strings(names)
	return names, nil
}

func splitPath(p string) []string {
	var out []string
	for _, s := range strings.Split(p, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
