package delegation

import (
	"errors"
	"strings"
	"testing"

	"github.com/regate/regate/compiler"
)

var matchCases = []struct {
	pattern, name string
	want          bool
}{
	{"read_*", "read_file", true},
	{"read_*", "read_", true},
	{"read_*", "rea", false},
	{"*", "", true},
	{"*", "a/b", true},
	{"a*b", "a/x/b", true},
	{"?", "é", true},
	{"?", "ab", false},
	{"Read_*", "read_x", false},
	{"x_[0-9]", "x_5", true},
	{"x_[0-9]", "x_a", false},
	{"x_[!0-9]", "x_a", true},
	{"x_[!0-9]", "x_5", false},
	{"[]]", "]", true},
	{"[!]]", "a", true},
	{"a[", "a[", true},
	{"a.b", "axb", false},
	{"a+b", "a+b", true},
	{"[a-]", "-", true},
	{"a\\b", "a\\b", true},
	{"[\\]", "\\", true},
	{"line*", "line\nbreak", true},
}

func TestMatch(t *testing.T) {
	for _, c := range matchCases {
		if got := Match(c.pattern, c.name); got != c.want {
			t.Errorf("Match(%q, %q) = %v; want %v", c.pattern, c.name, got, c.want)
		}
	}
}

func FuzzMatch(f *testing.F) {
	for _, c := range matchCases {
		f.Add(c.pattern, c.name)
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if CheckGlob(pattern) != nil {
			return
		}
		// A literal pattern matches itself; Within is sound against Match.
		if !strings.ContainsAny(pattern, "*?[") && !Match(pattern, pattern) {
			t.Fatalf("%q does not match itself", pattern)
		}
		if Within(name, pattern) && !strings.ContainsAny(name, "*?[") && !Match(pattern, name) {
			t.Fatalf("Within(%q, %q) but the pattern does not match it", name, pattern)
		}
	})
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		c, p string
		want bool
	}{
		{"read_file", "read_*", true},
		{"read_config_*", "read_*", true},
		{"*_file", "read_*", false},
		{"ba*", "*a*", false},           // two stars in the parent: not proven
		{"read_[ab]*", "read_*", false}, // a class is never compared
		{"read_a", "read_[ab]", false},
		{"x_[0-9]", "x_[0-9]", true}, // the same string
		{"x_[0-9]", "*", true},
		{"*", "read_*", false},
		{"ab", "a*b", true},
		{"a*b", "ab*b", false},
		{"aXb", "a*b", true},
		{"ab*", "a*b", false},
		{"a?", "a*", true},
	} {
		if got := Within(c.c, c.p); got != c.want {
			t.Errorf("Within(%q, %q) = %v; want %v", c.c, c.p, got, c.want)
		}
	}
}

func TestParseRate(t *testing.T) {
	for _, s := range []string{"010/hour", "+5/hour", "5/hours", "1/fortnight", "", "/hour", "5", " 5/hour", "9223372036854775808/day"} {
		if _, err := ParseRate(s); err == nil {
			t.Errorf("ParseRate(%q) succeeded", s)
		}
	}
	r, err := ParseRate("0/hour")
	if err != nil || r.Burst != 0 {
		t.Errorf("ParseRate(0/hour) = %v, %v", r, err)
	}
	// 137438953472/second refills 1/86400 a second faster than
	// 11874725579980799/day: only exact integers tell them apart.
	a, _ := ParseRate("137438953472/second")
	b, _ := ParseRate("11874725579980799/day")
	if a.NoLooser(b) {
		t.Error("137438953472/second is looser than 11874725579980799/day")
	}
	c, _ := ParseRate("1/hour")
	d, _ := ParseRate("24/day")
	if !c.NoLooser(d) || d.NoLooser(c) {
		t.Error("1/hour is no looser than 24/day, and 24/day has the bigger burst")
	}
}

