// Package profile is regate's profile-binding rule set (docs/profiles.md;
// the keys of config.json are in docs/policy.md and
// compiler/schema/profile-config.schema.json): which prompt profile applies
// to a model. Compile decodes the global and project config.json files and the
// profiles/<id>.md bodies, with positioned diagnostics under the upstream
// codes (config-parse, config-version, binding-conflict, ...), drops
// invalid parts as the upstream extension does (never widening a rule),
// reports unknown keys with the key they most likely misspell, and
// turns the rest into the data the Rego resolution (regate.lib.profile)
// reads: bindings with their priority and the specificity of each rule
// precomputed, and every profile expanded through its bases into layers or
// marked invalid.
//
// ReadFolder reads a scope's folder from disk the safe way: config.json
// and profiles/<id>.md, regular files only, opened without waiting and
// read no further than their caps; the profiles folder listed, never
// globbed, and never followed through a symbolic link (profile-symlink);
// one entry that cannot be used is skipped with a positioned diagnostic
// whose file name is escaped (DisplayName).
//
// Compose is the composition of the managed block: the begin marker, the
// control statement, the layers most specific first and the end marker,
// prepended exactly once to the host's prompt.
package profile
