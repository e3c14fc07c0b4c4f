// Package importrules reads the permission rules a coding-agent host
// already has (Claude Code's settings.json permissions, Gemini CLI's policy
// files and settings, Codex's .rules files) and translates them into
// regate rules, each with the position it was read from; regate init
// writes them into the starter policy.jsonc and hard-guards.jsonc.
//
// # Never looser
//
// A host's rule and regate's rule rarely mean exactly the same: regate's
// "*" crosses "/" where gitignore's does not, regate matches a command
// after quote removal, regate's rules cannot see a URL or a subagent's
// name, and the hosts order rules differently (resolve). So every
// translation records whether it came out wider or narrower than the
// host's rule, and the import keeps only what cannot loosen:
//
//   - a restriction (deny, ask) may become wider, with a note saying how,
//     never narrower: one that cannot be written wider is left out and
//     reported;
//   - an allow may become narrower, never wider: one that cannot be
//     written exactly or narrower is left out and reported;
//   - a deny becomes a hard guard, final as in every host imported from;
//   - an allow that regate would let win over an ask the host puts first
//     is left out (resolve), and so is a starter allow such an ask covers
//     (Apply).
//
// Every rule read is in Result.Rules, imported (Targets) or left out
// (Skipped, with why); nothing is dropped without a line saying so.
//
// # Why here
//
// The package lives under hosts/ because what it knows is each host's own
// files and formats, as the codecs beside it know each host's hook
// protocol; it produces rule-file text and leaves compiling to compiler/.
package importrules
