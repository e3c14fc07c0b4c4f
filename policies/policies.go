// Package policies holds regate's example policies: the recipes of
// docs/policy.md as files, and the default policy that the regate binary
// embeds. Each names its JSON Schema in "$schema".
package policies

import "embed"

// FS holds every policy, hard-guard and agent file in this folder.
//
//go:embed *.jsonc agents/*.md
var FS embed.FS

// DefaultName is the file name of the bundled default policy.
const DefaultName = "default.jsonc"

// Default returns the bundled default policy.
func Default() []byte {
	b, err := FS.ReadFile(DefaultName)
	if err != nil {
		panic("policies: the default policy is not embedded: " + err.Error())
	}
	return b
}
