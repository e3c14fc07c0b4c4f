package rego

import (
	"io/fs"
	"regexp"
	"strings"
)

func load(tests bool) (map[string]string, error) {
	out := map[string]string{}
	err := fs.WalkDir(FS, "lib", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".rego") {
			return err
		}
		if strings.HasSuffix(path, "_test.rego") != tests {
			return nil
		}
		b, err := fs.ReadFile(FS, path)
		if err != nil {
			return err
		}
		out["regate/"+path] = string(b)
		return nil
	})
	return out, err
}

var (
	packageLine = regexp.MustCompile(`(?m)^package\s+([\w.]+)`)
	libRef      = regexp.MustCompile(`data\.regate\.lib\.(\w+)`)
)

// Reachable returns the modules of lib that a query can reach: the module
// of the query's package and, transitively, every library package a kept
// module refers to. OPA compiles every module it is given, and the
// permission query reaches a third of the library (a quarter of its
// lines), so preparing only these is what makes a fresh process, such as
// a hook call, fast. A query outside regate.lib gets the whole library.
func Reachable(lib map[string]string, query string) map[string]string {
	byPkg := map[string][]string{}
	for p, text := range lib {
		if m := packageLine.FindStringSubmatch(text); m != nil {
			byPkg[m[1]] = append(byPkg[m[1]], p)
		}
	}
	m := libRef.FindStringSubmatch(query)
	if m == nil {
		return lib
	}
	out := map[string]string{}
	queue := []string{"regate.lib." + m[1]}
	seen := map[string]bool{queue[0]: true}
	for len(queue) > 0 {
		pkg := queue[0]
		queue = queue[1:]
		for _, p := range byPkg[pkg] {
			out[p] = lib[p]
			for _, ref := range libRef.FindAllStringSubmatch(lib[p], -1) {
				if next := "regate.lib." + ref[1]; !seen[next] {
					seen[next] = true
					queue = append(queue, next)
				}
			}
		}
	}
	return out
}
