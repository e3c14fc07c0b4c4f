// Package matchkey is the one definition of the candidate keys that join a
// value to the patterns that may match it, shared by the compiler (which
// files each pattern under one key) and facts (which lists the keys of each
// value in the input document). The generated Rego looks a value's keys up
// in the compiled index and confirms what is left to confirm; it never scans
// the rules.
//
// A key is a boundary of the value: "=" and the whole value; "<" and a
// prefix that ends after a space (bash), a "/" (paths) or a ":" (mcp
// targets); ">" and a suffix that starts at the last "/" of a path, after
// it, or at a "." of its base name; "|" and an infix of a path, ".W." between
// two dots or "/W/", a folder name; "^" and its first character. Every value
// has the key "<" (the empty prefix), which the catch-all is filed under. A
// pattern whose literal prefix reaches no boundary is filed under its first
// character ("(*" is exactly the values with "^("; "npm*" waits under "^n"
// to be confirmed), and one with no literal prefix under "<" or, for a
// path, a suffix key.
//
// The keys depend on the value alone, never on the policy, so that one
// document serves any policy. The Rego library computes the same keys for
// a document that does not carry them (regate.lib.decide.keys), such as one
// written by hand for a test; a test holds the two to the same decisions.
package matchkey
