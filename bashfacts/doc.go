// Package bashfacts decomposes a bash command into the facts regate decides
// on: the units it runs, where each was found, which are wrappers, and the
// words it may use as files. It reads with mvdan.cc/sh/v3 (bash dialect) and
// never decides anything.
//
// # Entry point
//
// Extract(src) returns Facts: Units and Tokens, each in source order, with
// positions. It returns an error wrapping a *syntax.ParseError (or
// LangError) when the command does not parse, and ErrLimit when it is past a
// limit; the caller must then treat the command as unparseable.
//
// # Units
//
// A unit is one command: every command of a chain (&&, ||, ;, |, |&, &,
// newline), of a command or process substitution (wherever it stands:
// arguments, assignments, redirect targets, interpolating heredoc bodies,
// ${x:-…}, $((…)), [[ … ]]), of a subshell, of the conditions and bodies of
// compound statements (whose own text is a unit too), and the command a
// wrapper runs. Its Text is rebuilt from its words after quote removal,
// without leading assignments and redirects; an expansion keeps its source
// text and sets Dynamic. Origin names where it was found. command, builtin
// and exec are transparent.
//
// # Wrappers
//
// Opaque wrappers (bash, sh, dash, zsh, ksh with -c; eval) and indirection
// wrappers (sudo, doas, env, xargs, nohup, timeout, nice, setsid, stdbuf,
// watch, flock, parallel, rust-parallel, rush, time, find/fd with an exec
// flag) set Unit.Wrapper. The command an indirection wrapper runs, after the
// wrapper's own options, is a nested unit; a literal -c or eval payload is
// parsed and its units are nested units too.
//
// # Path tokens
//
// Tokens are dotfiles, words with a slash, home forms (~, $HOME, ${HOME}),
// redirect targets (always), path-shaped --opt=value values, programs given
// by path, and bare names (Bare: a path only if it exists, which the caller
// checks). Flags, NAME=value, URLs, words with other expansions and the
// pattern operands of grep, egrep, fgrep, rg, sed, awk and sd are not. Each
// token carries the effective directory (Dir) after literal cd commands;
// pipeline stages, background jobs, subshells and substitutions do not leak
// a cd, and a cd to anything but a literal makes it unknown.
//
// # Limits
//
// Input longer than MaxBytes (1 MiB), a NUL byte, or units nested deeper than
// MaxDepth (64) return ErrLimit: the command asks unless a rule denies its
// whole text (D3). So do brackets nested past MaxNesting, more than
// MaxOperators pipe and list operators, and a command past the work budget
// (budget.go: MaxWords walked, MaxTokens path tokens, MaxBraceGroups in one
// word, a cd chain's directory past MaxDirBytes). Parsing and extraction are
// linear in the input, and FuzzExtract holds the package to its invariants.
package bashfacts
