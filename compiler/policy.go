package compiler

import "github.com/regate/regate/compiler/action"

// Action is what a rule decides: action.Action, the one action type (and
// order of restriction) the runtime and the hosts share.
type Action = action.Action

// The actions a rule can decide; ActionNone is none (an action that did
// not parse).
const (
	ActionNone Action = ""
	Allow             = action.Allow
	Ask               = action.Ask
	Deny              = action.Deny
)

// ParseAction reads an action as written in a rule file.
//
// Deprecated: use action.Parse.
func ParseAction(s string) (Action, bool) { return action.Parse(s) }

// Rule is one pattern of a pattern map, as written, with its source position.
type Rule struct {
	Pattern string
	Action  Action
	Reason  string
	Pos     Pos
}

// Surface is one key of a permission map: a tool name, "path", "bash", "mcp"
// or "skill". A string value is a surface with one "*" rule and Shorthand set.
type Surface struct {
	Name      string
	Rules     []Rule
	Shorthand bool
	Pos       Pos
}

// Permission is a decoded "permission" object: the universal fallback (the
// "*" key) and the surfaces in declaration order.
type Permission struct {
	Fallback *Rule
	Surfaces []*Surface
}

// Surface returns the named surface or nil.
func (p *Permission) Surface(name string) *Surface {
	for _, s := range p.Surfaces {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// ShellTool is a shellTools entry: a tool that is really a shell.
type ShellTool struct {
	CommandArgument string `json:"commandArgument"`
	WorkdirArgument string `json:"workdirArgument,omitempty"`
	DecisionFloor   string `json:"decisionFloor,omitempty"`
	Pos             Pos    `json:"-"`
}

// AutoReview holds the autoReview knobs. They are decoded and validated now;
// the authorizer that uses them is built on the ask path.
type AutoReview struct {
	Enabled                       bool   `json:"enabled"`
	Provider                      string `json:"provider,omitempty"`
	Model                         string `json:"model,omitempty"`
	Reasoning                     string `json:"reasoning"`
	TimeoutMs                     int    `json:"timeoutMs"`
	MaxAttempts                   int    `json:"maxAttempts"`
	MaxOutputTokens               int    `json:"maxOutputTokens"`
	TranscriptMessageTokens       int    `json:"messageTokens"`
	TranscriptToolTokens          int    `json:"toolTokens"`
	TranscriptMaxUntrustedEntries int    `json:"maxUntrustedEntries"`
}

// Knobs are the runtime settings of policy.jsonc besides the permission map.
type Knobs struct {
	YoloMode bool `json:"yoloMode"`
	// Strict floors to ask what the base rules (docs/policy.md) would allow but that runs
	// code or writes files under an innocent-looking program (docs/strict.md).
	Strict bool `json:"strict"`
	// CaseInsensitive says whether the file system folds case (macOS's
	// and Windows' default ones do): .ENV then opens .env, RM runs rm, and
	// paths and program names are matched in their on-disk and lower-case
	// spellings too. nil (the key absent) means the runtime probes the file
	// system holding the working directory (facts.FoldsCase).
	CaseInsensitive        *bool                `json:"caseInsensitive,omitempty"`
	ShellTools             map[string]ShellTool `json:"shellTools,omitempty"`
	AuthorizerChain        []string             `json:"authorizerChain"`
	AutoReview             AutoReview           `json:"autoReview"`
	DebugLog               bool                 `json:"debugLog"`
	PermissionReviewLog    bool                 `json:"permissionReviewLog"`
	DoublePressToConfirm   bool                 `json:"doublePressToConfirm"`
	ForwardingTimeoutMs    int                  `json:"forwardingTimeoutMs"`
	PromptMaxRows          int                  `json:"promptMaxRows"`
	PromptFieldMaxWidth    int                  `json:"promptFieldMaxWidth"`
	ReviewLogFieldMaxWidth int                  `json:"reviewLogFieldMaxWidth"`
}

// DefaultKnobs are the defaults of every runtime knob (docs/policy.md).
func DefaultKnobs() Knobs {
	return Knobs{
		AuthorizerChain: []string{},
		AutoReview: AutoReview{
			Enabled:                       true,
			Reasoning:                     "low",
			TimeoutMs:                     30000,
			MaxAttempts:                   2,
			MaxOutputTokens:               4000,
			TranscriptMessageTokens:       10000,
			TranscriptToolTokens:          10000,
			TranscriptMaxUntrustedEntries: 40,
		},
		PermissionReviewLog:    true,
		DoublePressToConfirm:   true,
		ForwardingTimeoutMs:    600000,
		PromptMaxRows:          24,
		PromptFieldMaxWidth:    400,
		ReviewLogFieldMaxWidth: 1000,
	}
}

// Policy is a decoded policy.jsonc.
type Policy struct {
	Permission Permission
	Knobs      Knobs
	Examples   []Example
	// exampleDiags are the problems of the examples: reported with the
	// file's, but never a reason to fail the file closed (examples.go).
	exampleDiags Errors
}

// Agent is the permission part of one agent's frontmatter.
type Agent struct {
	Name       string
	Permission Permission
	Pos        Pos
}
