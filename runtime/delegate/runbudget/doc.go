// Package runbudget is the nested-run budget of a tree of agent runs
// (shared/spec/delegation.md, "Nested-run budget"): Open sets the depth and
// turns of the whole tree at its root, each Nested run below takes one
// level and draws its turns from what is left, and Tool wraps a tool that
// runs an agent, turning exhaustion into a failed tool result.
//
// The budget rides a context.Context: a goroutine sees it only when it is
// handed the context, and a nested run that finds no budget is refused, not
// unlimited. A tree is safe for concurrent use: siblings on their own
// goroutines draw on the same turns and never overspend them.
package runbudget
