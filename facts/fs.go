package facts

import (
	"errors"
	"io/fs"
	"os"
	"path"
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

// maxLinks bounds how many links one resolution follows (R14).
const maxLinks = 40

var errLinkLoop = errors.New("too many levels of symbolic links")

// Canonical resolves every symbolic link in the absolute, clean path p. A
// component that does not exist is kept as written; a link whose target is
// absent still resolves to that target (R14). A loop, or more than 40
// links, is an error.
func Canonical(fsys FS, p string) (string, error) {
	parts := splitPath(p)
	cur := "/"
	links := 0
	for i := 0; i < len(parts); i++ {
		next := path.Join(cur, parts[i])
		mode, err := fsys.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				cur = next
				continue
			}
			return "", err
		}
		if mode&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if links++; links > maxLinks {
			return "", errLinkLoop
		}
		target, err := fsys.Readlink(next)
		if err != nil {
			return "", err
		}
		if !path.IsAbs(target) {
			target = path.Join(cur, target)
		}
		parts = append(splitPath(path.Clean(target)), parts[i+1:]...)
		cur, i = "/", -1
	}
	return cur, nil
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
