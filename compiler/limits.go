package compiler

import "github.com/regate/regate/compiler/internal/ruledoc"

// MaxFileSize bounds every rule file. A larger file is refused as a whole
// (and its layer fails closed) rather than half-read.
const MaxFileSize = ruledoc.MaxFileSize

// MaxRules bounds the rules of one permission map (all surfaces), and
// MaxPatternLength one pattern, in bytes. Past either, the file has an
// error and its layer fails closed. Both are far above any policy written
// by hand: the benchmarks compile 10,000 rules.
const (
	MaxRules         = 100_000
	MaxPatternLength = 4096
)

// diags collects the diagnostics of one file.
type diags = ruledoc.Diags

// parseJSONC parses a permission rule file: JSONC, comments allowed and
// trailing commas not, as the policy format says (docs/policy.md). A
// trailing comma is reported but leaves a whole tree, so decoding goes on
// and every other problem of the file is reported too; the file still
// fails closed. The tree is nil when the file cannot be used.
func parseJSONC(file string, src []byte, d *diags) *ruledoc.Node {
	return ruledoc.Parse(file, src, ruledoc.Options{Dialect: ruledoc.JSONC}, d)
}

// unknownKey warns of a key that no permission decoder reads: it is
// ignored, with the key of known it most likely misspells.
func unknownKey(d *diags, m ruledoc.Member, known []string, where string) {
	d.Unknown(m, CodeUnknownKey, known, where, "is ignored")
}
