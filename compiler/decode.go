package compiler

import (
	"fmt"
	"math"
	"strings"

	"github.com/regate/regate/compiler/action"
)

// ruleMode says which actions a permission map may hold.
type ruleMode int

const (
	ordinaryRules  ruleMode = iota // allow, ask, deny
	hardGuardRules                 // deny only
)

// decodePermission decodes a "permission" object. Problems are reported in d;
// a value that cannot be read is left out.
func decodePermission(n *node, mode ruleMode, d *diags) Permission {
	var p Permission
	rules := 0
	if !expectKind(n, kindObject, "permission", d) {
		return p
	}
	for _, m := range n.members {
		if m.key == "*" {
			if r, ok := decodeStringAction(m.val, "*", mode, d); ok {
				r.Pos = m.keyPos
				p.Fallback = &r
			}
			continue
		}
		s := &Surface{Name: m.key, Pos: m.keyPos}
		switch m.val.kind {
		case kindString:
			// The shorthand "read": "allow" is {"*": "allow"}.
			r, ok := decodeStringAction(m.val, m.key, mode, d)
			if !ok {
				continue
			}
			r.Pattern, r.Pos = "*", m.val.pos
			s.Rules = []Rule{r}
			s.Shorthand = true
		case kindObject:
			s.Rules = make([]Rule, 0, min(len(m.val.members), MaxRules))
			for _, pm := range m.val.members {
				if len(pm.key) > MaxPatternLength {
					d.errorf(pm.keyPos, CodePatternTooLong, "pattern of %d bytes under %q; a pattern may have at most %d", len(pm.key), m.key, MaxPatternLength)
					continue
				}
				if rules++; rules > MaxRules {
					d.errorf(pm.keyPos, CodeTooManyRules, "more than %d rules in one file; split the policy or use wildcards", MaxRules)
					return p
				}
				r, ok := decodeRuleValue(pm.val, pm.key, mode, d)
				if !ok {
					continue
				}
				r.Pos = pm.keyPos
				s.Rules = append(s.Rules, r)
			}
		default:
			d.errorf(m.val.pos, CodeWrongType, "permission %q must be an action string or a pattern map, not %s", m.key, m.val.kind)
			continue
		}
		p.Surfaces = append(p.Surfaces, s)
	}
	return p
}

// decodeStringAction reads a plain action string.
func decodeStringAction(n *node, pattern string, mode ruleMode, d *diags) (Rule, bool) {
	if n.kind != kindString {
		d.errorf(n.pos, CodeWrongType, "value for %q must be an action string (allow, ask, deny), not %s", pattern, n.kind)
		return Rule{}, false
	}
	a, ok := action.Parse(n.str)
	if !ok {
		d.errorf(n.pos, CodeUnknownAction, "unknown action %q for %q; use allow, ask or deny", n.str, pattern)
		return Rule{}, false
	}
	if mode == hardGuardRules && a != Deny {
		d.errorf(n.pos, CodeHardGuardAction, "hard guard %q is %q; hard guards may only deny", pattern, n.str)
		return Rule{}, false
	}
	return Rule{Pattern: pattern, Action: a}, true
}

// decodeRuleValue reads a pattern-map value: an action string, or the object
// form {"action": "deny", "reason": "…"}.
func decodeRuleValue(n *node, pattern string, mode ruleMode, d *diags) (Rule, bool) {
	if n.kind != kindObject {
		return decodeStringAction(n, pattern, mode, d)
	}
	var r Rule
	r.Pattern = pattern
	act := n.get("action")
	if act == nil {
		d.errorf(n.pos, CodeMissingField, "object value for %q needs \"action\": \"deny\"", pattern)
		return r, false
	}
	if act.kind != kindString {
		d.errorf(act.pos, CodeWrongType, "action for %q must be a string, not %s", pattern, act.kind)
		return r, false
	}
	a, ok := action.Parse(act.str)
	if !ok {
		d.errorf(act.pos, CodeUnknownAction, "unknown action %q for %q; use allow, ask or deny", act.str, pattern)
		return r, false
	}
	if a != Deny {
		code := CodeDenyObjectAction
		if mode == hardGuardRules {
			code = CodeHardGuardAction
		}
		d.errorf(act.pos, code, "the object form is only for deny, but %q has action %q", pattern, act.str)
		return r, false
	}
	r.Action = Deny
	for _, m := range n.members {
		switch m.key {
		case "action":
		case "reason":
			if m.val.kind == kindString {
				r.Reason = m.val.str
			} else {
				d.warnf(m.val.pos, CodeReasonType, "reason for %q is %s, not a string; it is ignored", pattern, m.val.kind)
			}
		default:
			d.unknownKey(m, denyObjectKeys, fmt.Sprintf("the rule for %q", pattern))
		}
	}
	return r, true
}

