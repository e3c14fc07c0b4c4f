// Package delegation is regate's delegation-ceiling rule set
// (shared/spec/delegation.md): the delegation policy a host gives a child
// agent, Narrow to derive one that can only admit less, SubsetProblems and
// IsSubsetOf to prove a child within its parent, and Compile to turn a
// delegation chain into the data the Rego ceiling (regate.lib.ceiling)
// decides with.
//
// Globs are fnmatchcase globs: "*" matches any run of characters, "/"
// included, "?" one character, "[...]" a class. Coverage of one glob by
// another is decided from the patterns' shape (Within), which is sound and
// not complete: what it cannot prove it refuses.
//
// Rates and windows are compared exactly, in integers: a rate N/period
// becomes a burst N and a refill of N·86400/period per day, and a window a
// set of minutes.
package delegation