func TestParseWindow(t *testing.T) {
	for _, s := range []string{"00:00-24:00", "9:00-17:00", "09:60-10:00", "09:00 17:00", "09:00-17:00 "} {
		if _, err := ParseWindow(s); err == nil {
			t.Errorf("ParseWindow(%q) succeeded", s)
		}
	}
	night, _ := ParseWindow("22:00-06:00")
	inner, _ := ParseWindow("23:00-05:00")
	if !inner.Inside(night) || night.Inside(inner) {
		t.Error("23:00-05:00 is inside 22:00-06:00, not the other way round")
	}
	if !night.Contains(0) || night.Contains(12*60) || !night.Contains(6*60) {
		t.Error("22:00-06:00 contains midnight and 06:00, not noon")
	}
}

// TestEveryFieldIsCompared fails when a field is added to Policy without a
// subset rule that compares it (SubsetProblems fails for it meanwhile).
func TestEveryFieldIsCompared(t *testing.T) {
	if len(uncomparedFields) > 0 {
		t.Fatalf("no subset rule compares %v", uncomparedFields)
	}
}

func TestDecodeErrorsArePositioned(t *testing.T) {
	for _, c := range []struct {
		src, code, at string
	}{
		{"{\n  \"allowed_tools\": \"read_*\"\n}", compiler.CodeWrongType, "p.jsonc:2:20"},
		{"{\n  \"rate_limit_mode\": \"some\"\n}", compiler.CodeOutOfRange, "p.jsonc:2:22"},
		{"{\n  \"denied_tools\": [\"[z-a]\"]\n}", compiler.CodeInvalidGlob, "p.jsonc:2:19"},
		{"{\n  \"amplification_budget\": {\"max_calls\": 3}\n}", compiler.CodeUnknownKey, "p.jsonc:2:28"},
		{"{\n  // comment\n  \"a\": \n}", compiler.CodeSyntax, "p.jsonc:4:1"},
		{"{\n  \"denied_tools\": [\"x\",]\n}", compiler.CodeTrailingComma, "p.jsonc:2:23"},
		{"[]", compiler.CodeWrongType, "p.jsonc:1:1"},
		{"{\n  \"$schema\": 3\n}", compiler.CodeWrongType, "p.jsonc:2:14"},
		// A bound is a number, as the schema says; a number in a string is not one.
		{"{\n  \"amplification_budget\": {\"max_wall_seconds\": \"12\"}\n}", compiler.CodeWrongType, "p.jsonc:2:48"},
		{"{\"x\": " + strings.Repeat("[", 80) + strings.Repeat("]", 80) + "}", compiler.CodeTooDeep, "p.jsonc:1:71"},
	} {
		_, err := Decode("p.jsonc", []byte(c.src))
		var errs compiler.Errors
		if !errors.As(err, &errs) || len(errs) == 0 {
			t.Errorf("%q: err = %v; want compiler.Errors", c.src, err)
			continue
		}
		if errs[0].Code != c.code || errs[0].Pos.String() != c.at {
			t.Errorf("%q: got %s %s; want %s %s", c.src, errs[0].Pos, errs[0].Code, c.at, c.code)
		}
	}
}

// TestCheckReportsUnknownKeys: Decode keeps an unknown key without a
// word, Check warns of it with the key it misspells, and a misspelt
// budget bound is Decode's error, with the suggestion too.
func TestCheckReportsUnknownKeys(t *testing.T) {
	src := []byte("{\n  \"allowed_tool\": [\"read_*\"],\n  \"amplification_budget\": {\"max_call_per_run\": 3}\n}")
	if p, err := Decode("p.jsonc", []byte(`{"allowed_tool": ["read_*"]}`)); err != nil || p.UnknownFields()[0] != "allowed_tool" {
		t.Fatalf("Decode: %v, %v; want the key kept", p, err)
	}
	p, errs := Check("p.jsonc", src)
	want := []string{
		`p.jsonc:2:3: warning: unknown key "allowed_tool" is kept, and no child policy can be proven within this one; did you mean "allowed_tools"? [unknown_key]`,
		`p.jsonc:3:28: error: amplification_budget has no field "max_call_per_run"; did you mean "max_calls_per_run"? [unknown_key]`,
	}
	if p != nil || errs.Error() != strings.Join(want, "\n") {
		t.Errorf("Check: policy %v, diagnostics\n%v\nwant\n%s", p, errs, strings.Join(want, "\n"))
	}
}