func expectKind(n *node, k kind, what string, d *diags) bool {
	if n.kind != k {
		d.errorf(n.pos, CodeWrongType, "%s must be %s %s, not %s", what, article(k), k, n.kind)
		return false
	}
	return true
}

func article(k kind) string {
	if k == kindObject || k == kindArray {
		return "an"
	}
	return "a"
}

// decodePolicy decodes a whole policy.jsonc document.
func decodePolicy(n *node, d *diags) Policy {
	p := Policy{Knobs: DefaultKnobs()}
	if !expectKind(n, kindObject, "policy", d) {
		return p
	}
	k := &p.Knobs
	for _, m := range n.members {
		v := m.val
		switch m.key {
		case "$schema":
			expectKind(v, kindString, "$schema", d)
		case "permission":
			p.Permission = decodePermission(v, ordinaryRules, d)
		case "yoloMode":
			decodeBool(v, m.key, &k.YoloMode, d)
		case "strict":
			decodeBool(v, m.key, &k.Strict, d)
		case "caseInsensitive":
			var folds bool
			if expectKind(v, kindBool, m.key, d) {
				folds = v.boolean
				k.CaseInsensitive = &folds
			}
		case "debugLog":
			decodeBool(v, m.key, &k.DebugLog, d)
		case "permissionReviewLog":
			decodeBool(v, m.key, &k.PermissionReviewLog, d)
		case "doublePressToConfirm":
			decodeBool(v, m.key, &k.DoublePressToConfirm, d)
		case "forwardingTimeoutMs":
			decodeInt(v, m.key, 0, math.MaxInt32, &k.ForwardingTimeoutMs, d)
		case "promptMaxRows":
			decodeInt(v, m.key, 1, 10000, &k.PromptMaxRows, d)
		case "promptFieldMaxWidth":
			decodeInt(v, m.key, 1, 1000000, &k.PromptFieldMaxWidth, d)
		case "reviewLogFieldMaxWidth":
			decodeInt(v, m.key, 1, 100000000, &k.ReviewLogFieldMaxWidth, d)
		case "authorizerChain":
			k.AuthorizerChain = decodeStrings(v, m.key, d)
		case "shellTools":
			k.ShellTools = decodeShellTools(v, d)
		case "autoReview":
			decodeAutoReview(v, &k.AutoReview, d)
		case "toolInputPreviewMaxLength", "toolTextSummaryMaxLength":
			d.warnf(m.keyPos, CodeDeprecatedKey, "%q is deprecated and ignored; use promptMaxRows and promptFieldMaxWidth", m.key)
		case "examples":
			var ed diags
			p.Examples = decodeExamples(v, &ed)
			p.exampleDiags = append(p.exampleDiags, ed.list...)
		case "annotators":
			d.warnf(m.keyPos, CodeDeprecatedKey, "%q is deprecated and ignored: the annotator mechanism was removed; remove it", m.key)
		default:
			d.unknownKey(m, policyKeys, "")
		}
	}
	warnInert(&p.Permission, d)
	warnBashInheritsAllow(&p.Permission, d)
	return p
}

// warnInert flags surfaces that no tool call reaches (R12).
func warnInert(p *Permission, d *diags) {
	for _, s := range p.Surfaces {
		if s.Name == "external_directory" {
			d.warnf(s.Pos, CodeInertSurface, "%q is not a separate decision; paths outside the cwd go through path and tool rules, so this key reaches no call", s.Name)
		}
	}
}

// warnBashInheritsAllow is the policy format's start-up warning: a permissive "*" with
// no bash "*" lets every command inherit allow.
func warnBashInheritsAllow(p *Permission, d *diags) {
	if p.Fallback == nil || p.Fallback.Action != Allow {
		return
	}
	if b := p.Surface("bash"); b != nil {
		for _, r := range b.Rules {
			if r.Pattern == "*" {
				return
			}
		}
	}
	d.warnf(p.Fallback.Pos, CodeBashFallback, "\"*\" is allow and bash has no \"*\" rule, so every bash command inherits allow; add \"bash\": {\"*\": \"ask\"} or set it to allow explicitly")
}

func decodeBool(n *node, key string, dst *bool, d *diags) {
	if expectKind(n, kindBool, key, d) {
		*dst = n.boolean
	}
}

func decodeInt(n *node, key string, lo, hi int, dst *int, d *diags) {
	if !expectKind(n, kindNumber, key, d) {
		return
	}
	if n.num != math.Trunc(n.num) {
		d.errorf(n.pos, CodeWrongType, "%s must be a whole number, not %v", key, n.num)
		return
	}
	if n.num < float64(lo) || n.num > float64(hi) {
		d.errorf(n.pos, CodeOutOfRange, "%s is %v; it must be between %d and %d", key, n.num, lo, hi)
		return
	}
	*dst = int(n.num)
}

