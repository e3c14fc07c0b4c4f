package bashfacts

import "strings"

// Arguments that turn a program strict mode otherwise lets read into one
// that runs code or writes files: sed's e and w, awk's system(), find's
// -exec, git -c, tar's --to-command, and the like (docs/strict.md).

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
	case "sed", "gsed":
		return sedScripts(args)
	case "awk", "gawk", "mawk", "nawk":
		return awkProgram(prog, args)
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

// sedScripts finds e, w and W commands and the e and w flags of s in sed's
// scripts (-e, --expression, or the first operand); -f reads a script regate
// cannot see.
func sedScripts(args []string) string {
	var scripts []string
	explicit := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" || a == "--expression":
			explicit = true
			if i+1 < len(args) {
				scripts = append(scripts, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "--expression="):
			explicit = true
			scripts = append(scripts, strings.TrimPrefix(a, "--expression="))
		case a == "-f" || a == "--file" || strings.HasPrefix(a, "--file="):
			return "sed " + a + " runs a script regate cannot see"
		case strings.HasPrefix(a, "-") && len(a) > 1 && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "ef"):
			if strings.Contains(a, "f") {
				return "sed " + a + " runs a script regate cannot see"
			}
			explicit = true
			if i+1 < len(args) {
				scripts = append(scripts, args[i+1])
				i++
			}
		case strings.HasPrefix(a, "-"):
		default:
			if !explicit {
				scripts = append(scripts, a)
				explicit = true
			}
		}
	}
	for _, s := range scripts {
		if c := sedRuns(s); c != "" {
			return "sed script " + strconvQuote(s) + " " + c
		}
	}
	return ""
}

// sedRuns scans one sed script for commands that run or write.
func sedRuns(s string) string {
	i := 0
	for i < len(s) {
		// Skip separators, blanks, addresses and negation.
		for i < len(s) && strings.ContainsRune(" \t\n;{}!,$0123456789~+", rune(s[i])) {
			i++
		}
		if i >= len(s) {
			return ""
		}
		switch c := s[i]; c {
		case '/', '\\':
			i = skipDelimited(s, i) // an address /re/ or \cREc
			continue
		case 'e':
			return "runs a shell command (e)"
		case 'w', 'W':
			return "writes a file (" + string(c) + ")"
		case 's', 'y':
			if i+1 >= len(s) {
				return ""
			}
			d := s[i+1]
			j := i + 2
			for parts := 0; parts < 2 && j <= len(s); parts++ {
				for j < len(s) && s[j] != d {
					if s[j] == '\\' {
						j++
					}
					j++
				}
				j++
			}
			if j > len(s) {
				return ""
			}
			for j < len(s) && !strings.ContainsRune(";\n}", rune(s[j])) {
				if c == 's' && s[j] == 'e' {
					return "runs the replacement as a command (s///e)"
				}
				if c == 's' && (s[j] == 'w' || s[j] == 'W') {
					return "writes a file (s///w)"
				}
				j++
			}
			i = j
		case 'a', 'i', 'c', 'r', 'R', 'b', 't', 'T', ':', 'q', 'Q', 'l', 'L':
			// Text or a label or a file name up to the end of the line.
			for i < len(s) && s[i] != '\n' && (c == 'a' || c == 'i' || c == 'c' || c == 'r' || c == 'R' || s[i] != ';') {
				i++
			}
		default:
			i++
		}
	}
	return ""
}

// skipDelimited skips /re/ or \cREc starting at i.
func skipDelimited(s string, i int) int {
	d := s[i]
	if d == '\\' {
		if i+1 >= len(s) {
			return len(s)
		}
		i++
		d = s[i]
	}
	for i++; i < len(s) && s[i] != d; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i + 1
}

// awkProgram finds what awk's program (the first operand, unless -f names
// a file) does beyond reading its input and printing: system(), pipes,
// files read with getline or written by print's redirections, and gawk's
// @include, @load and -i (gawk -i inplace rewrites its input files).
func awkProgram(prog string, args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || strings.HasPrefix(a, "--file") || a == "-E" || strings.HasPrefix(a, "--exec"):
			return prog + " " + a + " runs a program regate cannot see"
		case a == "-i" || strings.HasPrefix(a, "--include") || strings.HasPrefix(a, "-i") && !strings.HasPrefix(a, "--"):
			return prog + " " + a + " includes a library (gawk -i inplace rewrites its input files)"
		case a == "-F" || a == "-v" || a == "--assign" || a == "--field-separator":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return awkCode(prog, a)
		}
	}
	return ""
}

// awkCode is why an awk program floors, or "". It reads the text as a
// whole, not awk's grammar, so it may ask for a harmless program (a
// comparison after print: print ($1 > 2)), never the other way.
func awkCode(prog, code string) string {
	switch {
	case strings.Contains(code, "system(") || strings.Contains(code, "system ("):
		return prog + " program calls system()"
	case strings.Contains(code, "getline"):
		return prog + " program reads with getline, from a file or a command regate does not gate"
	case strings.Contains(code, "@include") || strings.Contains(code, "@load"):
		return prog + " program includes a file regate cannot see"
	}
	for j := 0; j < len(code); j++ {
		if code[j] == '|' && (j+1 >= len(code) || code[j+1] != '|') && (j == 0 || code[j-1] != '|') {
			return prog + " program pipes to or from a command"
		}
	}
	// print and printf write to a file after ">" or ">>" in the same
	// statement.
	for _, stmt := range strings.FieldsFunc(code, func(r rune) bool { return r == ';' || r == '}' || r == '{' || r == '\n' }) {
		if k := strings.Index(stmt, "print"); k >= 0 && strings.Contains(stmt[k:], ">") {
			return prog + " program writes a file with print >"
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
