package bashfacts

import (
	"path"
	"strings"

	"github.com/regate/regate/bashfacts/argmodel"
)

// Global options (docs/bash.md, "Inert options") are the options a
// program with subcommands reads before its subcommand, as its argument
// model lists them (argmodel.Global): git -C, -c, --no-pager. The inert
// ones change only how the program shows what it does, never what it does
// or where: a unit spelt with them is also its plain spelling
// (Unit.Plain), which the facts put in the unit's own spelling group, so
// git --no-pager log meets "git log *" as git log does, allow and deny
// alike, in every mode.

// plainText is the unit's text without its program's inert global
// options, "" when it has none. texts are the unit's words; only options
// before the first operand (the subcommand) are dropped, and the first
// option that is not inert ends them.
func plainText(prog string, texts []string, workDirs bool) string {
	if len(texts) < 2 {
		return ""
	}
	end := 1
	for end < len(texts) {
		switch _, inert, _ := argmodel.Global(prog, texts[end]); {
		case inert:
			end++
			continue
		case end+1 < len(texts) && argmodel.InertValue(prog, texts[end], texts[end+1]):
			end += 2 // git -c core.pager=cat
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

// coreText is the unit's text without every global option of its
// program, so that strict mode decides the subcommand by the rules that
// name it however it is reached (git --bare push is a push; the options
// that run or read something else floor by the program's model: git -C,
// -c, --exec-path). "" when it has none, or one regate does not know.
func coreText(prog string, texts []string) string {
	i := skipGlobals(prog, texts[1:]) + 1
	if i <= 1 || i >= len(texts) {
		return ""
	}
	return strings.Join(append([]string{texts[0]}, texts[i:]...), " ")
}

// skipGlobals returns the index in args of the first word after the
// program's global options (its subcommand), or -1 when one of them is
// not one its model knows.
func skipGlobals(prog string, args []string) int {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		name, _, attached := strings.Cut(args[i], "=")
		takesValue, _, known := argmodel.Global(prog, name)
		switch {
		case !known || (attached && !strings.HasPrefix(name, "--")):
			return -1
		case takesValue && !attached:
			i += 2
		default:
			i++
		}
	}
	return i
}

// gitWorkDir is the folder git runs in after its -C options, relative to
// dir as Dir.Path is, when each -C names a literal folder below the current
// one (not absolute, not a home form, no ".." component): git then reads
// that folder's repository and resolves its relative paths there, exactly
// as cd DIR && git does, so the unit is decided as that. end is the index
// in args of the first word after the last -C value.
func gitWorkDir(args []string, dir Dir) (moved Dir, end int, ok bool) {
	moved, ok = dir, true
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		name, _, attached := strings.Cut(args[i], "=")
		takesValue, _, known := argmodel.Global("git", name)
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
