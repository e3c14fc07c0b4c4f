package ruledoc_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/regate/regate/compiler/internal/ruledoc"
)

// render is the diagnostics as "line:col severity code", one per entry.
func render(es ruledoc.Errors) []string {
	var out []string
	for _, e := range es {
		out = append(out, fmt.Sprintf("%d:%d %s %s", e.Pos.Line, e.Pos.Col, e.Severity, e.Code))
	}
	return out
}

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		opts  ruledoc.Options
		src   string
		diags []string
		tree  bool   // a tree comes back
		keys  string // the root's keys, in order, when it is an object
	}{
		{name: "comments", src: "// c\n{\"a\": 1 /* c */}", tree: true, keys: "a"},
		{name: "trailing comma in JSONC", src: "{\"a\": [1,],\n \"b\": 2,\n}", tree: true, keys: "a b",
			diags: []string{"2:8 error jsonc_trailing_comma", "1:9 error jsonc_trailing_comma"}},
		{name: "comment in JSON", opts: ruledoc.Options{Dialect: ruledoc.JSON}, src: "\n  {\"a\": 1} /* c */", diags: []string{"2:3 error jsonc_syntax"}},
		{name: "trailing comma in JSON", opts: ruledoc.Options{Dialect: ruledoc.JSON}, src: `{"a": 1,}`, diags: []string{"1:1 error jsonc_syntax"}},
		{name: "standard JSON", opts: ruledoc.Options{Dialect: ruledoc.JSON}, src: `{"a": 1}`, tree: true, keys: "a"},
		{name: "syntax error", src: "{\n\"a\" 1}", diags: []string{"2:5 error jsonc_syntax"}},
		{name: "empty", src: " \n ", diags: []string{"1:1 error empty_file"}},
		{name: "invalid UTF-8", src: "{\"a\":\n\"\xff\"}", diags: []string{"2:2 error invalid_utf8"}},
		{name: "too large", src: strings.Repeat(" ", ruledoc.MaxFileSize) + "{}", diags: []string{"1:1 error file_too_large"}},
		// The root is at depth 0, so MaxDepth+1 levels are allowed.
		{name: "too deep", src: strings.Repeat("[", ruledoc.MaxDepth+2) + strings.Repeat("]", ruledoc.MaxDepth+2)},
		{name: "as deep as allowed", src: strings.Repeat("[", ruledoc.MaxDepth+1) + strings.Repeat("]", ruledoc.MaxDepth+1), tree: true},
		{name: "duplicate key", src: "{\"a\": 1,\n \"b\": 2,\n \"a\": 3}", tree: true, keys: "b a",
			diags: []string{"3:2 warning duplicate_key"}},
		{name: "duplicates kept", opts: ruledoc.Options{KeepDuplicates: true}, src: `{"a": 1, "b": 2, "a": 3}`, tree: true, keys: "a b a"},
		{name: "huge number", src: `[1e400]`, diags: []string{"1:2 error jsonc_syntax"}},
		{name: "huge number kept", opts: ruledoc.Options{KeepHugeNumbers: true}, src: `[1e400]`, tree: true},
		{name: "escaped key", src: `{"\u0061\"": 1}`, tree: true, keys: `a"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d ruledoc.Diags
			n := ruledoc.Parse("f.jsonc", []byte(tt.src), tt.opts, &d)
			if tt.name == "too deep" {
				// The one diagnostic whose position is not worth spelling out.
				if n != nil || len(d.List) != 1 || d.List[0].Code != ruledoc.CodeTooDeep {
					t.Fatalf("tree %v, diagnostics %v; want none and one %s", n, d.List, ruledoc.CodeTooDeep)
				}
				return
			}
			if diff := cmp.Diff(tt.diags, render(d.List)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if (n != nil) != tt.tree {
				t.Fatalf("tree %v; want one: %v", n, tt.tree)
			}
			if n == nil || n.Kind != ruledoc.Object {
				return
			}
			var keys []string
			for _, m := range n.Members {
				keys = append(keys, m.Key)
			}
			if got := strings.Join(keys, " "); got != tt.keys {
				t.Errorf("keys %q; want %q", got, tt.keys)
			}
		})
	}
}

func TestDuplicateKeyLaterWins(t *testing.T) {
	var d ruledoc.Diags
	n := ruledoc.Parse("f.jsonc", []byte(`{"a": 1, "a": 2}`), ruledoc.Options{}, &d)
	if got := n.Get("a"); got == nil || got.Num != 2 {
		t.Fatalf("a = %v; want the later value, 2", got)
	}
	if want := `duplicate key "a" (first at f.jsonc:1:2); the later value wins`; d.List[0].Msg != want {
		t.Errorf("message %q; want %q", d.List[0].Msg, want)
	}
}

func TestHugeNumberKept(t *testing.T) {
	var d ruledoc.Diags
	n := ruledoc.Parse("f.jsonc", []byte(`[-1e400]`), ruledoc.Options{KeepHugeNumbers: true}, &d)
	e := n.Elems[0]
	if e.Str != "-1e400" || !math.IsInf(e.Num, -1) {
		t.Fatalf("kept %q %v; want -1e400 as written, -Inf", e.Str, e.Num)
	}
	if _, ok := e.Float(); ok {
		t.Error("Float read an infinite number")
	}
}

func parseOne(t *testing.T, src string) *ruledoc.Node {
	t.Helper()
	var d ruledoc.Diags
	n := ruledoc.Parse("f.jsonc", []byte(src), ruledoc.Options{}, &d)
	if n == nil || len(d.List) > 0 {
		t.Fatalf("parse %q: %v", src, d.List)
	}
	return n
}

// TestTypedReads holds each checked read to its value, its diagnostic and
// its position.
func TestTypedReads(t *testing.T) {
	tests := []struct {
		src  string
		read func(d *ruledoc.Diags, n *ruledoc.Node) any
		want any
		msg  string // the one diagnostic, "" for none
	}{
		{`"x"`, readString, "x", ""},
		{`1`, readString, "", "1:1 error wrong_type: v must be a string, not number"},
		{`true`, readBool, true, ""},
		{`null`, readBool, false, "1:1 error wrong_type: v must be a boolean, not null"},
		{`7`, readInt, 7, ""},
		{`1.5`, readInt, 0, "1:1 error wrong_type: v must be a whole number, not 1.5"},
		{`11`, readInt, 0, "1:1 error value_out_of_range: v is 11; it must be between 0 and 10"},
		{`"7"`, readInt, 0, "1:1 error wrong_type: v must be a number, not string"},
		{`["a", "b"]`, readStrings, []string{"a", "b"}, ""},
		{`["a", 2]`, readStrings, []string{"a"}, "1:7 error wrong_type: v entry must be a string, not number"},
		{`{}`, readStrings, []string{}, "1:1 error wrong_type: v must be an array, not object"},
		{`{"k": 1}`, readObject, true, ""},
		{`[]`, readObject, false, "1:1 error wrong_type: v must be an object, not array"},
	}
	for _, tt := range tests {
		var d ruledoc.Diags
		got := tt.read(&d, parseOne(t, tt.src))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: value (-want +got):\n%s", tt.src, diff)
		}
		var msgs []string
		for _, e := range d.List {
			msgs = append(msgs, fmt.Sprintf("%d:%d %s %s: %s", e.Pos.Line, e.Pos.Col, e.Severity, e.Code, e.Msg))
		}
		if got := strings.Join(msgs, "\n"); got != tt.msg {
			t.Errorf("%s: diagnostics %q; want %q", tt.src, got, tt.msg)
		}
	}
}

func readString(d *ruledoc.Diags, n *ruledoc.Node) any {
	var s string
	d.String(n, "v", &s)
	return s
}

func readBool(d *ruledoc.Diags, n *ruledoc.Node) any {
	var b bool
	d.Bool(n, "v", &b)
	return b
}

func readInt(d *ruledoc.Diags, n *ruledoc.Node) any {
	var i int
	d.Int(n, "v", 0, 10, &i)
	return i
}

func readStrings(d *ruledoc.Diags, n *ruledoc.Node) any { return d.Strings(n, "v") }

func readObject(d *ruledoc.Diags, n *ruledoc.Node) any { return d.Expect(n, ruledoc.Object, "v") }

// TestAccessors holds the silent reads to what encoding/json accepts.
func TestAccessors(t *testing.T) {
	tests := []struct {
		src     string
		int64   any // the value, or false when Int64 refuses
		float   any
		text    any
		boolean any
	}{
		{`12`, int64(12), 12.0, false, false},
		{`-0`, int64(0), 0.0, false, false},
		{`1.0`, false, 1.0, false, false},
		{`1e3`, false, 1000.0, false, false},
		{`9223372036854775808`, false, 9223372036854775808.0, false, false},
		{`"12"`, false, false, "12", false},
		{`false`, false, false, false, false},
		{`true`, false, false, false, true},
		{`null`, false, false, false, false},
	}
	or := func(v any, ok bool) any {
		if !ok {
			return false
		}
		return v
	}
	for _, tt := range tests {
		n := parseOne(t, tt.src)
		if got := or(n.Int64()); got != tt.int64 {
			t.Errorf("%s: Int64 %v; want %v", tt.src, got, tt.int64)
		}
		if got := or(n.Float()); got != tt.float {
			t.Errorf("%s: Float %v; want %v", tt.src, got, tt.float)
		}
		if got := or(n.Text()); got != tt.text {
			t.Errorf("%s: Text %v; want %v", tt.src, got, tt.text)
		}
		if b, ok := n.Boolean(); ok != (tt.src == "true" || tt.src == "false") || b != (tt.boolean == true) {
			t.Errorf("%s: Boolean %v %v; want %v", tt.src, b, ok, tt.boolean)
		}
	}
}

func TestStandard(t *testing.T) {
	n := parseOne(t, "{\"a\": [1, /* c */ 2], // c\n \"b\": {\"c\": null}}")
	if got := string(n.Get("a").Standard()); got != "[1,2]" {
		t.Errorf("Standard %s; want [1,2]", got)
	}
	if got := string(n.Standard()); got != `{"a":[1,2],"b":{"c":null}}` {
		t.Errorf("Standard %s", got)
	}
}

func TestUnknown(t *testing.T) {
	n := parseOne(t, "{\n  \"permision\": 1, \"zzz\": 2}")
	var d ruledoc.Diags
	known := []string{"name", "permission"}
	for _, m := range n.Members {
		d.Unknown(m, "code", known, "the file", "is ignored")
	}
	want := []string{
		`f.jsonc:2:3: warning: unknown key "permision" in the file is ignored; did you mean "permission"? [code]`,
		`f.jsonc:2:19: warning: unknown key "zzz" in the file is ignored [code]`,
	}
	if diff := cmp.Diff(want, strings.Split(d.List.Error(), "\n")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if d.Failed() {
		t.Error("an unknown key failed the file")
	}
}

func TestParseYAML(t *testing.T) {
	tests := []struct {
		name, src string
		diags     []string
		tree      bool
	}{
		{name: "map", src: "name: a\npermission:\n  read: deny\n", tree: true},
		{name: "empty", src: ""},
		{name: "anchor", src: "a: &x 1\nb: *x\n", diags: []string{"2:4 error frontmatter_syntax"}},
		{name: "syntax", src: "a: [\n", diags: []string{"2:1 error frontmatter_syntax"}},
		{name: "duplicate", src: "a: 1\na: 2\n", tree: true, diags: []string{"3:1 warning duplicate_key"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d ruledoc.Diags
			n, ok := ruledoc.ParseYAML("a.md", []byte(tt.src), 2, &d)
			if diff := cmp.Diff(tt.diags, render(d.List)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if ok != (d.Failed() == false) || (n != nil) != tt.tree {
				t.Errorf("tree %v, ok %v", n, ok)
			}
		})
	}
}
