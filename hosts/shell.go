package hosts

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// unwrapShell is the script of a command line that only runs a shell on
// it, bash -lc 'SCRIPT' (as Codex joins its shell tool's argv into one
// string); any other command line is decided whole, as bash itself.
func unwrapShell(cmd string) string {
	words, ok := literalWords(cmd)
	if !ok {
		return cmd
	}
	if script, ok := shellScript(words); ok {
		return script
	}
	return cmd
}

// shellScript is SCRIPT of an argv [SHELL, -c|-lc, SCRIPT].
func shellScript(argv []string) (string, bool) {
	if len(argv) != 3 || (argv[1] != "-c" && argv[1] != "-lc") {
		return "", false
	}
	switch path.Base(argv[0]) {
	case "bash", "sh", "zsh", "dash":
		return argv[2], true
	}
	return "", false
}

// literalWords splits a command line that is one simple command of
// literal words (quotes and escapes allowed, nothing the shell would expand
// or redirect) into its words; ok is false for anything else.
func literalWords(cmd string) ([]string, bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil || len(f.Stmts) != 1 {
		return nil, false
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || len(call.Assigns) > 0 {
		return nil, false
	}
	words := make([]string, 0, len(call.Args))
	for _, w := range call.Args {
		var b strings.Builder
		for _, part := range w.Parts {
			switch p := part.(type) {
			case *syntax.Lit:
				if !unquoted(&b, p.Value) {
					return nil, false
				}
			case *syntax.SglQuoted:
				if p.Dollar {
					return nil, false
				}
				b.WriteString(p.Value)
			case *syntax.DblQuoted:
				if p.Dollar {
					return nil, false
				}
				for _, q := range p.Parts {
					lit, ok := q.(*syntax.Lit)
					if !ok {
						return nil, false
					}
					doubleQuoted(&b, lit.Value)
				}
			default:
				return nil, false
			}
		}
		words = append(words, b.String())
	}
	return words, true
}

// unquoted writes an unquoted literal's value, escapes undone; false if it
// holds a character the shell would expand (a glob, a brace, a tilde).
func unquoted(b *strings.Builder, s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
		case strings.IndexByte("*?[{~", c) >= 0:
			return false
		default:
			b.WriteByte(c)
		}
	}
	return true
}

// doubleQuoted writes a double-quoted literal's value: a backslash escapes
// only $ ` " \ and a newline there.
func doubleQuoted(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
}

// heredocPatch finds the patch of a script that runs apply_patch on a
// heredoc, as Codex recognises it: [cd DIR &&] apply_patch <<'EOF' … EOF.
func heredocPatch(script string) (patch, dir string, ok bool) {
	if !strings.Contains(script, "apply_patch") && !strings.Contains(script, "applypatch") {
		return "", "", false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil || len(f.Stmts) != 1 {
		return "", "", false
	}
	st := f.Stmts[0]
	if bin, isBin := st.Cmd.(*syntax.BinaryCmd); isBin {
		if bin.Op != syntax.AndStmt {
			return "", "", false
		}
		cd, isCall := bin.X.Cmd.(*syntax.CallExpr)
		if !isCall || len(cd.Args) != 2 || cd.Args[0].Lit() != "cd" || cd.Args[1].Lit() == "" {
			return "", "", false
		}
		dir, st = cd.Args[1].Lit(), bin.Y
	}
	call, isCall := st.Cmd.(*syntax.CallExpr)
	if !isCall || len(call.Args) != 1 || len(st.Redirs) != 1 {
		return "", "", false
	}
	if name := call.Args[0].Lit(); name != "apply_patch" && name != "applypatch" {
		return "", "", false
	}
	r := st.Redirs[0]
	if (r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc) || r.Hdoc == nil {
		return "", "", false
	}
	body := r.Hdoc.Lit()
	if body == "" {
		return "", "", false
	}
	return body, dir, true
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>(){}[]*?!#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
