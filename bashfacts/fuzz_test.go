package bashfacts

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzExtract checks Extract's invariants on any input: it never panics,
// every position lies inside the source, a unit whose words carry an
// expansion is marked dynamic, and an input it refuses is refused with a
// parse error or a limit, never anything else.
func FuzzExtract(f *testing.F) {
	for _, src := range extractTable {
		f.Add(src)
	}
	for _, src := range conformanceCommands(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		facts, err := Extract(src)
		if err != nil {
			var pe syntax.ParseError
			var le syntax.LangError
			if !errors.As(err, &pe) && !errors.As(err, &le) && !errors.Is(err, ErrLimit) {
				t.Fatalf("Extract(%q): unexpected error kind %T: %v", src, err, err)
			}
			return
		}
		for _, u := range facts.Units {
			checkPos(t, src, u.Pos)
		}
		for _, tok := range facts.Tokens {
			checkPos(t, src, tok.Pos)
			if tok.Value == "" {
				t.Errorf("Extract(%q): empty token at %s", src, tok.Pos)
			}
		}
		checkDynamic(t, src, facts)
	})
}

func checkPos(t *testing.T, src string, p Pos) {
	t.Helper()
	if p.Offset < 0 || p.Offset > len(src) || p.Line < 1 || p.Col < 1 {
		t.Fatalf("position %+v outside the %d-byte source %q", p, len(src), src)
	}
}

// checkDynamic: every top-level simple command whose arguments hold an
// expansion must come out as a dynamic unit at its position.
func checkDynamic(t *testing.T, src string, facts *Facts) {
	t.Helper()
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		return
	}
	for _, st := range file.Stmts {
		ce, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(ce.Args) == 0 || !expands(ce.Args) {
			continue
		}
		// command, builtin and exec (after quote removal) are transparent:
		// the unit starts at the command they run.
		if name, _ := (&walker{src: src}).literal(ce.Args[0]); name == "command" || name == "builtin" || name == "exec" {
			continue
		}
		found := false
		for _, u := range facts.Units {
			if u.Pos.Offset == int(ce.Pos().Offset()) && u.Origin == "" {
				found = found || u.Dynamic
			}
		}
		if !found {
			t.Fatalf("Extract(%q): the command at %d has an expansion but no dynamic unit: %+v", src, ce.Pos().Offset(), facts.Units)
		}
	}
}

func expands(words []*syntax.Word) bool {
	dynamic := false
	for _, w := range words {
		syntax.Walk(w, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob:
				dynamic = true
			}
			return !dynamic
		})
	}
	return dynamic
}

// conformanceCommands are the bash commands of the permission suite, when
// the copy under testdata is there.
func conformanceCommands(tb testing.TB) []string {
	fh, err := os.Open("../testdata/conformance/permission.jsonl")
	if err != nil {
		return nil
	}
	defer fh.Close()
	var out []string
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c struct {
			Call struct {
				Input map[string]any `json:"input"`
			} `json:"call"`
		}
		if json.Unmarshal(sc.Bytes(), &c) != nil {
			continue
		}
		for _, k := range []string{"command", "cmd"} {
			if s, ok := c.Call.Input[k].(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// pathological inputs must come back, decomposed or refused, never hang or
// crash (D3). Their cost is measured by BenchmarkExtractPathological.
var pathological = map[string]string{
	"10000 nested $(":        strings.Repeat("$(", 10000) + strings.Repeat(")", 10000),
	"10000 nested subshells": strings.Repeat("(", 10000) + "ls" + strings.Repeat(")", 10000),
	"unclosed $( x 10000":    strings.Repeat("echo $(", 10000),
	"20000-unit chain":       strings.Repeat("ls && ", 20000) + "ls",
	"long word":              "echo " + strings.Repeat("a", 500000),
	"over the size limit":    strings.Repeat("a", MaxBytes+1),
	"NUL byte":               "ls\x00rm -rf /",
	"deep wrappers":          strings.Repeat("sudo ", 1000) + "rm x",
	"deep payloads":          strings.Repeat("eval ", 100) + "rm x",
}

func TestPathological(t *testing.T) {
	for name, src := range pathological {
		t.Run(name, func(t *testing.T) {
			f, err := Extract(src)
			if err == nil && len(f.Units) == 0 {
				t.Fatalf("no error and no unit")
			}
		})
	}
	for _, name := range []string{"10000 nested $(", "over the size limit", "NUL byte", "deep wrappers"} {
		if _, err := Extract(pathological[name]); !errors.Is(err, ErrLimit) {
			t.Errorf("%s: err = %v, want ErrLimit", name, err)
		}
	}
}

func BenchmarkExtract(b *testing.B) {
	src := `cd /repo && FOO=1 git log --oneline | grep -v "$(whoami)" > out.txt && sudo rm -rf build`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Extract(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExtractPathological(b *testing.B) {
	for _, name := range []string{"10000 nested $(", "20000-unit chain"} {
		src := pathological[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Extract(src)
			}
		})
	}
}