func TestDecodeKeepsUnknownAndInvalidValues(t *testing.T) {
	p, err := Decode("p.jsonc", []byte(`{"future_guard": {"on": true}, "rate_limits": {"*": "1/fortnight"}, /* c */ "stdio_mode": "x"}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(p.Unknown["future_guard"]) != `{"on":true}` || string(p.Opaque["stdio_mode"]) != `"x"` || p.RateLimits["*"] != "1/fortnight" {
		t.Fatalf("decoded %+v", p)
	}
	ps := SubsetProblems(p, p)
	if len(ps) != 4 { // the invalid rate and the unknown field, on each side
		t.Fatalf("problems %v; want the invalid rate and future_guard, twice each", ps)
	}
}

// A "$schema" key names the schema for editors: decoded, and ignored by
// the policy and a narrow request alike.
func TestDecodeIgnoresSchemaKey(t *testing.T) {
	const ref = `"$schema": "../compiler/schema/delegation.schema.json"`
	p, err := Decode("p.jsonc", []byte(`{`+ref+`, "allowed_tools": ["read_*"]}`))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := Decode("q.jsonc", []byte(`{"allowed_tools": ["read_*"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Unknown) > 0 || len(SubsetProblems(p, plain)) > 0 || len(SubsetProblems(plain, p)) > 0 {
		t.Fatalf("the $schema key changed the policy: unknown %v, problems %v", p.UnknownFields(), SubsetProblems(p, plain))
	}
	if _, err := DecodeRequest("r.jsonc", []byte(`{`+ref+`, "denied_tools": ["x"]}`)); err != nil {
		t.Fatalf("a narrow request with $schema: %v", err)
	}
}

// FuzzDecode feeds the policy decoder arbitrary documents: it never panics,
// and a policy it accepts (with no unknown field or invalid value) is within
// itself and within it stays whatever Narrow is asked, when Narrow accepts.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{}`,
		`{"allowed_tools": ["read_*", "x_[0-9]"], "denied_tools": ["rm_*"], "rate_limits": {"*": "10/hour", "read_?": "2/minute"}}`,
		`{"time_restrictions": {"deploy_*": "22:00-06:00"}, "escalate_tools": {"wire_*": "r"}, "approver": "a", "standing_grants": ["wire_s"]}`,
		`{"amplification_budget": {"baseline_calls_per_run": 2, "max_amplification_ratio": 1.5, "max_sessions": 3, "action": "warn"}}`,
		`{"allowed_roles": ["ops"], "require_agent_id": true, "reauth_on_untrusted_reinvocation": true, "untrusted_reinvocation_threshold": 2}`,
		`{"allowed_tools": [], "default_deny": true, "stdio_mode": {"a": [1, 2]}} // c`,
		`{"rate_limits": {"*": "010/hour"}, "future": 1}`,
		`[`, `{"allowed_tools": [1]}`, "{\"a\": \"\xff\"}",
	} {
		f.Add([]byte(s), []byte(`{"allowed_tools": ["read_*", "search"], "rate_limits": {"*": "5/hour"}}`))
	}
	f.Fuzz(func(t *testing.T, src, request []byte) {
		p, err := Decode("p.jsonc", src)
		if err != nil {
			var errs compiler.Errors
			if !errors.As(err, &errs) || len(errs) == 0 || errs[0].Pos.Line < 1 {
				t.Fatalf("an error without a position: %v", err)
			}
			return
		}
		if len(p.Unknown) > 0 || len(p.ValueProblems()) > 0 {
			if p.IsSubsetOf(p) {
				t.Fatal("a policy with an unknown field or an invalid value is proven within itself")
			}
			return
		}
		if ps := SubsetProblems(p, p); len(ps) > 0 {
			t.Fatalf("not within itself: %v", ps)
		}
		req, err := DecodeRequest("r.jsonc", request)
		if err != nil {
			return
		}
		n, err := p.Narrow(req)
		if err != nil {
			return
		}
		if ps := SubsetProblems(n, p); len(ps) > 0 {
			t.Fatalf("Narrow(%s) is not within %s: %v", request, src, ps)
		}
	})
}
