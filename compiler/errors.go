package compiler

import "github.com/regate/regate/compiler/internal/ruledoc"

// Pos is a position in a rule file: the file name, a 1-based line and a
// 1-based byte column. The zero Pos means "no position". String renders it
// as file:line:col, the form every diagnostic and every decision uses.
type Pos = ruledoc.Pos

// Severity tells whether a diagnostic made the file fail closed (SeverityError)
// or only deserves the user's attention (SeverityWarning).
type Severity = ruledoc.Severity

const (
	SeverityError   = ruledoc.SeverityError
	SeverityWarning = ruledoc.SeverityWarning
)

// Stable diagnostic codes. Tools and tests branch on these, so they never
// change once published; add new ones instead.
const (
	CodeSyntax           = ruledoc.CodeSyntax
	CodeTrailingComma    = ruledoc.CodeTrailingComma
	CodeInvalidUTF8      = ruledoc.CodeInvalidUTF8
	CodeEmptyFile        = ruledoc.CodeEmptyFile
	CodeTooLarge         = ruledoc.CodeTooLarge
	CodeTooDeep          = ruledoc.CodeTooDeep
	CodeDuplicateKey     = ruledoc.CodeDuplicateKey
	CodeUnknownKey       = ruledoc.CodeUnknownKey
	CodeDeprecatedKey    = "deprecated_key"
	CodeWrongType        = ruledoc.CodeWrongType
	CodeUnknownAction    = "policy_unknown_action"
	CodeDenyObjectAction = "deny_object_action"
	CodeReasonType       = "reason_not_string"
	CodeHardGuardAction  = "hard_guard_not_deny"
	CodeOutOfRange       = ruledoc.CodeOutOfRange
	CodeMissingField     = "missing_field"
	CodeInertSurface     = "inert_surface"
	CodeFrontmatter      = ruledoc.CodeFrontmatter
	CodeBashFallback     = "bash_inherits_allow"
	CodeAutoReviewPair   = "autoreview_provider_model"
	CodeInvalidGlob      = "invalid_glob"
	CodeWidens           = "delegation_widens"
	CodePatternTooLong   = "pattern_too_long"
	CodeTooManyRules     = "too_many_rules"
	CodeMCPServerForm    = "mcp_server_form"
	CodePathForm         = "path_form"
	// The precedence lint (lint.go, WithPrecedenceLint): warnings only.
	CodeOutrankedDeny       = "outranked_deny"
	CodeOrderDecides        = "order_decides"
	CodePrecedenceUnchecked = "precedence_unchecked"
)

// Error is one positioned diagnostic: Pos, a stable Code from the Code*
// constants, Msg for people, and a Severity. Every rule set's decoder
// (permission, delegation, profile) reports with it; it is defined with
// the shared decoder, compiler/internal/ruledoc.
type Error = ruledoc.Error

// Errors is a list of diagnostics sorted by position. It implements error so
// a caller can return it as is; Sort orders it by file, line and column,
// Fatal keeps the errors.
type Errors = ruledoc.Errors