func decodeString(n *node, key string, dst *string, d *diags) {
	if expectKind(n, kindString, key, d) {
		*dst = n.str
	}
}

func decodeStrings(n *node, key string, d *diags) []string {
	out := []string{}
	if !expectKind(n, kindArray, key, d) {
		return out
	}
	for _, e := range n.elems {
		if expectKind(e, kindString, key+" entry", d) {
			out = append(out, e.str)
		}
	}
	return out
}

func decodeShellTools(n *node, d *diags) map[string]ShellTool {
	out := map[string]ShellTool{}
	if !expectKind(n, kindObject, "shellTools", d) {
		return out
	}
	for _, m := range n.members {
		if !expectKind(m.val, kindObject, "shellTools."+m.key, d) {
			continue
		}
		st := ShellTool{Pos: m.keyPos}
		for _, f := range m.val.members {
			switch f.key {
			case "commandArgument":
				decodeString(f.val, "commandArgument", &st.CommandArgument, d)
			case "workdirArgument":
				decodeString(f.val, "workdirArgument", &st.WorkdirArgument, d)
			case "decisionFloor":
				if decodeString(f.val, "decisionFloor", &st.DecisionFloor, d); st.DecisionFloor != "" && st.DecisionFloor != "ask" {
					d.errorf(f.val.pos, CodeUnknownAction, "decisionFloor is %q; only \"ask\" is accepted", st.DecisionFloor)
					st.DecisionFloor = ""
				}
			default:
				d.unknownKey(f, shellToolKeys, "shellTools."+m.key)
			}
		}
		if strings.TrimSpace(st.CommandArgument) == "" {
			d.errorf(m.val.pos, CodeMissingField, "shellTools.%s needs a commandArgument", m.key)
			continue
		}
		out[m.key] = st
	}
	return out
}

func decodeAutoReview(n *node, ar *AutoReview, d *diags) {
	if !expectKind(n, kindObject, "autoReview", d) {
		return
	}
	for _, m := range n.members {
		v := m.val
		switch m.key {
		case "enabled":
			decodeBool(v, "autoReview.enabled", &ar.Enabled, d)
		case "provider":
			decodeString(v, "autoReview.provider", &ar.Provider, d)
		case "model":
			decodeString(v, "autoReview.model", &ar.Model, d)
		case "reasoning":
			decodeString(v, "autoReview.reasoning", &ar.Reasoning, d)
			switch ar.Reasoning {
			case "off", "minimal", "low", "medium", "high", "xhigh":
			default:
				d.errorf(v.pos, CodeOutOfRange, "autoReview.reasoning is %q; use off, minimal, low, medium, high or xhigh", ar.Reasoning)
				ar.Reasoning = "low"
			}
		case "timeoutMs":
			decodeInt(v, "autoReview.timeoutMs", 1, 300000, &ar.TimeoutMs, d)
		case "maxAttempts":
			decodeInt(v, "autoReview.maxAttempts", 1, 5, &ar.MaxAttempts, d)
		case "maxOutputTokens":
			decodeInt(v, "autoReview.maxOutputTokens", 256, 32000, &ar.MaxOutputTokens, d)
		case "transcript":
			if !expectKind(v, kindObject, "autoReview.transcript", d) {
				continue
			}
			for _, t := range v.members {
				switch t.key {
				case "messageTokens":
					decodeInt(t.val, "autoReview.transcript.messageTokens", 0, math.MaxInt32, &ar.TranscriptMessageTokens, d)
				case "toolTokens":
					decodeInt(t.val, "autoReview.transcript.toolTokens", 0, math.MaxInt32, &ar.TranscriptToolTokens, d)
				case "maxUntrustedEntries":
					decodeInt(t.val, "autoReview.transcript.maxUntrustedEntries", 0, math.MaxInt32, &ar.TranscriptMaxUntrustedEntries, d)
				default:
					d.unknownKey(t, transcriptKeys, "autoReview.transcript")
				}
			}
		default:
			d.unknownKey(m, autoReviewKeys, "autoReview")
		}
	}
	if (ar.Provider == "") != (ar.Model == "") {
		d.warnf(n.pos, CodeAutoReviewPair, "autoReview.provider and autoReview.model must be set together; the reviewer will defer every ask")
	}
}

// decodeHardGuards decodes hard-guards.jsonc: {"permission": {…}} whose
// values are deny or {"action": "deny", "reason": …} only.
func decodeHardGuards(n *node, d *diags) Permission {
	var p Permission
	if !expectKind(n, kindObject, "hard guards", d) {
		return p
	}
	for _, m := range n.members {
		switch m.key {
		case "$schema":
			expectKind(m.val, kindString, "$schema", d)
		case "permission":
			p = decodePermission(m.val, hardGuardRules, d)
		default:
			d.unknownKey(m, hardGuardKeys, "")
		}
	}
	return p
}
