package delegation

import (
	"slices"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/internal/ruledoc"
)

// Check decodes a delegation policy as `regate check` reports it: Decode's
// errors, and a warning for each top-level key the decoder keeps without
// reading (Policy.Unknown), where the key stands, with the key it most
// likely misspells. Decode keeps such a key without a word, since the
// spec says unknown fields are kept; but a field nobody compares fails
// every subset proof, so a typo such as "allowed_tool" must not pass
// unseen. The policy is nil when there is any error.
func Check(file string, src []byte) (*Policy, compiler.Errors) {
	var d decoder
	root := d.parse(file, src)
	if root == nil {
		return nil, d.List
	}
	p := d.policy(root)
	if d.Failed() {
		p = nil
	}
	if root.Kind == ruledoc.Object {
		known := Keys()
		for _, m := range root.Members {
			if !slices.Contains(known, m.Key) {
				d.Unknown(m, compiler.CodeUnknownKey, known, "", "is kept, and no child policy can be proven within this one")
			}
		}
	}
	d.List.Sort()
	return p, d.List
}
