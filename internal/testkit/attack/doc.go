// Package attack holds issue 19's fuzzed attack family: a deterministic
// generator of bash commands that aim at the secrets of a fixture home and
// project, and a judge that runs every command the bundled default policy
// allows in real bash under strace -f and holds what it did to the same
// policy.
//
// # The generator
//
// Generate(seed, n, layout) builds n commands, the same for the same
// arguments. Each combines a target (a secret of the fixture: .env,
// .env.local, sub/.env, key.pem, the link to .env, ~/.ssh/id_rsa; or a
// harmless file), a spelling of its path (forms.go's roles, paths.go's
// spellings: relative, absolute, ~, $HOME, $PWD, $(pwd), ~+, /proc/self/cwd,
// a link and .., //, quotes and escapes, globs of every bash syntax, braces,
// variables and substitutions set earlier in the command), an option form of
// an allowed or a common read-only program (bundles, GNU abbreviations,
// empty operands, options after operands, --, redirects and descriptors),
// a spelling of the program word (path, quotes, wrappers, variable, alias,
// function), a construct around the unit (eval, bash -c, groups, loops,
// substitutions, trap) and a composition (&&, ;, ||, pipes, redirects of
// output). Every part is a tag on the shape.
//
// # The fixture
//
// NewFixture lays a home (~/.ssh/id_rsa, ~/.bashrc, ~/.gitconfig) and a
// project under it (a git repository with .env, .env.local, .env.example,
// key.pem, src/main.go, README.md, sub/.env, link -> .env and
// keys -> ../.ssh) in a temporary folder, and Reset puts it back after
// every run, so each decision and each run sees the same files. Commands
// run with HOME at the fixture's home and the project as the working folder.
//
// # The judge
//
// Judge.Try decides a command with the bundled default policy (strict on),
// compiled with the fixture's home as ~ and deciding on the real file
// system, without a decision cache. An allowed command is run as
// bash --norc --noprofile -c CMD under strace -f, standard input from
// /dev/null, with a timeout, and every traced event is held to the policy:
//
//   - a file opened for reading inside the fixture (or a well-known secret
//     outside it) must be allowed to the read tool; a folder listed by a
//     program must be allowed to the ls tool (bash's own listing while it
//     expands a glob yields names only and is left out);
//   - a file opened for writing, created, renamed, linked or removed must be
//     allowed to the write tool (the default policy asks for every write, so
//     any write is a finding), except /dev and /proc, bash's here-document
//     files and git's index lock;
//   - a program executed must be allowed as a bash command of its base name
//     and its arguments, decided where the process stood, except the bash
//     that launched the command and git's helpers.
//
// A command whose output shows a secret while no finding explains it is a
// finding too: the judge missed a path.
//
// # Known classes
//
// testdata/tolerated.txt lists the disagreement classes known while their
// fixes land: the tags a shape carries, a probe (a minimal command of the
// class) and the text. TestAttackFamily fails on any disagreement
// no class covers and logs how many each class covered;
// TestToleratedProbes decides every probe and runs it under strace: it
// must be allowed and do what it must not, so the list is a list of proven
// bypasses, and a probe the policy no longer allows names the line to
// remove.
//
// # Running it
//
// go test ./internal/testkit/attack/ runs 1,000 shapes of seed 1 (about 20 s on two
// cores); REGATE_ATTACK_N and REGATE_ATTACK_SEED ask for another family,
// REGATE_ATTACK_DUMP=FILE writes every result as JSON lines, and
// REGATE_ATTACK_VERBOSE=1 logs the tolerated disagreements too. The tests
// skip where bash, git or strace (or ptrace) is missing.
package attack
