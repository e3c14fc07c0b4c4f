// Package statedir keeps, in a folder, what a short-lived process such as
// a `regate hook` call must neither redo nor lose between calls: the
// compiled policy, keyed by the hash of the rule files it came from, the
// decisions made (Decisions), and the approvals of each session, keyed by
// the policy's identity.
//
//	<root>/<policy hash>/compiled.json
//	<root>/<policy hash>/meta.json      the compiled policy without rules or modules
//	<root>/decisions/<2 hex>/<key>       a decision, with its MAC
//	<root>/key                           the MAC key of the decisions
//	<root>/sessions/<digest of the session id>/<digest of the policy>.jsonl
//	<root>/sessions/<digest of the session id>/<digest of the policy>.policy
//
// A hook call reads meta.json first (Meta): when a stored decision answers
// the call, neither the rules nor OPA are loaded.
//
// The identity of a policy is the caller's: regate names a policy file by
// its absolute, symlink-resolved path, and the bundled default policy by
// a name of its own. An approval therefore outlives an edit of the rules
// (a session approval is a person's answer for the rest of the session,
// and the hard guards still deny whatever it approves), while an approval
// given for one policy file never applies under another. The .policy file
// records that a hook decided a call of the session under that policy
// (Seen), so that `regate approve` can file an approval where the hook
// will read it, and refuse one it never would.
//
// Every folder is 0700 and every file 0600. The compiled policy is
// written to a temporary file and renamed into place, so a reader sees a
// whole file or none; approvals are appended one JSON line at a time, so
// concurrent hook processes of one session never overwrite each other. A
// cache that cannot be read is bypassed, never trusted: the policy is
// compiled again. Policies and sessions left untouched for 30 days are
// removed when a new policy is compiled.
//
// The package lives with its only users, the commands of cmd/regate;
// regate serve keeps its sessions in memory.
package statedir
