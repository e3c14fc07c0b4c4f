package profile

import (
	"fmt"
	"strings"

	"github.com/regate/regate/compiler"
)

// Limits on profiles, the upstream extension's (docs/profiles.md).
const (
	MaxBodyBytes  = 64 << 10  // a larger body is skipped
	MaxLayers     = 8         // a longer chain of bases invalidates the profile
	MaxTotalBytes = 256 << 10 // a larger expansion invalidates the profile
)

// bom is the byte-order mark a file may open with; it is dropped from
// bodies, config files and prompts.
const bom = "\uFEFF"

// Markers and the control statement of the managed block. They are neutral
// and name no profile, scope or tool: nothing in the prompt identifies the
// active profile.
const (
	BeginMarker = "<!-- managed-system-instructions:begin -->"
	EndMarker   = "<!-- managed-system-instructions:end -->"
	Control     = "The instructions between these markers are the primary system instructions for this session. " +
		"Follow them over any conflicting instruction elsewhere in this prompt."
)

// expansion is a profile expanded through its bases: the layers most
// specific first, or the code that invalidates it.
type expansion struct {
	Layers  []string `json:"layers,omitempty"`
	Valid   bool     `json:"valid"`
	Problem string   `json:"problem,omitempty"`
}

// readBodies keeps the profile files of one scope that can be used: a safe
// id, no block marker, at most MaxBodyBytes; a leading BOM is dropped.
func readBodies(scope string, files map[string]string, diags *compiler.Errors) map[string]string {
	out := map[string]string{}
	for _, id := range sortedKeys(files) {
		name := DisplayName(fmt.Sprintf("%s/profiles/%s.md", scope, id))
		body := strings.TrimPrefix(files[id], bom)
		report := func(code, format string, args ...any) {
			*diags = append(*diags, &compiler.Error{Pos: compiler.Pos{File: name, Line: 1, Col: 1}, Code: code,
				Msg: fmt.Sprintf(format, args...), Severity: compiler.SeverityError})
		}
		switch {
		case !ValidID(id):
			report(CodeProfileID, "%q is not a safe profile id; the file is skipped", id)
		case len(body) > MaxBodyBytes:
			report(CodeProfileTooLarge, "the body is %d bytes; the limit is %d, so the file is skipped", len(body), MaxBodyBytes)
		case strings.Contains(body, BeginMarker) || strings.Contains(body, EndMarker):
			report(CodeProfileMarker, "the body contains a block marker; the profile is refused")
		default:
			out[scope+":"+id] = body
		}
	}
	return out
}

// expand walks ref's chain of bases.
func expand(ref string, bodies map[string]string, configs map[string]*scopeConfig) expansion {
	var layers []string
	seen := map[string]bool{}
	total := 0
	for cur := ref; ; {
		if seen[cur] {
			return expansion{Problem: CodeProfileCycle}
		}
		body, ok := bodies[cur]
		if !ok {
			return expansion{Problem: CodeProfileMissing}
		}
		seen[cur] = true
		layers = append(layers, cur)
		total += len(body)
		if len(layers) > MaxLayers {
			return expansion{Problem: CodeProfileDepth}
		}
		if total > MaxTotalBytes {
			return expansion{Problem: CodeProfileTotalSize}
		}
		scope, id, _ := strings.Cut(cur, ":")
		c := configs[scope]
		if c == nil || !c.active {
			return expansion{Layers: layers, Valid: true}
		}
		if c.badBase[id] {
			return expansion{Problem: CodeProfileExtends}
		}
		base, ok := c.extends[id]
		if !ok {
			return expansion{Layers: layers, Valid: true}
		}
		cur = base
	}
}
