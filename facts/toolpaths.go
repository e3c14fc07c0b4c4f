package facts

import (
	"sort"
	"strings"
)

// Tools regate has no model of (docs/hosts.md, "Tools no table maps"): a
// host's new tool arrives under its own name, and whatever files it takes
// must meet the path rules all the same. Beside input.path, every field
// that holds a path is gated on the path surface and on the tool's own
// surface (so that the prompt names the path): by its name (pathField), at
// any depth and in lists, and by its value where a string is shaped like a
// path (pathShaped) or is a file: uri that names a local file (args.go).

// maxFieldDepth bounds how deep the fields of an unmodelled tool's input
// are searched for paths; an input nested deeper is malformed (it asks).
const maxFieldDepth = 8

// pathField reports a field name that names a path: path, file, out_dir,
// file_path, filePath, scriptPath, and their plurals.
func pathField(name string) bool {
	n := strings.TrimSuffix(name, "s")
	switch strings.ToLower(n) {
	case "path", "file", "filepath", "file_path", "dir", "directory", "folder":
		return true
	}
	for _, suffix := range []string{"_path", "Path", "_file", "File", "_dir", "Dir", "_directory", "Directory", "_folder", "Folder"} {
		if strings.HasSuffix(n, suffix) && len(n) > len(suffix) {
			return true
		}
	}
	return false
}

// pathShaped reports a string that is a path whatever its field's name:
// absolute, home-relative or explicitly relative, on one line, without
// spaces (a sentence that mentions a path is not one).
func pathShaped(s string) bool {
	if len(s) > MaxPathBytes || strings.ContainsAny(s, " \t\n\r") {
		return false
	}
	for _, p := range []string{"/", "~/", "./", "../"} {
		if strings.HasPrefix(s, p) && len(s) > len(p)-1 {
			return true
		}
	}
	return s == "~"
}

// fieldPaths are the paths an unmodelled tool's input holds outside its
// "path" field (which pathToolChecks gates), in a stable order; tooDeep
// when the input nests past maxFieldDepth, where no path was looked for.
func fieldPaths(args map[string]any) (out []string, tooDeep bool) {
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] && len(out) <= MaxChecks {
			seen[s] = true
			out = append(out, s)
		}
	}
	var walk func(v any, named bool, depth int)
	walk = func(v any, named bool, depth int) {
		if depth > maxFieldDepth {
			tooDeep = true
			return
		}
		switch t := v.(type) {
		case string:
			if p, ok := fileURIPath(t); ok {
				add(p) // a file: uri (a resource's) names a local file
			} else if named || pathShaped(t) {
				add(t)
			}
		case []any:
			for _, x := range t {
				walk(x, named, depth+1)
			}
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if depth == 0 && k == "path" {
					continue
				}
				walk(t[k], pathField(k), depth+1)
			}
		}
	}
	walk(args, false, 0)
	return out, tooDeep
}

// unmodelledPathChecks are the checks of the paths an unmodelled tool's
// input holds beyond input.path: each on the path surface and the tool's.
func (e *Env) unmodelledPathChecks(tool string, args map[string]any, cwd string) []Check {
	paths, tooDeep := fieldPaths(args)
	var out []Check
	if tooDeep {
		out = append(out, malformedCheck(tool, "the input nests deeper than regate looks for paths"))
	}
	for _, p := range paths {
		out = append(out, e.toolPathChecks(tool, p, cwd)...)
	}
	return append(out, e.toolRoleChecks(tool, args, cwd)...)
}
