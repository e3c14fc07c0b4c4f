package bashfacts

import "strings"

// Arguments that turn a program strict mode otherwise lets read into one
// that runs code or deletes files, for the few programs whose reading is
// not data: find's -delete (which finddelete.go follows when it can) and
// printf -v's subscript. The
// rest are the argument models' floors (tar --to-command, git -c, make
// --eval, go -toolexec, rg --pre: docs/strict.md), and sed scripts and
// awk programs are read from their models (code.go).

// codeArgument reports an argument that makes a read-only program run code
// or delete files.
func codeArgument(prog string, args []string) string {
	has := func(pred func(a string) bool) string {
		for _, a := range args {
			if a == "--" {
				break
			}
			if pred(a) {
				return a
			}
		}
		return ""
	}
	why := func(a, what string) string {
		if a == "" {
			return ""
		}
		return prog + " " + a + " " + what
	}
	switch prog {
	case "find":
		_, followed := findDeletes(args) // a deletion regate follows (finddelete.go)
		// -fprint, -fprint0, -fprintf and -fls are writes of the files
		// they name (the model's role write), decided by the write rules.
		return why(has(func(a string) bool { return a == "-delete" && !followed }), "deletes files")
	case "printf":
		for i, a := range args {
			if a == "-v" && i+1 < len(args) && strings.Contains(args[i+1], "[") {
				return why("-v "+args[i+1], "evaluates a subscript")
			}
		}
	}
	return ""
}

func strconvQuote(s string) string {
	if len(s) > 60 {
		s = s[:57] + "…"
	}
	return "'" + s + "'"
}
