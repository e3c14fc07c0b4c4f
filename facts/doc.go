// Package facts turns one tool call into the input document that regate's
// Rego library decides on. It extracts facts and never decides.
//
// # The input document
//
//	{
//	  "tool": "read",              // the tool's registered name
//	  "unregistered": false,       // the session lists tools and this is not one
//	  "agent": "reviewer",         // the active agent, if any
//	  "floor": "ask",              // a shell tool's decisionFloor, if any
//	  "checks": [                  // every value the call is gated on, in order
//	    {"surface": "path", "value": ".env",
//	     "forms": [[".env", "/home/u/repo/.env"], ["/home/u/repo/.env", ".env"]]},
//	    {"surface": "read", "value": ".env", "forms": […]}
//	  ]
//	}
//
// A check's forms are groups of spellings of its value; the most specific
// rule is found within each group and the most restrictive group wins. For a
// path the groups are the referenced and the canonical (symlink-resolved)
// spellings; for mcp, the derived targets; for skill, the name; for bash, the
// command.
//
// Each check also lists, per group, its candidate keys ("keys": the
// spellings' exact, prefix and suffix keys, package internal/matchkey), so
// that the compiled rules are found by lookups instead of a scan. The keys
// are an input feature, not a decision: a document without them decides
// the same, the Rego computing them (regate.lib.decide.keys).
//
// # Paths
//
// A path is expanded (~, $HOME, ${HOME}), normalised lexically, made
// absolute against the effective directory and, inside the cwd, relative to
// it. Symbolic links are resolved through FS, which has a virtual twin
// (MapFS) for tests, component by component as the kernel does
// (resolve.go): when a ".." makes the kernel's place differ from the
// cleaned path's (link/.. is the folder of the link's target), that place
// is a spelling group too. /proc/self and /dev/fd are the command's own
// process. A link whose target is absent resolves to that target; a loop
// or a permission error fails closed to ask. On a file system that folds
// case (Env.FoldCase; FoldsCase probes it, FoldMapFS fakes it) each
// existing component is also spelt as the disk lists it (casefold.go).
//
// # Tools
//
// read, write, edit, find, grep and ls are gated on their path (find, grep
// and ls default to "."), on the path surface and on their own surface.
// grep's search filter ("glob") is gated as the paths it names: as written,
// joined with the search path, and expanded below it (filter.go). mcp is
// gated on its targets and on arguments.path. skill is gated on its name.
// bash, and every shellTools alias, is gated on its command; an alias's
// workdir is gated as a path. Any other tool is gated on its own surface,
// and on input.path when it has one; a tool none of these is, a host's
// tool no table maps, also on every other path its input holds, by field
// name or by value (toolpaths.go).
//
// # Strict facts
//
// Checks marked strict_only count only under a policy's "strict"
// (docs/strict.md). Among them: a write to a file that configures
// execution (execconfig.go) carries a strict reason on its write and edit
// checks; the paths a recursive read of a folder reaches (tree.go) are one
// check whose "within" names the folder, a deny among them asking instead.
//
// # Malformed input
//
// A path-bearing argument regate cannot read as a path (a file tool's path
// absent or empty, a path or filter that is not a string) adds a check with
// Malformed set, which the library floors to ask; every string inside the
// argument is gated as a path as well (args.go).
//
// # Limits
//
// Build bounds the work of one call (budget.go): a path past MaxPathBytes
// (PATH_MAX) is not resolved and asks, file-system probes past MaxProbes
// make what is left to resolve, expand or walk ask, and a call of more than
// MaxChecks checks becomes one check that asks.
package facts
