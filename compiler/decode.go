package compiler

import (
	"fmt"
	"math"
	"strings"

	"github.com/regate/regate/compiler/action"
	"github.com/regate/regate/compiler/internal/ruledoc"
)

// ruleMode says which actions a permission map may hold.
type ruleMode int

const (
	ordinaryRules  ruleMode = iota // allow, ask, deny
	hardGuardRules                 // deny only
)

// decodePermission decodes a "permission" object. Problems are reported in d;
// a value that cannot be read is left out.
func decodePermission(n *ruledoc.Node, mode ruleMode, d *diags) Permission {
	var p Permission
	rules := 0
	if !d.Expect(n, ruledoc.Object, "permission") {
		return p
	}
	for _, m := range n.Members {
		if m.Key == "*" {
			if r, ok := decodeStringAction(m.Val, "*", mode, d); ok {
				r.Pos = m.KeyPos
				p.Fallback = &r
			}
			continue
		}
		s := &Surface{Name: m.Key, Pos: m.KeyPos}
		switch m.Val.Kind {
		case ruledoc.String:
			// The shorthand "read": "allow" is {"*": "allow"}.
			r, ok := decodeStringAction(m.Val, m.Key, mode, d)
			if !ok {
				continue
			}
			r.Pattern, r.Pos = "*", m.Val.Pos
			s.Rules = []Rule{r}
			s.Shorthand = true
		case ruledoc.Object:
			s.Rules = make([]Rule, 0, min(len(m.Val.Members), MaxRules))
			for _, pm := range m.Val.Members {
				if len(pm.Key) > MaxPatternLength {
					d.Errorf(pm.KeyPos, CodePatternTooLong, "pattern of %d bytes under %q; a pattern may have at most %d", len(pm.Key), m.Key, MaxPatternLength)
					continue
				}
				if rules++; rules > MaxRules {
					d.Errorf(pm.KeyPos, CodeTooManyRules, "more than %d rules in one file; split the policy or use wildcards", MaxRules)
					return p
				}
				r, ok := decodeRuleValue(pm.Val, pm.Key, mode, d)
				if !ok {
					continue
				}
				r.Pos = pm.KeyPos
				s.Rules = append(s.Rules, r)
			}
		default:
			d.Errorf(m.Val.Pos, CodeWrongType, "permission %q must be an action string or a pattern map, not %s", m.Key, m.Val.Kind)
			continue
		}
		p.Surfaces = append(p.Surfaces, s)
	}
	return p
}

// decodeStringAction reads a plain action string.
func decodeStringAction(n *ruledoc.Node, pattern string, mode ruleMode, d *diags) (Rule, bool) {
	if n.Kind != ruledoc.String {
		d.Errorf(n.Pos, CodeWrongType, "value for %q must be an action string (allow, ask, deny), not %s", pattern, n.Kind)
		return Rule{}, false
	}
	a, ok := action.Parse(n.Str)
	if !ok {
		d.Errorf(n.Pos, CodeUnknownAction, "unknown action %q for %q; use allow, ask or deny", n.Str, pattern)
		return Rule{}, false
	}
	if mode == hardGuardRules && a != Deny {
		d.Errorf(n.Pos, CodeHardGuardAction, "hard guard %q is %q; hard guards may only deny", pattern, n.Str)
		return Rule{}, false
	}
	return Rule{Pattern: pattern, Action: a}, true
}

// decodeRuleValue reads a pattern-map value: an action string, or the object
// form {"action": "deny", "reason": "…"}.
func decodeRuleValue(n *ruledoc.Node, pattern string, mode ruleMode, d *diags) (Rule, bool) {
	if n.Kind != ruledoc.Object {
		return decodeStringAction(n, pattern, mode, d)
	}
	var r Rule
	r.Pattern = pattern
	act := n.Get("action")
	if act == nil {
		d.Errorf(n.Pos, CodeMissingField, "object value for %q needs \"action\": \"deny\"", pattern)
		return r, false
	}
	if act.Kind != ruledoc.String {
		d.Errorf(act.Pos, CodeWrongType, "action for %q must be a string, not %s", pattern, act.Kind)
		return r, false
	}
	a, ok := action.Parse(act.Str)
	if !ok {
		d.Errorf(act.Pos, CodeUnknownAction, "unknown action %q for %q; use allow, ask or deny", act.Str, pattern)
		return r, false
	}
	if a != Deny {
		code := CodeDenyObjectAction
		if mode == hardGuardRules {
			code = CodeHardGuardAction
		}
		d.Errorf(act.Pos, code, "the object form is only for deny, but %q has action %q", pattern, act.Str)
		return r, false
	}
	r.Action = Deny
	for _, m := range n.Members {
		switch m.Key {
		case "action":
		case "reason":
			if m.Val.Kind == ruledoc.String {
				r.Reason = m.Val.Str
			} else {
				d.Warnf(m.Val.Pos, CodeReasonType, "reason for %q is %s, not a string; it is ignored", pattern, m.Val.Kind)
			}
		default:
			unknownKey(d, m, denyObjectKeys, fmt.Sprintf("the rule for %q", pattern))
		}
	}
	return r, true
}

