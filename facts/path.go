package facts

import (
	"path"
	"slices"
	"strings"

	"github.com/regate/regate/bashfacts"
	"github.com/regate/regate/internal/homedir"
)

// Forms are the spellings of one path that rules are matched against (R2).
// Referenced is the path as written (home prefix expanded, normalised
// lexically), its absolute form against the effective directory, and its
// cwd-relative form when it lies inside the cwd. Canonical is the
// symlink-resolved absolute path of the referenced form and its
// cwd-relative form. Kernel is the path as the kernel resolves what was
// written, component by component (resolve.go), when it differs: only a
// ".." after a link can make it (link/.. is the folder of the link's
// target). Every group is decided, and the most restrictive wins.
type Forms struct {
	Referenced []string
	Canonical  []string
	Kernel     []string
	// Err is set when the canonical form could not be found (a link loop,
	// a permission error); the path then fails closed to ask.
	Err string
	// Dir is set when the path names a directory.
	Dir bool
	// FD is the open file descriptor the path names (/dev/fd/N,
	// /proc/self/fd/N, /dev/stdin is "0"), "" when none.
	FD string
	// Strict says why strict mode asks for the path whatever the rules
	// say: it names a descriptor that is not a standard stream, or another
	// process's files (/proc/N).
	Strict string
}

// PathForms computes the forms of value, a path as a tool call or a command
// gives it, relative to base (the effective directory).
func (e *Env) PathForms(value, base string) Forms {
	expanded := homedir.Expand(value, e.Home)
	literal := path.Clean(expanded)
	abs := literal
	if !path.IsAbs(abs) {
		abs = path.Join(base, literal)
	}
	f := Forms{Referenced: dedupe(literal, abs, e.relative(abs))}
	r := resolver{fsys: e.fs(), cwd: base, fold: e.FoldCase, spent: e.spent}
	canon, err := r.resolve(abs)
	if err != nil {
		f.Err = err.Error()
		f.Canonical = f.Referenced
		return f
	}
	f.Canonical = dedupe(canon.path, e.relative(canon.path))
	f.Dir = canon.dir
	if raw := rawAbsolute(expanded, base); bashfacts.HasDotDot(raw) {
		k, err := r.resolve(raw)
		switch {
		case err != nil:
			f.Err = err.Error()
		case !k.fails && k.path != canon.path:
			f.Kernel = dedupe(k.path, e.relative(k.path))
			f.Dir = f.Dir || k.dir
			canon.fd, canon.unknown = k.fd, k.unknown
		}
	}
	f.FD = canon.fd
	switch {
	case canon.unknown != "":
		f.Strict = canon.unknown
	case canon.fd != "" && !isStandardStream(canon.fd):
		f.Strict = value + " is the open file descriptor " + canon.fd + ", which regate cannot see"
	}
	return f
}

// rawAbsolute is p made absolute against base without cleaning: the
// kernel walks the ".." components as written.
func rawAbsolute(p, base string) string {
	if path.IsAbs(p) {
		return p
	}
	return base + "/" + p
}

// isStandardStream reports whether fd is standard input, output or error.
func isStandardStream(fd string) bool { return fd == "0" || fd == "1" || fd == "2" }

// groups are the spelling groups of a path for its check: the referenced,
// the canonical and the kernel's spellings, each group left out when it is
// the same set as one before it (no link involved, the path inside the
// cwd): it would be decided exactly as that one. A canonical group that is
// only a subset (../other/x) stays a group of its own, as R2 decides it on
// its own.
func (f Forms) groups() [][]string {
	out := [][]string{f.Referenced}
	for _, g := range [...][]string{f.Canonical, f.Kernel} {
		if len(g) == 0 {
			continue
		}
		dup := false
		for _, o := range out {
			dup = dup || sameSet(g, o)
		}
		if !dup {
			out = append(out, g)
		}
	}
	return out
}

// sameSet reports whether a and b hold the same strings (each without
// repeats).
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// relative is p relative to the cwd when p lies inside it ("." for the cwd
// itself), else "".
func (e *Env) relative(p string) string {
	cwd := path.Clean(e.Cwd)
	if p == cwd {
		return "."
	}
	if cwd == "/" {
		return strings.TrimPrefix(p, "/")
	}
	if rest, ok := strings.CutPrefix(p, cwd+"/"); ok {
		return rest
	}
	return ""
}

// dedupe drops empty and repeated strings, keeping the first of each.
func dedupe(xs ...string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		if x == "" {
			continue
		}
		dup := false
		for _, y := range out {
			if x == y {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, x)
		}
	}
	return out
}
