// Package ruledoc is the one decoder under every rule file of regate: the
// permission files (policy.jsonc, hard-guards.jsonc, agent frontmatter),
// delegation policies and requests, and profile config.json files. It
// turns a file into a positioned tree and gives the decoders above it the
// means to walk that tree and report what is wrong, so that every rule
// file gets the same checks and its diagnostics the same shape.
//
// # Diagnostics
//
// A diagnostic is an *Error: a Pos (file, line, column), a stable Code, a
// message for people and a Severity. Package compiler re-exports the type
// (compiler.Error, compiler.Pos, compiler.Errors), which is how every
// caller knows it; this package defines it because the compiler imports
// the decoder. Diags collects the diagnostics of one file: Errorf and
// Warnf add one, Failed tells whether any made the file fail.
//
// # Parsing
//
// Parse reads a JSON document in one of two dialects (JSONC: comments, no
// trailing commas, the permission and delegation files; JSON: neither,
// profile config files) after the
// checks every rule file gets (size, emptiness, UTF-8), and ParseYAML a
// YAML document (agent frontmatter). Both give a tree of *Node: a kind, a
// position, the value, an object's members in file order with the
// position of each key. Nesting past MaxDepth is an error; YAML anchors
// and aliases are refused. A repeated key is warned of and the later
// value wins where it stands, unless the decoder keeps every member to
// give repeats a meaning of its own (Options.KeepDuplicates).
//
// # Reading
//
// A Node's accessors (Text, Boolean, Int64, Float, IsNull) read a value
// without a word; Diags' typed reads (Expect, String, Bool, Int, Strings)
// read one and report a type mismatch, positioned at the value, under
// CodeWrongType. Unknown reports a key that no decoder reads, where the
// key stands, with the known key it most likely misspells (DidYouMean).
package ruledoc