// decodePolicy decodes a whole policy.jsonc document.
func decodePolicy(n *ruledoc.Node, d *diags) Policy {
	p := Policy{Knobs: DefaultKnobs()}
	if !d.Expect(n, ruledoc.Object, "policy") {
		return p
	}
	k := &p.Knobs
	for _, m := range n.Members {
		v := m.Val
		switch m.Key {
		case "$schema":
			d.Expect(v, ruledoc.String, "$schema")
		case "permission":
			p.Permission = decodePermission(v, ordinaryRules, d)
		case "yoloMode":
			d.Bool(v, m.Key, &k.YoloMode)
		case "strict":
			d.Bool(v, m.Key, &k.Strict)
		case "caseInsensitive":
			var folds bool
			if d.Expect(v, ruledoc.Bool, m.Key) {
				folds = v.Bool
				k.CaseInsensitive = &folds
			}
		case "debugLog":
			d.Bool(v, m.Key, &k.DebugLog)
		case "permissionReviewLog":
			d.Bool(v, m.Key, &k.PermissionReviewLog)
		case "doublePressToConfirm":
			d.Bool(v, m.Key, &k.DoublePressToConfirm)
		case "forwardingTimeoutMs":
			d.Int(v, m.Key, 0, math.MaxInt32, &k.ForwardingTimeoutMs)
		case "promptMaxRows":
			d.Int(v, m.Key, 1, 10000, &k.PromptMaxRows)
		case "promptFieldMaxWidth":
			d.Int(v, m.Key, 1, 1000000, &k.PromptFieldMaxWidth)
		case "reviewLogFieldMaxWidth":
			d.Int(v, m.Key, 1, 100000000, &k.ReviewLogFieldMaxWidth)
		case "authorizerChain":
			k.AuthorizerChain = d.Strings(v, m.Key)
		case "shellTools":
			k.ShellTools = decodeShellTools(v, d)
		case "autoReview":
			decodeAutoReview(v, &k.AutoReview, d)
		case "toolInputPreviewMaxLength", "toolTextSummaryMaxLength":
			d.Warnf(m.KeyPos, CodeDeprecatedKey, "%q is deprecated and ignored; use promptMaxRows and promptFieldMaxWidth", m.Key)
		case "examples":
			var ed diags
			p.Examples = decodeExamples(v, &ed)
			p.exampleDiags = append(p.exampleDiags, ed.List...)
		case "annotators":
			d.Warnf(m.KeyPos, CodeDeprecatedKey, "%q is deprecated and ignored: the annotator mechanism was removed; remove it", m.Key)
		default:
			unknownKey(d, m, policyKeys, "")
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
			d.Warnf(s.Pos, CodeInertSurface, "%q is not a separate decision; paths outside the cwd go through path and tool rules, so this key reaches no call", s.Name)
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
	d.Warnf(p.Fallback.Pos, CodeBashFallback, "\"*\" is allow and bash has no \"*\" rule, so every bash command inherits allow; add \"bash\": {\"*\": \"ask\"} or set it to allow explicitly")
}

func decodeShellTools(n *ruledoc.Node, d *diags) map[string]ShellTool {
	out := map[string]ShellTool{}
	if !d.Expect(n, ruledoc.Object, "shellTools") {
		return out
	}
	for _, m := range n.Members {
		if !d.Expect(m.Val, ruledoc.Object, "shellTools."+m.Key) {
			continue
		}
		st := ShellTool{Pos: m.KeyPos}
		for _, f := range m.Val.Members {
			switch f.Key {
			case "commandArgument":
				d.String(f.Val, "commandArgument", &st.CommandArgument)
			case "workdirArgument":
				d.String(f.Val, "workdirArgument", &st.WorkdirArgument)
			case "decisionFloor":
				if d.String(f.Val, "decisionFloor", &st.DecisionFloor); st.DecisionFloor != "" && st.DecisionFloor != "ask" {
					d.Errorf(f.Val.Pos, CodeUnknownAction, "decisionFloor is %q; only \"ask\" is accepted", st.DecisionFloor)
					st.DecisionFloor = ""
				}
			default:
				unknownKey(d, f, shellToolKeys, "shellTools."+m.Key)
			}
		}
		if strings.TrimSpace(st.CommandArgument) == "" {
			d.Errorf(m.Val.Pos, CodeMissingField, "shellTools.%s needs a commandArgument", m.Key)
			continue
		}
		out[m.Key] = st
	}
	return out
}

func decodeAutoReview(n *ruledoc.Node, ar *AutoReview, d *diags) {
	if !d.Expect(n, ruledoc.Object, "autoReview") {
		return
	}
	for _, m := range n.Members {
		v := m.Val
		switch m.Key {
		case "enabled":
			d.Bool(v, "autoReview.enabled", &ar.Enabled)
		case "provider":
			d.String(v, "autoReview.provider", &ar.Provider)
		case "model":
			d.String(v, "autoReview.model", &ar.Model)
		case "reasoning":
			d.String(v, "autoReview.reasoning", &ar.Reasoning)
			switch ar.Reasoning {
			case "off", "minimal", "low", "medium", "high", "xhigh":
			default:
				d.Errorf(v.Pos, CodeOutOfRange, "autoReview.reasoning is %q; use off, minimal, low, medium, high or xhigh", ar.Reasoning)
				ar.Reasoning = "low"
			}
		case "timeoutMs":
			d.Int(v, "autoReview.timeoutMs", 1, 300000, &ar.TimeoutMs)
		case "maxAttempts":
			d.Int(v, "autoReview.maxAttempts", 1, 5, &ar.MaxAttempts)
		case "maxOutputTokens":
			d.Int(v, "autoReview.maxOutputTokens", 256, 32000, &ar.MaxOutputTokens)
		case "transcript":
			if !d.Expect(v, ruledoc.Object, "autoReview.transcript") {
				continue
			}
			for _, t := range v.Members {
				switch t.Key {
				case "messageTokens":
					d.Int(t.Val, "autoReview.transcript.messageTokens", 0, math.MaxInt32, &ar.TranscriptMessageTokens)
				case "toolTokens":
					d.Int(t.Val, "autoReview.transcript.toolTokens", 0, math.MaxInt32, &ar.TranscriptToolTokens)
				case "maxUntrustedEntries":
					d.Int(t.Val, "autoReview.transcript.maxUntrustedEntries", 0, math.MaxInt32, &ar.TranscriptMaxUntrustedEntries)
				default:
					unknownKey(d, t, transcriptKeys, "autoReview.transcript")
				}
			}
		default:
			unknownKey(d, m, autoReviewKeys, "autoReview")
		}
	}
	if (ar.Provider == "") != (ar.Model == "") {
		d.Warnf(n.Pos, CodeAutoReviewPair, "autoReview.provider and autoReview.model must be set together; the reviewer will defer every ask")
	}
}

// decodeHardGuards decodes hard-guards.jsonc: {"permission": {…}} whose
// values are deny or {"action": "deny", "reason": …} only.
func decodeHardGuards(n *ruledoc.Node, d *diags) (p Permission, guardSelf bool) {
	guardSelf = true
	if !d.Expect(n, ruledoc.Object, "hard guards") {
		return p, guardSelf
	}
	for _, m := range n.Members {
		switch m.Key {
		case "$schema":
			d.Expect(m.Val, ruledoc.String, "$schema")
		case "guardSelf":
			if d.Expect(m.Val, ruledoc.Bool, "guardSelf") {
				guardSelf = m.Val.Bool
			}
		case "permission":
			p = decodePermission(m.Val, hardGuardRules, d)
		default:
			unknownKey(d, m, hardGuardKeys, "")
		}
	}
	return p, guardSelf
}
