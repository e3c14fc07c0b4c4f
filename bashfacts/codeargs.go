package bashfacts

import "strings"

// Arguments that turn a program strict mode otherwise lets read into one
// that runs code or writes files: find's -fprint, git -c, tar's
// --to-command, and the like (docs/strict.md). sed scripts and awk
// programs are read from their argument models (code.go).

// codeArgument reports an argument that makes a read-only program run code
// or write files.
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
	flag := func(names ...string) func(string) bool {
		return func(a string) bool {
			name, _, _ := strings.Cut(a, "=")
			for _, n := range names {
				if name == n || (len(n) == 2 && n[0] == '-' && n[1] != '-' && strings.HasPrefix(a, n) && len(a) > 2) {
					return true
				}
			}
			return false
		}
	}
	why := func(a, what string) string {
		if a == "" {
			return ""
		}
		return prog + " " + a + " " + what
	}
	switch prog {
	case "tar", "bsdtar", "gtar":
		if a := has(flag("--to-command", "--checkpoint-action", "--use-compress-program", "--info-script", "--new-volume-script", "-I", "-F")); a != "" {
			return why(a, "runs a command")
		}
		return why(has(func(a string) bool {
			return len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "IF")
		}), "runs a command")
	case "zip":
		return why(has(flag("-TT", "--unzip-command")), "runs a command")
	case "rg":
		return why(has(func(a string) bool { return a == "--pre" || strings.HasPrefix(a, "--pre=") }), "runs a preprocessor command")
	case "find":
		_, followed := findDeletes(args) // a deletion regate follows (finddelete.go)
		return why(has(func(a string) bool {
			switch a {
			case "-delete":
				return !followed
			case "-fprint", "-fprint0", "-fprintf", "-fls":
				return true
			}
			return false
		}), "deletes or writes files")
	case "git":
		if a := has(func(a string) bool { return a == "--output" || strings.HasPrefix(a, "--output=") }); a != "" {
			return why(a, "writes a file")
		}
		// Global options come before the subcommand.
		for i := 0; i < len(args) && strings.HasPrefix(args[i], "-"); i++ {
			switch a := args[i]; {
			case a == "-c" || a == "--config-env" || strings.HasPrefix(a, "--config-env=") || (strings.HasPrefix(a, "-c") && len(a) > 2):
				return why(a, "sets configuration that can run commands")
			case a == "-p" || a == "--paginate":
				return why(a, "runs the configured pager")
			case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
				i++ // the option's value
			}
		}
	case "tree":
		return why(has(flag("-o")), "writes a file")
	case "sftp": // ssh and scp read -o through their models (ssh.json)
		for i, a := range args {
			v := ""
			switch {
			case a == "-o" && i+1 < len(args):
				v = args[i+1]
			case strings.HasPrefix(a, "-o"):
				v = a[2:]
			default:
				continue
			}
			fields := strings.FieldsFunc(v, func(r rune) bool { return r == '=' || r == ' ' || r == '\t' })
			if len(fields) == 0 {
				continue
			}
			key := strings.ToLower(fields[0])
			if key == "proxycommand" || key == "localcommand" || key == "permitlocalcommand" || key == "knownhostscommand" {
				return why("-o "+v, "runs a local command")
			}
		}
	case "make", "gmake":
		return why(has(flag("--eval", "-E")), "evaluates makefile text")
	case "go":
		return why(has(func(a string) bool {
			name, _, _ := strings.Cut(strings.TrimPrefix(a, "-"), "=")
			return strings.HasPrefix(a, "-") && (name == "exec" || name == "-exec" || name == "toolexec" || name == "-toolexec")
		}), "runs a command")
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
