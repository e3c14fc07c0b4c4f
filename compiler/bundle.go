package compiler

import (
	"fmt"
	"sort"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"

	regolib "github.com/regate/regate/rego"
)

// BundleRoot is the one root of a regate bundle: the library (regate.lib),
// the generated modules (regate.gen) and the compiled rules (regate.rules).
const BundleRoot = "regate"

// Bundle is the compiled policy as an OPA bundle for stock OPA servers:
// the static library and the generated modules, the same modules the
// embedded runtime evaluates (no custom builtin), and the compiled rules as
// plain JSON data, under the root "regate", with the policy's hash as the
// revision. Write it with bundle.NewWriter; sign it with its
// GenerateSignature.
func (o *Output) Bundle() (*bundle.Bundle, error) {
	lib, err := regolib.Modules()
	if err != nil {
		return nil, err
	}
	files := map[string]string{}
	for path, text := range lib {
		files[path] = text
	}
	for _, m := range o.Modules {
		files[m.Path] = m.Text
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	b := &bundle.Bundle{Manifest: bundle.Manifest{Revision: o.Hash, Roots: &[]string{BundleRoot}}}
	for _, p := range paths {
		parsed, err := ast.ParseModuleWithOpts(p, files[p], ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			return nil, fmt.Errorf("compiler: bundle %s: %w", p, err)
		}
		b.Modules = append(b.Modules, bundle.ModuleFile{URL: "/" + p, Path: "/" + p, Raw: []byte(files[p]), Parsed: parsed})
	}
	data, err := o.plainData()
	if err != nil {
		return nil, err
	}
	b.Data = map[string]any{BundleRoot: map[string]any{"rules": data}}
	return b, nil
}

// plainData is the compiled rules (AST values in Data) as plain JSON values.
func (o *Output) plainData() (map[string]any, error) {
	rules, _ := o.Data["regate"].(map[string]any)["rules"].(map[string]any)
	v, err := ast.InterfaceToValue(rules)
	if err != nil {
		return nil, fmt.Errorf("compiler: bundle data: %w", err)
	}
	plain, err := ast.JSON(v)
	if err != nil {
		return nil, fmt.Errorf("compiler: bundle data: %w", err)
	}
	m, _ := plain.(map[string]any)
	return m, nil
}
