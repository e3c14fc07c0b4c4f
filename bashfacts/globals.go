package bashfacts

import (
	"path"
	"strings"
)

// Inert global options (docs/bash.md, "Inert options"): options a program
// reads before its subcommand that change only how it shows what it does,
// never what it does or where. A unit spelt with them is also its plain
// spelling (Unit.Plain), which the facts put in the unit's own spelling
// group: git --no-pager log meets "git log *" as git log does, allow and
// deny alike, in every mode.
var inertGlobals = map[string]map[string]bool{
	"git": set("--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs", "--glob-pathspecs",
		"--noglob-pathspecs", "--icase-pathspecs", "--no-advice"),
}

// plainText is the unit's text without its program's inert global
// options, "" when it has none. texts are the unit's words; only options
// before the first operand (the subcommand) are dropped, and the first
// option that is not inert ends them.
func plainText(prog string, texts []string, workDirs bool) string {
	inert := inertGlobals[prog]
	if inert == nil || len(texts) < 2 {
		return ""
	}
	end := 1
	for end < len(texts) {
		switch {
		case inert[texts[end]]:
			end++
			continue
		case workDirs && texts[end] == "-C" && end+1 < len(texts):
			end += 2 // git -C DIR inside the folder: as cd DIR && git (gitWorkDir)
			continue
		}
		break
	}
	if end == 1 {
		return ""
	}
	return strings.Join(append([]string{texts[0]}, texts[end:]...), " ")
}

// globalOptions are a program's options before its subcommand: whether
// each takes its value as the next word (--opt=value carries its own).
// coreText drops them all, so that strict mode decides the subcommand by
// the rules that name it however it is reached (git --bare push is a
// push); the options that run or read something else floor by the
// program's model (git -C, -c, --exec-path).
var globalOptions = map[string]map[string]bool{
	"git": {
		"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "--namespace": true, "--config-env": true,
		"--super-prefix": true, "-p": false, "--paginate": false, "-P": false, "--no-pager": false, "--bare": false,
		"--no-replace-objects": false, "--literal-pathspecs": false, "--glob-pathspecs": false,
		"--noglob-pathspecs": false, "--icase-pathspecs": false, "--no-optional-locks": false, "--no-advice": false,
		"--exec-path": false,
	},
}

// coreText is the unit's text without every global option of its program
// (globalOptions), "" when it has none or one regate does not know.
func coreText(prog string, texts []string) string {
	opts := globalOptions[prog]
	if opts == nil {
		return ""
	}
	i := 1
	for i < len(texts) && strings.HasPrefix(texts[i], "-") {
		name, _, attached := strings.Cut(texts[i], "=")
		takesValue, known := opts[name]
		switch {
		case !known || (attached && !strings.HasPrefix(name, "--")):
			return ""
		case takesValue && !attached:
			i += 2
		default:
			i++
		}
	}
	if i == 1 || i >= len(texts) {
		return ""
	}
	return strings.Join(append([]string{texts[0]}, texts[i:]...), " ")
}

// gitWorkDir is the folder git runs in after its -C options, relative to
// dir as Dir.Path is, when each -C names a literal folder below the current
// one (not absolute, not a home form, no ".." component): git then reads
// that folder's repository and resolves its relative paths there, exactly
// as cd DIR && git does, so the unit is decided as that. end is the index
// in args of the first word after the last -C value.
func gitWorkDir(args []string, dir Dir) (moved Dir, end int, ok bool) {
	opts := globalOptions["git"]
	moved, ok = dir, true
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		name, _, attached := strings.Cut(args[i], "=")
		takesValue, known := opts[name]
		switch {
		case !known || (attached && !strings.HasPrefix(name, "--")):
			return dir, 0, false
		case name == "-C":
			if i+1 >= len(args) {
				return dir, 0, false
			}
			v := args[i+1]
			if v == "" || path.IsAbs(v) || strings.HasPrefix(v, "~") || HasDotDot(v) || moved.Unknown {
				ok = false
			}
			moved.Path = path.Join(moved.Path, v)
			if moved.Path == "." {
				moved.Path = ""
			}
			i += 2
			end = i
		case takesValue && !attached:
			i += 2
		default:
			i++
		}
	}
	return moved, end, ok && end > 0
}
