package importrules

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.starlark.net/syntax"
)

// CodexFiles are Codex's rule files: the user's $CODEX_HOME/rules/*.rules
// (default ~/.codex/rules) and config.toml, and the project's
// .codex/rules/*.rules in dir (which Codex reads once the project is
// trusted).
func CodexFiles(home, dir string) []string {
	user := filepath.Join(home, ".codex")
	if d := os.Getenv("CODEX_HOME"); d != "" {
		user = d
	}
	var files []string
	for _, base := range []string{user, filepath.Join(dir, ".codex")} {
		rules, _ := filepath.Glob(filepath.Join(base, "rules", "*.rules"))
		sort.Strings(rules)
		files = append(files, rules...)
	}
	return append(files, filepath.Join(user, "config.toml"))
}

// Codex imports the prefix_rule calls of Codex's .rules files (Starlark,
// read as syntax and never run) and reports the approval settings of its
// config.toml, which are not rules. Codex applies the strictest matching
// rule: forbidden, then prompt, then allow.
func Codex(files []string, home string) (Result, error) {
	res := Result{Host: "codex", home: home}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return res, err
		}
		res.Files = append(res.Files, f)
		if strings.HasSuffix(f, ".toml") {
			notes, err := codexConfig(f, src)
			if err != nil {
				return res, err
			}
			res.Notes = append(res.Notes, notes...)
			continue
		}
		rules, err := codexRules(f, src)
		if err != nil {
			return res, err
		}
		res.Rules = append(res.Rules, rules...)
	}
	resolve(&res)
	return res, nil
}

// codexRules reads one .rules file. Only literal prefix_rule calls are
// read; any other statement (a variable, a loop, host_executable) is
// reported and left out, since reading it would mean running the file.
func codexRules(file string, src []byte) ([]Rule, error) {
	f, err := syntax.LegacyFileOptions().Parse(file, src, 0)
	if err != nil {
		return nil, err
	}
	var out []Rule
	for _, st := range f.Stmts {
		start, _ := st.Span()
		pos := Pos{File: file, Line: int(start.Line), Col: int(start.Col)}
		call, ok := callOf(st)
		if !ok || call.name != "prefix_rule" {
			what := "a statement"
			if ok {
				what = call.name + "(…)"
			}
			out = append(out, skip(pos, what, "", "only prefix_rule(…) calls are imported"))
			continue
		}
		out = append(out, codexRule(pos, call))
	}
	return out, nil
}

// A starCall is a call statement: its function name and keyword arguments.
type starCall struct {
	name string
	args map[string]syntax.Expr
	bad  string
}

func callOf(st syntax.Stmt) (starCall, bool) {
	es, ok := st.(*syntax.ExprStmt)
	if !ok {
		return starCall{}, false
	}
	ce, ok := es.X.(*syntax.CallExpr)
	if !ok {
		return starCall{}, false
	}
	id, ok := ce.Fn.(*syntax.Ident)
	if !ok {
		return starCall{}, false
	}
	c := starCall{name: id.Name, args: map[string]syntax.Expr{}}
	for _, a := range ce.Args {
		kw, ok := a.(*syntax.BinaryExpr)
		if !ok || kw.Op != syntax.EQ {
			c.bad = "a positional argument"
			continue
		}
		if k, ok := kw.X.(*syntax.Ident); ok {
			c.args[k.Name] = kw.Y
		}
	}
	return c, true
}

