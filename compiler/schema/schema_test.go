package schema_test

import (
	"bytes"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/tailscale/hujson"

	"github.com/regate/regate/compiler/schema"
)

// jsonc decodes a JSONC document as the validator takes it.
func jsonc(t *testing.T, src string) any {
	t.Helper()
	std, err := hujson.Standardize([]byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(std))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestEveryFileIsAKind: every schema file is a kind's or the shared
// permission map's, so none is published without being tested.
func TestEveryFileIsAKind(t *testing.T) {
	names, err := fs.Glob(schema.FS, "*.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"permission.schema.json"}
	for _, k := range schema.Kinds() {
		want = append(want, k.FileName())
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("schema files (-kinds +files):\n%s", diff)
	}
}

// TestValidate: documents that are right pass; each wrong one gets the
// violation that says what is wrong, where.
func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		kind schema.Kind
		doc  string
		want []string // "/path key" for an unknown key, "/path" otherwise; nil: valid
	}{
		{"policy minimal", schema.Policy, `{}`, nil},
		{"policy full", schema.Policy, `{
			"$schema": "../compiler/schema/policy.schema.json",
			"strict": true, "yoloMode": false, "caseInsensitive": true,
			"permission": {"*": "ask", "read": "allow", "bash": {"*": "ask", "git status": "allow", "npm *": {"action": "deny", "reason": "pnpm"}}},
			"shellTools": {"exec_command": {"commandArgument": "cmd", "workdirArgument": "workdir", "decisionFloor": "ask"}},
			"authorizerChain": ["auto-review"],
			"autoReview": {"enabled": true, "provider": "p", "model": "m", "reasoning": "high", "timeoutMs": 1000, "maxAttempts": 3,
				"maxOutputTokens": 300, "transcript": {"messageTokens": 1, "toolTokens": 2, "maxUntrustedEntries": 3}},
			"debugLog": true, "permissionReviewLog": false, "doublePressToConfirm": false, "forwardingTimeoutMs": 0,
			"promptMaxRows": 10, "promptFieldMaxWidth": 10, "reviewLogFieldMaxWidth": 10,
			"examples": [{"call": {"tool": "read", "input": {"path": ".env"}, "agent": "a", "registered": ["read"]}, "expect": "deny", "matched": "*.env", "note": "n"}],
			"annotators": [], "toolInputPreviewMaxLength": 3, "toolTextSummaryMaxLength": 3
		}`, nil},
		{"policy typo", schema.Policy, `{"permision": {}}`, []string{"/ permision"}},
		{"rule typo", schema.Policy, `{"permission": {"bash": {"rm *": {"action": "deny", "reasn": "x"}}}}`, []string{"/permission/bash/rm * reasn"}},
		{"ask object", schema.Policy, `{"permission": {"bash": {"rm *": {"action": "ask"}}}}`, []string{"/permission/bash/rm */action"}},
		{"unknown action", schema.Policy, `{"permission": {"read": "maybe"}}`, []string{"/permission/read", "/permission/read"}},
		{"fallback object", schema.Policy, `{"permission": {"*": {"x": "allow"}}}`, []string{"/permission/*"}},
		{"knob type", schema.Policy, `{"yoloMode": "yes"}`, []string{"/yoloMode"}},
		{"knob range", schema.Policy, `{"autoReview": {"maxAttempts": 9}}`, []string{"/autoReview/maxAttempts"}},
		{"provider without model", schema.Policy, `{"autoReview": {"provider": "p"}}`, []string{"/autoReview"}},
		{"shell tool typo", schema.Policy, `{"shellTools": {"x": {"commandArgument": "c", "workdir": "w"}}}`, []string{"/shellTools/x workdir"}},
		{"shell tool floor", schema.Policy, `{"shellTools": {"x": {"commandArgument": "c", "decisionFloor": "allow"}}}`, []string{"/shellTools/x/decisionFloor"}},
		{"shell tool without command", schema.Policy, `{"shellTools": {"x": {}}}`, []string{"/shellTools/x"}},
		{"example typo", schema.Policy, `{"examples": [{"call": {"tool": "read", "inputs": {}}, "expect": "deny"}]}`, []string{"/examples/0/call inputs"}},
		{"long pattern", schema.Policy, `{"permission": {"bash": {"` + strings.Repeat("x", 4097) + `": "deny"}}}`, []string{"/"}},

		{"hard guards", schema.HardGuards, `{"$schema": "x", "permission": {"*": "deny", "bash": {"rm -rf /*": "deny", "sudo *": {"action": "deny", "reason": "no"}}, "write": "deny"}}`, nil},
		{"hard guard allow", schema.HardGuards, `{"permission": {"bash": {"ls": "allow"}}}`, []string{"/permission/bash/ls", "/permission/bash/ls"}},
		{"hard guard ask fallback", schema.HardGuards, `{"permission": {"*": "ask"}}`, []string{"/permission/*"}},
		{"hard guards typo", schema.HardGuards, `{"permissions": {}}`, []string{"/ permissions"}},

		{"agent", schema.Agent, `{"name": "r", "description": "host key", "model": "m", "permission": {"write": "deny", "bash": {"git *": "ask"}}}`, nil},
		{"agent rule typo", schema.Agent, `{"permission": {"bash": {"rm *": {"action": "deny", "why": "x"}}}}`, []string{"/permission/bash/rm * why"}},

		{"delegation", schema.Delegation, `{
			"$schema": "delegation.schema.json", "allowed_tools": ["read_*"], "default_deny": false, "denied_tools": ["read_secrets"],
			"time_restrictions": {"*": "09:00-17:00"}, "rate_limits": {"*": "100/hour", "fetch_*": "0/day"},
			"rate_limit_mode": "all", "rate_limit_scope": "agent", "require_agent_id": true, "allowed_roles": ["dev"],
			"reauth_on_untrusted_reinvocation": true, "untrusted_reinvocation_threshold": 2,
			"escalate_tools": {"deploy_*": "production"}, "approver": "ops", "escalation_channel": null, "escalation_ledger": "l",
			"standing_grants": ["deploy_staging"],
			"amplification_budget": {"baseline_calls_per_run": 10, "max_calls_per_run": 30, "max_amplification_ratio": 2.5,
				"max_wall_seconds": 60, "max_sessions": 0, "action": "warn"},
			"capability_policy": {"x": 1}, "trace_redaction": true
		}`, nil},
		{"delegation typo", schema.Delegation, `{"allowed_tool": ["a"]}`, []string{"/ allowed_tool"}},
		{"delegation rate", schema.Delegation, `{"rate_limits": {"*": "010/hour"}}`, []string{"/rate_limits/*"}},
		{"delegation window", schema.Delegation, `{"time_restrictions": {"*": "24:00-01:00"}}`, []string{"/time_restrictions/*"}},
		{"delegation budget typo", schema.Delegation, `{"amplification_budget": {"max_call_per_run": 3}}`, []string{"/amplification_budget max_call_per_run"}},
		{"delegation schema ref", schema.Delegation, `{"$schema": 1}`, []string{"/$schema"}},
		{"narrow request", schema.DelegationRequest, `{"$schema": "delegation-request.schema.json", "allowed_tools": [], "denied_tools": null, "rate_limits": {"*": "1/minute"}, "amplification_budget": null}`, nil},
		{"narrow request typo", schema.DelegationRequest, `{"denied": ["a"]}`, []string{"/ denied"}},

		{"profile config", schema.ProfileConfig, `{
			"$schema": "x", "version": 1, "selection": {"mode": "manual", "profile": "global:review"},
			"defaultProfile": "base", "profiles": {"review": {"extends": "base", "description": "d"}},
			"bindings": [{"id": "c", "provider": "anthropic", "model": "claude-*", "profile": "review", "priority": -1.5},
				{"id": "m", "profile": "project:local", "match": [{"provider": "openai"}, {"model": "gpt-*"}]}],
			"inheritGlobalBindings": false, "subagents": "inherit"
		}`, nil},
		{"profile version", schema.ProfileConfig, `{"version": 2}`, []string{"/version"}},
		{"profile no version", schema.ProfileConfig, `{}`, []string{"/"}},
		{"profile binding typo", schema.ProfileConfig, `{"version": 1, "bindings": [{"profile": "a", "modle": "m"}]}`, []string{"/bindings/0 modle"}},
		{"profile rule typo", schema.ProfileConfig, `{"version": 1, "bindings": [{"profile": "a", "match": [{"provder": "p"}]}]}`, []string{"/bindings/0/match/0 provder"}},
		{"profile ref", schema.ProfileConfig, `{"version": 1, "defaultProfile": "../x"}`, []string{"/defaultProfile", "/defaultProfile"}},
		{"profile ref dots", schema.ProfileConfig, `{"version": 1, "defaultProfile": "a..b"}`, []string{"/defaultProfile"}},
		{"profile empty match", schema.ProfileConfig, `{"version": 1, "bindings": [{"profile": "a", "match": []}]}`, []string{"/bindings/0/match"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, err := schema.Validate(tt.kind, jsonc(t, tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range vs {
				s := "/" + strings.Join(v.Path, "/")
				if v.Key != "" {
					s += " " + v.Key
				}
				got = append(got, s)
			}
			slices.Sort(got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("violations (-want +got):\n%s\n%v", diff, vs)
			}
		})
	}
}

func TestKeysUnknownPath(t *testing.T) {
	if _, err := schema.Keys(schema.Policy, "yoloMode"); err == nil {
		t.Error("Keys of a boolean: no error")
	}
	if _, err := schema.Keys("nonesuch"); err == nil {
		t.Error("Keys of an unknown kind: no error")
	}
	if _, err := schema.Validate("nonesuch", map[string]any{}); err == nil {
		t.Error("Validate with an unknown kind: no error")
	}
}
