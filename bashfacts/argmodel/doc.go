// Package argmodel reads a command's arguments the way the program itself
// parses them, from a table of its options (an argument model), and says
// what every word is: an option, the value of one, or an operand, and the
// role of each value and operand (a pattern, a file read, a file written, …).
//
// Strict mode (docs/strict.md, "Argument models") uses it to replace
// lists of known-bad flags by "every argument understood or the call asks":
// a word the model does not understand (an unknown option, an ambiguous
// abbreviation, a missing value, an expansion where the program reads
// options, more operands than the program takes) is a Problem, and a path
// is decided on its role's surface.
//
// # Models are data
//
// One JSON file per program family under models/, embedded and decoded
// once. A file holds a list of programs:
//
//	{"programs": [{
//	  "names": ["grep", "egrep", "fgrep"],
//	  "options": [
//	    {"names": ["-e", "--regexp"], "arg": "required", "role": "pattern", "sets": ["pattern-given"]},
//	    {"names": ["-r", "--recursive"], "sets": ["recursive"]},
//	    {"names": ["--color", "--colour"], "arg": "optional"}
//	  ],
//	  "operands": [
//	    {"role": "pattern", "unless": ["pattern-given"]},
//	    {"role": "read", "many": true, "unless": ["recursive"]},
//	    {"role": "tree", "many": true, "if": ["recursive"], "default": "."}
//	  ]
//	}]}
//
// A program:
//   - names: the program's names (base names; a path-given program is looked
//     up by its base name).
//   - syntax: "gnu" (the default: getopt_long, short options bundled as in
//     -rn and -A3, --long, --long=value, unambiguous prefixes of long options
//     unless "exact" is set), "single" (every option is an exact word such as
//     find's -name or go's -run, with -name=value when "equals" is set), or
//     "strings" (no options: every word is a string, as echo and test read
//     them).
//   - stop: options end at the first operand (POSIX getopt, or a program
//     that reads a subcommand or an expression there). Without it options
//     and operands mix, as GNU programs permute them. stop_after: N ends
//     them at the operand after N (ssh reads options around its
//     destination, none in the command).
//   - persistent: options the program and every subcommand below it read,
//     wherever they stand (kubectl's global flags, cobra's persistent
//     flags); a subcommand's own option of the same name shadows one.
//   - operands_first: operands come before every option (find's start
//     points); an operand after an option is not understood.
//   - leading_number: the option a first word -NUM stands for (head -5 is
//     head -n 5); "+NUM" too when leading_plus is set (tail +5).
//   - options: names (with their dashes), arg ("none", the default;
//     "required": attached or the next word; "optional": attached only, as
//     getopt's "::" and --opt=value; "attached": the longest run of the
//     option's "chars" that follows its letter in the bundle, never the next
//     word, after which the bundle goes on (perl -l[octal]: -lne is -l -n
//     -e); "next": always the next word not yet taken, never the rest of
//     the bundle, which goes on (bash -oc pipefail CMD is -o pipefail -c
//     CMD; screen -dmS NAME); "choice": the next word when it is one of
//     the option's choices, else none (tsc --strict false); "until":
//     every word up to one of
//     "until", as find -exec … ;), role of the value ("value" by default),
//     sets (modes the option turns on), choices and choice_sets (a value
//     that must be one of choices, by unambiguous prefix, and the modes one
//     turns on: grep -d recurse), floor (a reason the option makes the call
//     ask whatever its value: it runs a command, it reads names regate
//     cannot see).
//   - operands: slots filled in order, each with a role, many (takes every
//     operand left), last (taken from the end: cp's destination), if and
//     unless (modes that must all be on, or all off, for the slot to
//     count) and default (the operand the program uses when the many slot
//     gets none: grep -r reads "."). An operand no slot takes is not
//     understood. A slot with assign in place of a role takes operands
//     NAME=value, the value in the role the map gives NAME (dd:
//     {"if": "read", "of": "write", "bs": "value", …}); an operand without
//     "=", or whose NAME the map does not hold, is not understood. A
//     slot of role command (or command-line) takes every operand left as
//     the command the program runs, after the NAME=value words a program
//     with assignments sets in its environment (env A=1 rm x); its
//     line_flags are words that, first in it, make the one word after
//     them a command line (flock FILE -c CMD). A command-line slot with
//     each makes every operand a line of its own (tmux send-keys 'ls'
//     Enter), and one with as gives its line to that program rather than
//     to a shell (tmux if-shell COND 'run-shell "rm x"' is read as tmux
//     run-shell "rm x"). When a wrapper's options
//     are not understood before its command, the words past them (and
//     past the operands the model takes first) are read as the command,
//     so that a rule that denies it still meets it.
//   - A slot marked program takes the file holding the code the program
//     runs (python f.py): given "-", or no operand while the slot applies,
//     the program reads its code from standard input (Result.StdinCode).
//   - assignments: an operand NAME=value is a value, not a file (awk).
//   - plus_commands: a reason the program floors a +WORD in an option
//     position (less +cmd runs less commands, shell escapes included).
//   - double_dash (single syntax): --name is read as -name (go's flags).
//   - wrapper: one of the specification's indirection wrappers (sudo, env,
//     xargs, timeout, nice, time, …): its unit is floored to ask whatever
//     its arguments, and the command it runs is decided as a unit of its
//     own. A program given an option whose value is a command (find
//     -exec, fd -x) is one too.
//   - dash_option: the option a lone "-" stands for where the first operand
//     would be (env - is env -i); dash_ends: a lone "-" ends the options,
//     as "--" does (bash - FILE); dash_dash_sets: modes "--" turns on
//     (php -- ARGS reads its program from standard input).
//   - opaque: one of the specification's opaque-payload wrappers (bash,
//     sh, dash, zsh, ksh): a one-word command-line slot ({"role":
//     "command-line", "if": ["command"]}, which -c turns on) is the
//     payload, decided as a command of its own; arguments the model does
//     not understand floor the unit as the wrapper too, since they may
//     hide a -c (an opaque model has no floors, so that a problem means
//     exactly that). A word of the host's environment's variables alone
//     where options are read is not understood either: unset, it is no
//     word at all.
//   - strict_wrapper: a program that runs another command only strict
//     mode looks into (npx, su -c); strict_runs: one only when it is
//     given a command line (mksh -c CMD, fish -c CMD; mksh FILE runs a
//     script, as python FILE does).
//   - plus: a word beginning with "+" is a bundle of short options as one
//     beginning with "-" is (a shell's +o NAME, +e, +c); an option named
//     "+X" is read for +X in place of -X (mksh's +c turns -c off).
//   - single_dash_long: a long option is also spelt with one dash, tried
//     before the word is read as a bundle (bash -norc, -rcfile FILE).
//   - long_flags (with exact): a long option the model does not list is a
//     flag without a value (zsh and ksh take every name of set -o as
//     --NAME, and refuse one they do not know).
//   - subcommands: programs in the same format, chosen by the first operand
//     (git status); the program must set stop. subcommand_prefixes: a
//     subcommand is also named by an unambiguous prefix of its first name
//     (tmux new-sess); separator: a word that ends a subcommand's words,
//     another subcommand following it (tmux new -d CMD \; attach; a word
//     that ends with it is not understood). An operand that names no
//     subcommand is not understood, unless default_subcommand names the
//     subcommand that reads it as its own first operand (yarn build is
//     yarn run build). Such a program's every own command must then be
//     a subcommand, or it would be read as the default one.
//   - then (with then_after, a number of operands): the words after that
//     many operands are a command of the program then names, read with
//     its model (yarn workspace NAME CMD… is yarn CMD…; with then_after
//     0 every word is, options included: yarn node ARGS… is node
//     ARGS…).
//   - floors: reasons the call asks when their modes hold once every
//     option is read ({"if": ["extract"], "unless": ["to-stdout"]}: tar
//     -x writes files whose names regate cannot see); a floor without
//     modes always applies (git remote add).
//   - assignments_floor: a reason a NAME=value operand makes the call ask
//     (make CC=sh: a variable can name the commands recipes run).
//   - old_bundle: a first word without a dash is a bundle of short
//     options whose values are the next words, in order (tar czf x.tgz).
//   - bsd_options: one-letter options without a dash, read from every
//     word that begins with a letter where options are read, as a bundle
//     (ps aux, ps e: procps's BSD options, which differ from its -e and
//     the other System V ones); retry: Conds under which the program may
//     reject its arguments at run time and read them again, every dash
//     bundle as BSD options (ps -aux is ps aux, ps -uxe prints
//     environments for want of a user "xe"). A call is then decided by
//     both readings: the second when the model does not understand the
//     first (the program rejects it too), and the second's floor when
//     the program may fall back to it (bsd.go).
//   - short_pairs: two-letter short options (zip's -ds, -tt) are read
//     before one-letter ones in a bundle, as zip does.
//   - short_equals: an attached short value may begin with "=" (clap's
//     -A=3 is -A 3: rg, fd).
//   - negate: every long option that sets no mode also reads as
//     --no-NAME, without a value (git's parse-options, curl). A negation
//     that would turn a mode off is not generated, so that it is not
//     understood rather than read as leaving the mode on.
//
// More option fields:
//   - arg "words" with words: the option takes that many separate words,
//     each with its role (jq --rawfile NAME FILE: ["value", "read"]).
//   - until_open (arg "until"): the value may run to the last word when
//     no word of until ends it (fd -x cmd); until_option: a word that
//     begins with "-" ends it and is read as an option (zip -x a b -r).
//   - role_when: the value's role under modes, decided once every option
//     is read (tar -f is written under -c, read under -t; find -name
//     names the files -exec runs on).
//   - at_file: a value "@NAME" names a file in the option's role, any
//     other value is a plain value (curl -d @file).
//   - prefix_roles: the role of a value that begins with a prefix (rg -g
//     '!*.lock' excludes: {"!": "pattern"}).
//   - ends: options end after this one, every word after it an operand
//     (python -c CMD and -m MOD: the rest are the program's arguments).
//   - modules (with ends): a value that names one of these modules hands
//     the words after it to the model of the program the map gives
//     (python -m pytest -x is read as pytest -x).
//   - stdin: the program reads its code from standard input (bash -s),
//     as a program slot without an operand says. On a program, stdin
//     says it does so whatever its arguments (python -m pdb reads
//     debugger commands there, python -m code a console's lines).
//   - default (with arg "optional"): the file the option names when it
//     is given without a value (deno run --env-file reads .env).
//   - word_filters (with arg "words"): the filter of each of the words,
//     "" for none (python -m zipfile -e ZIP DIR: DIR is the archive-dir).
//   - floor_if_contains: the floor applies only to a value that holds one
//     of these strings (curl -F name=@file); slots take floor and
//     floor_if_contains too (git config NAME VALUE sets configuration).
//   - inert_values: a regular expression of the values that make an
//     option with a floor inert (git -c core.pager=cat): no floor, and a
//     global option a spelling drops, as "inert" (bashfacts/globals.go).
//   - accepts: a regular expression of the values the program always
//     accepts; another value, or an expansion, turns on the mode
//     may-reject, for retry (ps -u NAME: a user that does not exist).
//
// A value or operand may hold its path among other text (form, on an
// option or a slot): "remote" (HOST:PATH, with a ":" before any "/", is a
// place on another host or in a container, a value), "volume" (docker -v
// SRC:DST[:OPTIONS], SRC a host path when it begins with /, . or ~),
// "mount" (docker --mount type=bind,source=…, read as CSV as docker
// does), "key" ([KEY=]PATH). A writable mount of a host folder, or one of
// a device, a socket or the kernel's file systems, floors. keywords make
// an option's value KEYWORD=VALUE or KEYWORD VALUE, the keyword in any
// case (ssh -o): VALUE takes the role the map gives the keyword, and a
// keyword the map does not hold is not understood. "download" is a URL
// whose file the program saves under the name the URL gives it (wget),
// in the folder an option with download_dir names (wget -P).
//
// A value or operand in the url role whose scheme is file: (or a curl
// glob that may spell one) is not understood: it is a local path regate
// does not read out of the URL.
//
// # Roles
//
// command (a word of a command the program runs: timeout 5 rm x, find
// -exec rm {} ;; Result.Runs gathers them and bashfacts decides each as
// a unit), command-line (a word of a command line a shell joins and
// parses: watch 'ls | wc', flock F -c 'rm x'), command-split (a string
// the program splits into words itself, which then stand in the option's
// place among its arguments: env -S 'rm x'),
// pattern (a regex, glob or search string: never a file), read (a file the
// program reads), stat (a path examined, never opened for its contents:
// its name, type, size and times as ls, stat and find show them, or its
// place in git's index and history as git ls-files, git rm --cached and
// git log without a patch use it; strict mode leaves it to the base rules
// alone, as a string), list (a folder a program works in or from, such as
// make -C, or a file it uses without printing it: gated on the path
// surface), write (created or truncated), edit (changed in place, or appended to),
// tree (a folder read recursively), tree-visible (a folder read
// recursively but for hidden files and those ignore files name: rg
// without --hidden or --no-ignore), tree-write (a folder whose every
// entry the program deletes or changes: rm -r, chmod -R; facts walks it
// on the path and write surfaces), patch (a patch whose files the
// program writes: git apply; facts reads the patch, and the filters
// "strip" and "directory" carry -p and --directory), archive (an archive
// whose entries the program writes: unzip, tar -x; facts reads it as the
// program's archive_format, "zip" or "tar", says, the filters
// "archive-dir" and "archive-strip" carry -d, -C and --strip-components,
// and the modes "junk-paths", "lower-names" and "print-entries" unzip -j,
// -L and -p), code (a script the
// program runs; a program's "language", sed, awk or jq, is one regate
// reads for the files the code opens, the commands it runs and, for awk
// and jq, whether it prints the whole environment), args (the words
// a program hands to the code it runs: python f.py ARGS, which keep the
// spec's reading), shell (a word of a command a shell runs on another host,
// which may be this one: ssh's command keeps the spec's reading),
// url, string (text the program prints or compares), value (any other
// option value, such as -n 5).
package argmodel
