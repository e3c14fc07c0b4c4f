package delegation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/open-policy-agent/opa/v1/format"
	"github.com/regate/regate/compiler"
)

// Layer is the decision layer of a ceiling refusal or escalation (step 2.1).
const Layer = "2.1:delegation_ceiling"

// RefusedBy names the policy of a ceiling refusal.
const RefusedBy = "DelegationCeiling"

// Output is a compiled set of delegation policies: the data the Rego
// ceiling (regate.lib.ceiling) reads at data.regate.delegation.policies,
// one entry per policy name, and a small generated module naming them.
type Output struct {
	Module compiler.Module
	// Data is the document for data.regate.delegation, as plain JSON values.
	Data map[string]any
}

// Compile normalizes named policies for the ceiling: globs become anchored
// regular expressions (fnmatch semantics, which OPA's glob.match does not
// have), rates integer bursts and refills per day, windows minute ranges
// split at midnight, the call budget's ratio an exact integer bound, and
// the specificity of each pattern a precomputed rank. A policy holding an
// invalid rate or window compiles to one that refuses every call.
func Compile(policies map[string]*Policy) (*Output, error) {
	data := map[string]any{}
	for _, name := range sortedKeys(policies) {
		data[name] = compilePolicy(name, policies[name])
	}
	doc, err := jsonValue(map[string]any{"policies": data})
	if err != nil {
		return nil, err
	}
	mod, err := emitModule(sortedKeys(policies))
	if err != nil {
		return nil, err
	}
	return &Output{Module: mod, Data: doc}, nil
}

// CompilePolicy is the compiled document of one policy under name: what
// Compile puts at data.regate.delegation.policies[name], without the
// module. A runtime that holds a live policy compiles it again at every
// call with this; the module only lists names.
func CompilePolicy(name string, p *Policy) (any, error) {
	doc, err := jsonValue(map[string]any{"p": compilePolicy(name, p)})
	if err != nil {
		return nil, err
	}
	return doc["p"], nil
}

func compilePolicy(name string, p *Policy) map[string]any {
	invalid := []string{}
	for _, pr := range p.ValueProblems() {
		invalid = append(invalid, pr.Msg)
	}
	windows := []any{}
	for _, pattern := range sortedKeys(p.TimeRestrictions) {
		w, err := ParseWindow(p.TimeRestrictions[pattern])
		if err != nil {
			continue
		}
		ranges := []any{}
		for _, r := range w.Ranges() {
			ranges = append(ranges, []int{r[0], r[1]})
		}
		windows = append(windows, map[string]any{"pattern": pattern, "re": regex(pattern), "rank": Rank(pattern), "ranges": ranges})
	}
	rates := []any{}
	for _, pattern := range sortedKeys(p.RateLimits) {
		r, err := ParseRate(p.RateLimits[pattern])
		if err != nil {
			continue
		}
		rates = append(rates, map[string]any{
			"pattern": pattern, "re": regex(pattern), "rank": Rank(pattern),
			"burst": r.Burst, "per_day": json.Number(r.PerDay().String()),
		})
	}
	escalate := []any{}
	for _, pattern := range sortedKeys(p.EscalateTools) {
		escalate = append(escalate, map[string]any{"pattern": pattern, "re": regex(pattern), "reason": p.EscalateTools[pattern]})
	}
	return map[string]any{
		"name":             name,
		"invalid":          invalid,
		"open":             p.AdmitsEveryTool(),
		"allowed":          regexes(p.AllowedTools),
		"denied":           regexes(p.DeniedTools),
		"windows":          windows,
		"rates":            rates,
		"mode":             p.Mode(),
		"scope":            p.Scope(),
		"require_agent_id": p.RequireAgentID,
		"roles":            orEmpty(p.AllowedRoles),
		"reauth":           p.Reauth,
		"threshold":        p.ReauthThreshold,
		"escalate":         escalate,
		"approver":         p.Approver,
		"grants":           regexes(p.StandingGrants),
		"budget":           compileBudget(p.CallBudget),
	}
}

// compileBudget is the call budget as bounds on a session's count of
// allowed calls: max_calls, the ratio bound floor(baseline × ratio)
// computed exactly, and max_wall in seconds; max_sessions bounds the
// sessions the runtime's ledger remembers. A nil bound is none.
func compileBudget(b *CallBudget) any {
	if b == nil {
		return nil
	}
	out := map[string]any{
		"max_calls": b.MaxCalls, "ratio_limit": nil, "max_wall": b.MaxWallSeconds, "warn": b.Action == "warn",
		"max_sessions": b.MaxSessions,
	}
	if b.Baseline != nil && b.MaxRatio != nil {
		limit := new(big.Rat).Mul(intRat(b.Baseline), numRat(b.MaxRatio))
		out["ratio_limit"] = json.Number(new(big.Int).Quo(limit.Num(), limit.Denom()).String())
	}
	return out
}

// Rank is a pattern's specificity: a pattern with no "*" ranks before any
// with one, then more literal text ("*", "?" and a whole class count
// nothing). The most specific matching pattern has the largest rank.
func Rank(pattern string) int {
	literal := 0
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '*', '?':
		case '[':
			if _, n, ok := classAt(pattern[i:]); ok {
				i += n - 1
				continue
			}
			literal++
		default:
			literal++
		}
	}
	if !strings.Contains(pattern, "*") {
		return 1<<30 + literal
	}
	return literal
}

// regex is the anchored regular expression of an fnmatch glob, as OPA's
// regex.match reads it (Go's RE2 syntax).
func regex(pattern string) string { return translate(pattern) }

func regexes(patterns []string) []string {
	out := make([]string, len(patterns))
	for i, p := range patterns {
		out[i] = regex(p)
	}
	return out
}

// jsonValue round-trips v through JSON, so that the data holds only plain
// JSON values (json.Number for numbers), as OPA's store expects.
func jsonValue(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out map[string]any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// emitModule renders regate.gen.delegation: the names of the compiled
// policies, whose rules are data at data.regate.delegation.policies.
func emitModule(names []string) (compiler.Module, error) {
	const path = "regate/gen/delegation.rego"
	quoted, err := json.Marshal(orEmpty(names))
	if err != nil {
		return compiler.Module{}, err
	}
	src := compiler.Header + "\n#\n# The compiled delegation policies are data, at data.regate.delegation.policies.\n\n" +
		"package regate.gen.delegation\n\n# names are the delegation policies compiled.\nnames := " + string(quoted) + "\n"
	out, err := format.Source(path, []byte(src))
	if err != nil {
		return compiler.Module{}, fmt.Errorf("delegation: format %s: %w", path, err)
	}
	return compiler.Module{Path: path, Text: string(out)}, nil
}
