// Package statedir keeps, in a folder, what a short-lived process such as
// a `regate hook` call must neither redo nor lose between calls: the
// compiled policy, keyed by the hash of the rule files it came from, and
// the approvals of each session under that policy.
//
//	<root>/<policy hash>/compiled.json
//	<root>/<policy hash>/sessions/<sha256 of the session id>.jsonl
//
// Every folder is 0700 and every file 0600. The compiled policy is
// written to a temporary file and renamed into place, so a reader sees a
// whole file or none; approvals are appended one JSON line at a time, so
// concurrent hook processes of one session never overwrite each other.
// Approvals live under the policy's hash: after an edit to the rules, the
// approvals given under the old rules no longer apply (more prompting,
// never less). A cache that cannot be read is bypassed, never trusted: the
// policy is compiled again.
package statedir
