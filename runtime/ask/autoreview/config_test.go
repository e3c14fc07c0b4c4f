package autoreview

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/runtime"
	"github.com/regate/regate/runtime/ask"
)

func compilePolicy(t *testing.T, autoReview string) *compiler.Output {
	t.Helper()
	src := `{"permission": {"*": "allow"}, "authorizerChain": ["auto-review"], "autoReview": ` + autoReview + `}`
	out, err := compiler.Compile(compiler.Input{Policy: &compiler.Source{Name: "policy.jsonc", Data: []byte(src)}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestConfigValidation holds each row of the spec's autoReview table: the
// bounds are compile errors at the value's position; a half-pinned pair is
// a warning, and the reviewer it builds defers every ask.
func TestConfigValidation(t *testing.T) {
	for _, c := range []struct {
		autoReview string
		code       string // "" when valid
		severity   compiler.Severity
	}{
		{`{}`, "", ""},
		{`{"enabled": false}`, "", ""},
		{`{"provider": "openai", "model": "gpt-4o-mini"}`, "", ""},
		{`{"provider": "openai"}`, compiler.CodeAutoReviewPair, compiler.SeverityWarning},
		{`{"model": "gpt-4o-mini"}`, compiler.CodeAutoReviewPair, compiler.SeverityWarning},
		{`{"timeoutMs": 1}`, "", ""},
		{`{"timeoutMs": 300000}`, "", ""},
		{`{"timeoutMs": 0}`, compiler.CodeOutOfRange, compiler.SeverityError},
		{`{"timeoutMs": 300001}`, compiler.CodeOutOfRange, compiler.SeverityError},
		{`{"maxAttempts": 1}`, "", ""},
		{`{"maxAttempts": 5}`, "", ""},
		{`{"maxAttempts": 0}`, compiler.CodeOutOfRange, compiler.SeverityError},
		{`{"maxAttempts": 6}`, compiler.CodeOutOfRange, compiler.SeverityError},
		{`{"maxAttempts": 2.5}`, compiler.CodeWrongType, compiler.SeverityError},
		{`{"maxOutputTokens": 256}`, "", ""},
		{`{"maxOutputTokens": 32000}`, "", ""},
		{`{"maxOutputTokens": 255}`, compiler.CodeOutOfRange, compiler.SeverityError},
		{`{"maxOutputTokens": 32001}`, compiler.CodeOutOfRange, compiler.SeverityError},
		{`{"reasoning": "off"}`, "", ""},
		{`{"reasoning": "xhigh"}`, "", ""},
		{`{"reasoning": "max"}`, compiler.CodeOutOfRange, compiler.SeverityError},
		{`{"enabled": "yes"}`, compiler.CodeWrongType, compiler.SeverityError},
		{`{"transcript": {"maxUntrustedEntries": 5}}`, "", ""},
	} {
		t.Run(c.autoReview, func(t *testing.T) {
			out := compilePolicy(t, c.autoReview)
			var got *compiler.Error
			for _, d := range out.Diagnostics {
				if d.Code != compiler.CodeBashFallback { // the fixture's own, not autoReview's
					got = d
					break
				}
			}
			switch {
			case c.code == "" && got != nil:
				t.Errorf("unexpected diagnostic %v", got)
			case c.code != "" && (got == nil || got.Code != c.code || got.Severity != c.severity):
				t.Errorf("diagnostic %v; want %s %s", got, c.severity, c.code)
			case got != nil && got.Pos.Line == 0:
				t.Errorf("diagnostic without a position: %v", got)
			}
		})
	}
}

// TestFromPolicy: a pinned pair uses the resolved provider and model; no
// pair follows the session's model at each ask; a half pair or an
// unresolvable provider warns once and defers every ask; a disabled
// reviewer is never registered.
func TestFromPolicy(t *testing.T) {
	approving := &fakeProvider{reply: func(_ int64, req Request) (Reply, error) {
		return Reply{ToolCalls: []ToolCall{call("approve", `{"reason":"`+req.Model+`"}`)}}, nil
	}}
	resolve := func(id string) (Provider, error) {
		if id == "openai" {
			return approving, nil
		}
		return nil, errors.New("unknown provider")
	}
	sessionModel := "model-a"
	host := Host{Resolve: resolve, Session: approving, SessionModel: func() string { return sessionModel }}
	review := func(ar compiler.AutoReview, msg string) ask.Verdict {
		chain := ask.NewChain([]string{Name}, ask.HeadlessDeny, nil)
		Register(chain, ar, host)
		return chain.Resolve(context.Background(), askFor(msg, "make"))
	}
	ar := compilePolicy(t, `{"provider": "openai", "model": "pinned-1"}`).Knobs.AutoReview
	if v := review(ar, "m1"); v.Action != "allow" || !strings.Contains(v.Reason, "pinned-1") {
		t.Errorf("pinned: %+v", v)
	}
	follow := compilePolicy(t, `{}`).Knobs.AutoReview
	if v := review(follow, "m2"); !strings.Contains(v.Reason, "model-a") {
		t.Errorf("following the session: %+v", v)
	}
	sessionModel = "model-b" // a mid-session switch applies to the next ask
	if v := review(follow, "m3"); !strings.Contains(v.Reason, "model-b") {
		t.Errorf("after a model switch: %+v", v)
	}
	if _, warning := FromPolicy(follow, Host{}); warning != "" {
		t.Errorf("following a session without a model warns: %q", warning)
	}
	for _, bad := range []string{`{"provider": "openai"}`, `{"provider": "nowhere", "model": "m"}`} {
		ar := compilePolicy(t, bad).Knobs.AutoReview
		if _, warning := FromPolicy(ar, host); !strings.Contains(warning, "cannot run") {
			t.Errorf("%s: warning %q", bad, warning)
		}
		if v := review(ar, "m4"); v.Action != "deny" || v.By != "terminal" {
			t.Errorf("%s: a reviewer that cannot run must defer to the terminal: %+v", bad, v)
		}
	}
	off := compilePolicy(t, `{"enabled": false, "provider": "openai", "model": "m"}`).Knobs.AutoReview
	if r, _ := Register(ask.NewChain(nil, nil, nil), off, host); r != nil {
		t.Error("a disabled reviewer was registered")
	}
	if v := review(off, "m5"); v.By != "terminal" {
		t.Errorf("disabled: %+v", v)
	}
	cfg, _ := FromPolicy(ar, host)
	if cfg.Timeout != 30*time.Second || cfg.MaxAttempts != 2 || cfg.MaxOutputTokens != 4000 || cfg.Reasoning != "low" || cfg.Budget.MaxUntrustedEntries != 40 {
		t.Errorf("defaults: %+v", cfg)
	}
}

// TestOutcomesReachTheReviewLog: each review outcome is a review-log line
// with the resolved model, the outcome, the reason, attempts and usage;
// sensitive-keyed input stays masked.
func TestOutcomesReachTheReviewLog(t *testing.T) {
	dir := t.TempDir()
	log, err := runtime.OpenLog(dir, ask.ReviewLogFile, 1000)
	if err != nil {
		t.Fatal(err)
	}
	p := &fakeProvider{reply: func(n int64, _ Request) (Reply, error) {
		if n == 1 {
			return Reply{}, errors.New("503")
		}
		return Reply{ToolCalls: []ToolCall{call("reject", `{"reason":"not what the user asked"}`)}, Usage: Usage{InputTokens: 120, OutputTokens: 9}}, nil
	}}
	r := New(Config{Provider: p, Model: "m-1", Log: log})
	a := askFor("msg", "deploy")
	a.Call.Input["api_key"] = "sk-live-123"
	if v, err := r.Authorize(context.Background(), a); err != nil || v.Action != "defer" {
		t.Fatalf("%+v, %v", v, err)
	}
	log.Close()
	b, err := os.ReadFile(filepath.Join(dir, ask.ReviewLogFile))
	if err != nil {
		t.Fatal(err)
	}
	var line struct {
		Call    map[string]any `json:"call"`
		Verdict ask.Verdict
		Review  Result
	}
	if err := json.Unmarshal(b, &line); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	want := Result{Model: "m-1", Outcome: Reject, Reason: "not what the user asked", Attempts: 2, Usage: Usage{InputTokens: 120, OutputTokens: 9}}
	if line.Review != want {
		t.Errorf("logged %+v; want %+v", line.Review, want)
	}
	if strings.Contains(string(b), "sk-live-123") {
		t.Errorf("the review log shows a secret: %s", b)
	}
}
