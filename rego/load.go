package rego

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
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

// Reachable returns the modules of lib that a query can reach: the modules
// of every library package the query refers to and, transitively, of every
// library package a kept module refers to (by import or by a full data
// reference). OPA compiles every module it is given, and the permission
// query reaches a third of the library, so preparing only these is what
// makes a fresh process, such as a hook call, fast.
//
// Packages and references come from OPA's own parser (ParseDeps). A query
// that does not parse, or that refers to no package of lib, gets the whole
// library, as does a lib with a module that does not parse: OPA then
// reports what is wrong.
//
// seeds are further references the query reaches through modules outside
// lib, such as a generated module's import of a library package.
func Reachable(lib map[string]string, query string, seeds ...string) map[string]string {
	body, err := ast.ParseBody(query)
	if err != nil {
		return lib
	}
	byPkg := map[string][]string{}
	deps := map[string][]string{}
	for p, text := range lib {
		pkg, refs, err := moduleDeps(text)
		if err != nil {
			return lib
		}
		byPkg[pkg] = append(byPkg[pkg], p)
		deps[p] = refs
	}
	out := map[string]string{}
	seen := map[string]bool{}
	var queue []string
	visit := func(refs []string) {
		for _, r := range refs {
			for pkg := range byPkg {
				if !seen[pkg] && refersTo(r, pkg) {
					seen[pkg] = true
					queue = append(queue, pkg)
				}
			}
		}
	}
	visit(libRefs(body))
	visit(seeds)
	if len(queue) == 0 {
		return lib
	}
	for len(queue) > 0 {
		pkg := queue[0]
		queue = queue[1:]
		for _, p := range byPkg[pkg] {
			out[p] = lib[p]
			visit(deps[p])
		}
	}
	return out
}

// moduleDeps is ParseDeps, answered for the embedded library from a table
// generated with it (deps_table.go, `go generate ./rego`): parsing the whole
// library costs a fresh process more than preparing the few modules a query
// reaches. Any other text is parsed.
func moduleDeps(text string) (string, []string, error) {
	if d, ok := generatedDeps[TextHash(text)]; ok {
		return d.pkg, d.refs, nil
	}
	return ParseDeps(text)
}

// ParseDeps parses a module with OPA's parser and returns its package path
// ("data.regate.lib.gate") and the library references it makes (those under
// data.regate.lib), imports included, sorted and without duplicates.
func ParseDeps(text string) (string, []string, error) {
	m, err := ast.ParseModuleWithOpts("", text, ast.ParserOptions{RegoVersion: ast.RegoV1})
	if err != nil {
		return "", nil, err
	}
	var refs []string
	for _, imp := range m.Imports {
		refs = append(refs, libRefs(imp.Path)...)
	}
	for _, rule := range m.Rules {
		refs = append(refs, libRefs(rule)...)
	}
	slices.Sort(refs)
	return m.Package.Path.String(), slices.Compact(refs), nil
}

// TextHash names a module's text in the generated table.
func TextHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// libPrefix is the library's package prefix.
const libPrefix = "data.regate.lib"

// libRefs are the references under data.regate.lib in x.
func libRefs(x any) []string {
	var out []string
	ast.WalkRefs(x, func(r ast.Ref) bool {
		if s := r.String(); strings.HasPrefix(s, libPrefix) {
			out = append(out, s)
		}
		return false
	})
	return out
}

// refersTo reports whether ref names something in package pkg (a rule, or
// the package itself), or a package below it.
func refersTo(ref, pkg string) bool {
	return ref == pkg || strings.HasPrefix(ref, pkg+".") || strings.HasPrefix(ref, pkg+"[") || strings.HasPrefix(pkg, ref+".")
}

// moduleDep is one generated table entry.
type moduleDep struct {
	pkg  string
	refs []string
}
