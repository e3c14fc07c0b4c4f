// Package releasewatch reads the tool declarations a coding-agent host
// ships, so that a test notices a tool that a new release adds before a
// user does: a tool regate's adapter does not list would otherwise reach
// the rules under a name nobody reviewed.
//
// Declarations reads Claude Code's sdk-tools.d.ts (the tool input types
// generated from its JSON schemas): the members of the ToolInputSchemas
// union and each one's top-level fields. A Fixture is the same, as the
// text the repository keeps for the pinned release (hosts/testdata).
package releasewatch