// codexRule translates one prefix_rule: its pattern is a list of tokens,
// each a string or a list of alternatives, that a command's words must
// start with; decision is allow (the default), prompt or forbidden.
func codexRule(pos Pos, c starCall) Rule {
	r := Rule{From: pos, Text: "prefix_rule(pattern=…)", Action: Allow}
	decision := "allow"
	if d, ok := c.args["decision"]; ok {
		s, ok := starString(d)
		if !ok {
			r.Skipped = "decision is not a string"
			return r
		}
		decision = s
	}
	switch decision {
	case "allow":
		r.Action = Allow
	case "prompt":
		r.Action = Ask
	case "forbidden":
		r.Action = Deny
	default:
		r.Skipped = fmt.Sprintf("decision %q is not allow, prompt or forbidden", decision)
		return r
	}
	r.order = claudeOrder(r.Action) // the strictest rule wins, as in Claude Code
	if c.bad != "" {
		r.Skipped = c.bad + " is not read"
		return r
	}
	tokens, ok := starTokens(c.args["pattern"])
	if !ok || len(tokens) == 0 {
		r.Skipped = "pattern is not a list of strings and lists of strings"
		return r
	}
	r.Text = "prefix_rule(pattern=" + renderTokens(tokens) + ", decision=" + fmt.Sprintf("%q", decision) + ")"
	reason := ""
	if j, ok := starString(c.args["justification"]); ok {
		reason = j
	} else if r.Action == Deny {
		reason = "Codex's rules forbid it (" + r.Text + ")"
	}
	var t translation
	prefixes := []string{""}
	for _, alts := range tokens {
		var next []string
		for _, p := range prefixes {
			for _, a := range alts {
				if strings.ContainsAny(a, " \t*?'\"") {
					t.widen(fmt.Sprintf("the token %q is matched as text after quote removal, where * and ? are wildcards and a space splits words", a))
					a = strings.NewReplacer("'", "", `"`, "").Replace(a)
				}
				next = append(next, strings.TrimPrefix(p+" "+a, " "))
			}
		}
		if len(next) > 64 {
			r.Skipped = "more than 64 commands"
			return r
		}
		prefixes = next
	}
	for i, p := range prefixes {
		prefixes[i] = p + " *"
	}
	note, why := t.settle(r.Action)
	if why != "" {
		r.Skipped = why
		return r
	}
	r.Note = note
	r.Targets = targets(r.Action, reason, []string{"bash"}, prefixes)
	return r
}

func starString(e syntax.Expr) (string, bool) {
	lit, ok := e.(*syntax.Literal)
	if !ok || lit.Token != syntax.STRING {
		return "", false
	}
	s, ok := lit.Value.(string)
	return s, ok
}

// starTokens reads a pattern: each element a string or a list of strings.
func starTokens(e syntax.Expr) ([][]string, bool) {
	list, ok := e.(*syntax.ListExpr)
	if !ok {
		return nil, false
	}
	var out [][]string
	for _, el := range list.List {
		if s, ok := starString(el); ok {
			out = append(out, []string{s})
			continue
		}
		alts, ok := el.(*syntax.ListExpr)
		if !ok || len(alts.List) == 0 {
			return nil, false
		}
		var group []string
		for _, a := range alts.List {
			s, ok := starString(a)
			if !ok {
				return nil, false
			}
			group = append(group, s)
		}
		out = append(out, group)
	}
	return out, true
}

func renderTokens(tokens [][]string) string {
	var parts []string
	for _, alts := range tokens {
		q := make([]string, len(alts))
		for i, a := range alts {
			q[i] = fmt.Sprintf("%q", a)
		}
		if len(q) == 1 {
			parts = append(parts, q[0])
		} else {
			parts = append(parts, "["+strings.Join(q, ", ")+"]")
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// codexConfig reports config.toml's approval settings: they say when Codex
// asks, not what it allows, and regate decides every call by its rules.
func codexConfig(file string, src []byte) ([]string, error) {
	top, _, err := readTOML(file, src)
	if err != nil {
		return nil, err
	}
	var notes []string
	for _, key := range []string{"approval_policy", "sandbox_mode"} {
		if v, ok := top.keys[key]; ok {
			notes = append(notes, fmt.Sprintf("%s: %s = %q is not imported: it says when Codex asks or what its sandbox lets through, not a rule; regate decides every call by its rules", v.pos, key, v.str))
		}
	}
	return notes, nil
}
