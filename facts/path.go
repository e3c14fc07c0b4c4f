package facts

import (
	"path"
	"strings"

	"github.com/regate/regate/internal/homedir"
)

// Forms are the spellings of one path that rules are matched against (R2).
// Referenced is the path as written (home prefix expanded, normalised
// lexically), its absolute form against the effective directory, and its
// cwd-relative form when it lies inside the cwd. Canonical is the
// symlink-resolved absolute path and its cwd-relative form.
type Forms struct {
	Referenced []string
	Canonical  []string
	// Err is set when the canonical form could not be found (a link loop);
	// the path then fails closed to ask.
	Err string
	// Dir is set when the path names a directory.
	Dir bool
}

// PathForms computes the forms of value, a path as a tool call or a command
// gives it, relative to base (the effective directory).
func (e *Env) PathForms(value, base string) Forms {
	literal := path.Clean(homedir.Expand(value, e.Home))
	abs := literal
	if !path.IsAbs(abs) {
		abs = path.Join(base, literal)
	}
	f := Forms{Referenced: dedupe(literal, abs, e.relative(abs))}
	canon, isDir, err := canonical(e.fs(), abs)
	if err != nil {
		f.Err = err.Error()
		f.Canonical = f.Referenced
		return f
	}
	f.Canonical = dedupe(canon, e.relative(canon))
	f.Dir = isDir
	return f
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
