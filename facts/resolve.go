package facts

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

// Paths as the kernel resolves them. The kernel walks a path one component
// at a time, following each symbolic link as it meets it, so "dir/link/.."
// is the folder holding the link's target, not dir; and "a/missing/../b"
// fails (ENOENT) although it cleans to "a/b". resolve walks the same way
// through FS, and never cleans a path or a link's target lexically first.
//
// A few places are not on any disk and name something per process:
// /proc/self (and /proc/thread-self) is the process running the command,
// whose cwd is the directory the command stands in and whose root is "/";
// /dev/fd, /proc/self/fd, /dev/stdin, /dev/stdout and /dev/stderr name its
// open file descriptors; /proc/N is another process. resolve answers those
// itself: the host's /proc would describe regate, not the command.

// maxLinks bounds how many links one resolution follows (R14).
const maxLinks = 40

var errLinkLoop = errors.New("too many levels of symbolic links")

// resolver resolves paths for one call.
type resolver struct {
	fsys FS
	// cwd is the directory the command stands in: /proc/self/cwd.
	cwd string
	// fold is set when the file system folds case: each existing
	// component is then spelt as the directory lists it.
	fold bool
	// spent is the call's work budget (budget.go); nil is unbounded.
	spent *budget
}

// resolved is where a path leads.
type resolved struct {
	// path is the absolute path reached: every link followed, and the
	// components after one that does not exist joined as written.
	path string
	// dir is set when path names an existing directory.
	dir bool
	// fails is set when the kernel would fail before the end: a ".."
	// after a component that does not exist, or a component below a file.
	// Such a path opens nothing.
	fails bool
	// fd is the open file descriptor the path names ("0" for /dev/stdin),
	// "" when it names none.
	fd string
	// unknown says why the place cannot be known (another process's /proc
	// entry), "" when it can.
	unknown string
}

// resolve walks the absolute path p as the kernel does. A link loop, more
// than maxLinks links, or an error other than plain non-existence (a
// permission error) is an error: the caller fails closed.
func (r resolver) resolve(p string) (resolved, error) {
	if len(p) > MaxPathBytes {
		return resolved{}, errPathTooLong
	}
	parts := components(p)
	cur, isDir := "/", true
	links := 0
	var out resolved
	// stop says why the walk went as far as it could: the rest of the
	// path is joined as written ("missing": a component does not exist,
	// which is normal for a file about to be written; "file": a component
	// is no directory; "virtual": a per-process place).
	stop := ""
	for i := 0; i < len(parts); i++ {
		c := parts[i]
		if stop != "" {
			if stop == "file" || (stop == "missing" && c == "..") {
				out.fails = true // ENOTDIR, ENOENT: the kernel opens nothing
			}
			cur = path.Join(cur, c)
			continue
		}
		switch c {
		case ".":
			continue
		case "..":
			cur = path.Dir(cur) // cur holds no link: its parent is the physical one
			continue
		}
		if v, ok := r.virtual(cur, c); ok {
			if v.follow != nil {
				if links++; links > maxLinks {
					return resolved{}, errLinkLoop
				}
				parts = append(v.follow, parts[i+1:]...)
				cur, isDir, i = "/", true, -1
				continue
			}
			cur, isDir = v.at, true
			if v.fd != "" || v.unknown != "" || v.opaque {
				out.fd, out.unknown, stop = v.fd, v.unknown, "virtual"
			}
			continue
		}
		next := path.Join(cur, c)
		if len(next) > maxResolvedBytes {
			return resolved{}, errPathTooLong // links made it longer and longer
		}
		if err := r.spent.probe(1); err != nil {
			return resolved{}, err
		}
		mode, err := r.fsys.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			cur, stop = next, "missing"
			continue
		case err != nil:
			return resolved{}, err
		case mode&fs.ModeSymlink == 0:
			if r.fold {
				next = path.Join(cur, r.onDisk(cur, c))
			}
			cur, isDir = next, mode.IsDir()
			if !isDir {
				stop = "file"
			}
			continue
		}
		if links++; links > maxLinks {
			return resolved{}, errLinkLoop
		}
		if err := r.spent.probe(1); err != nil {
			return resolved{}, err
		}
		target, err := r.fsys.Readlink(next)
		if err != nil {
			return resolved{}, err
		}
		// The target is walked from the link's folder (or "/"), component
		// by component, before what followed the link.
		parts = append(components(target), parts[i+1:]...)
		if path.IsAbs(target) {
			cur = "/"
		}
		isDir, i = true, -1
	}
	out.path = cur
	out.dir = isDir && stop == ""
	return out, nil
}

// components splits a path into its components, keeping "." and "..",
// which the kernel resolves in order; empty components ("//") go.
func components(p string) []string {
	out := make([]string, 0, strings.Count(p, "/")+1)
	for _, s := range strings.Split(p, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// virtualStep is what resolve makes of a component in a per-process place.
type virtualStep struct {
	// follow replaces the rest of the walk from "/" (a magic link: cwd,
	// root): the components to walk before what followed.
	follow []string
	// at is where the walk stands after the component, when it does not
	// follow.
	at string
	// fd and unknown end the walk (a descriptor, another process); opaque
	// ends it for any other per-process entry (environ, exe, …).
	fd, unknown string
	opaque      bool
}

// virtual answers the components of /proc/self, /proc/N and /dev/fd that
// name the command's own process, which the host's /proc does not show.
func (r resolver) virtual(cur, c string) (virtualStep, bool) {
	switch cur {
	case "/":
		if c == "proc" || c == "dev" {
			return virtualStep{at: "/" + c}, true // the same on every host: no need to ask the disk
		}
	case "/proc":
		switch {
		case c == "self" || c == "thread-self":
			return virtualStep{at: "/proc/self"}, true
		case isDigits(c):
			return virtualStep{at: "/proc/" + c, unknown: "/proc/" + c + " is another process's view of the file system, which regate cannot see"}, true
		}
	case "/proc/self":
		switch c {
		case "cwd":
			return virtualStep{follow: components(r.cwd)}, true
		case "root":
			return virtualStep{follow: []string{}}, true
		case "fd":
			return virtualStep{at: "/proc/self/fd"}, true
		}
		return virtualStep{at: "/proc/self/" + c, opaque: true}, true
	case "/proc/self/fd":
		if isDigits(c) {
			return virtualStep{at: "/proc/self/fd/" + c, fd: c}, true
		}
		return virtualStep{at: "/proc/self/fd/" + c, opaque: true}, true
	case "/dev":
		switch c {
		case "fd":
			return virtualStep{at: "/proc/self/fd"}, true
		case "stdin":
			return virtualStep{at: "/proc/self/fd/0", fd: "0"}, true
		case "stdout":
			return virtualStep{at: "/proc/self/fd/1", fd: "1"}, true
		case "stderr":
			return virtualStep{at: "/proc/self/fd/2", fd: "2"}, true
		}
	}
	return virtualStep{}, false
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
