package compiler

import "slices"

// The keys each object of a rule file takes, listed once: the decoders'
// switches read exactly these (TestDecoderKeys derives the switches' cases
// from the source and compares), the published JSON Schemas in
// compiler/schema name exactly these (TestSchemaKeys), and an unknown key
// is matched against them for its "did you mean". Maps whose keys are the
// user's (the permission map, pattern maps, shellTools) have no list.
var (
	// policyKeys are the top-level keys of policy.jsonc, deprecated ones
	// included: they are read, to warn that they do nothing.
	policyKeys = []string{
		"$schema", "annotators", "authorizerChain", "autoReview", "caseInsensitive", "debugLog",
		"doublePressToConfirm", "examples", "forwardingTimeoutMs", "permission", "permissionReviewLog",
		"promptFieldMaxWidth", "promptMaxRows", "reviewLogFieldMaxWidth", "shellTools", "strict",
		"toolInputPreviewMaxLength", "toolTextSummaryMaxLength", "yoloMode",
	}
	// hardGuardKeys are the top-level keys of hard-guards.jsonc.
	hardGuardKeys = []string{"$schema", "guardSelf", "permission"}
	// frontmatterKeys are the keys of agent frontmatter that regate reads.
	// Every other key belongs to the host (description, model, tools, …)
	// and is left alone unless it misspells one of these.
	frontmatterKeys = []string{"name", "permission"}
	// denyObjectKeys are the keys of {"action": "deny", "reason": "…"}.
	denyObjectKeys = []string{"action", "reason"}
	// shellToolKeys are the keys of one shellTools entry.
	shellToolKeys = []string{"commandArgument", "decisionFloor", "workdirArgument"}
	// autoReviewKeys are the keys of autoReview, and transcriptKeys those
	// of autoReview.transcript.
	autoReviewKeys = []string{
		"enabled", "maxAttempts", "maxOutputTokens", "model", "provider", "reasoning", "timeoutMs", "transcript",
	}
	transcriptKeys = []string{"maxUntrustedEntries", "messageTokens", "toolTokens"}
	// exampleKeys are the keys of one inline example, and exampleCallKeys
	// those of its call.
	exampleKeys     = []string{"call", "expect", "matched", "note"}
	exampleCallKeys = []string{"agent", "input", "registered", "tool"}
)

// KeyLists returns the keys each object of the permission rule files takes,
// by a JSON-pointer-like path whose "*" stands for any key of a map the
// user names: "policy", "policy/autoReview", "policy/shellTools/*",
// "policy/permission/*/*" (a deny object), "agent" (the frontmatter keys
// regate reads). Each list is a copy, sorted. compiler/schema's tests hold
// the published schemas to these lists.
func KeyLists() map[string][]string {
	lists := map[string][]string{
		"policy":                       policyKeys,
		"policy/permission/*/*":        denyObjectKeys,
		"policy/shellTools/*":          shellToolKeys,
		"policy/autoReview":            autoReviewKeys,
		"policy/autoReview/transcript": transcriptKeys,
		"policy/examples/*":            exampleKeys,
		"policy/examples/*/call":       exampleCallKeys,
		"hard-guards":                  hardGuardKeys,
		"hard-guards/permission/*/*":   denyObjectKeys,
		"agent":                        frontmatterKeys,
		"agent/permission/*/*":         denyObjectKeys,
	}
	out := make(map[string][]string, len(lists))
	for k, v := range lists {
		out[k] = slices.Sorted(slices.Values(v))
	}
	return out
}
