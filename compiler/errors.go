package compiler

import (
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in a rule file: the file name, a 1-based line and a
// 1-based byte column. The zero Pos means "no position".
type Pos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// String renders the position as file:line:col, the form every diagnostic and
// every decision uses.
func (p Pos) String() string {
	if p.File == "" && p.Line == 0 {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Severity tells whether a diagnostic made the file fail closed (SeverityError)
// or only deserves the user's attention (SeverityWarning).
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Stable diagnostic codes. Tools and tests branch on these, so they never
// change once published; add new ones instead.
const (
	CodeSyntax           = "jsonc_syntax"
	CodeTrailingComma    = "jsonc_trailing_comma"
	CodeInvalidUTF8      = "invalid_utf8"
	CodeEmptyFile        = "empty_file"
	CodeTooLarge         = "file_too_large"
	CodeTooDeep          = "nesting_too_deep"
	CodeDuplicateKey     = "duplicate_key"
	CodeUnknownKey       = "unknown_key"
	CodeDeprecatedKey    = "deprecated_key"
	CodeWrongType        = "wrong_type"
	CodeUnknownAction    = "policy_unknown_action"
	CodeDenyObjectAction = "deny_object_action"
	CodeReasonType       = "reason_not_string"
	CodeHardGuardAction  = "hard_guard_not_deny"
	CodeOutOfRange       = "value_out_of_range"
	CodeMissingField     = "missing_field"
	CodeInertSurface     = "inert_surface"
	CodeFrontmatter      = "frontmatter_syntax"
	CodeBashFallback     = "bash_inherits_allow"
	CodeAutoReviewPair   = "autoreview_provider_model"
	CodeInvalidGlob      = "invalid_glob"
	CodeWidens           = "delegation_widens"
	CodePatternTooLong   = "pattern_too_long"
	CodeTooManyRules     = "too_many_rules"
	// The precedence lint (lint.go, WithPrecedenceLint): warnings only.
	CodeOutrankedDeny       = "outranked_deny"
	CodeOrderDecides        = "order_decides"
	CodePrecedenceUnchecked = "precedence_unchecked"
)

// Error is one positioned diagnostic. Code is a stable string from the
// Code* constants; Msg is for people.
type Error struct {
	Pos      Pos      `json:"pos"`
	Code     string   `json:"code"`
	Msg      string   `json:"message"`
	Severity Severity `json:"severity"`
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s: %s [%s]", e.Pos, e.Severity, e.Msg, e.Code)
}

// Errors is a list of diagnostics sorted by position. It implements error so
// a caller can return it as is.
type Errors []*Error

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Sort orders the diagnostics by file, line and column, keeping the order in
// which they were found for equal positions.
func (es Errors) Sort() {
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i].Pos, es[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Fatal returns the diagnostics of SeverityError, or nil when there are none.
func (es Errors) Fatal() Errors {
	var out Errors
	for _, e := range es {
		if e.Severity == SeverityError {
			out = append(out, e)
		}
	}
	return out
}

// diags collects diagnostics for one file.
type diags struct {
	list Errors
}

func (d *diags) errorf(pos Pos, code, format string, args ...any) {
	d.list = append(d.list, &Error{Pos: pos, Code: code, Msg: fmt.Sprintf(format, args...), Severity: SeverityError})
}

func (d *diags) warnf(pos Pos, code, format string, args ...any) {
	d.list = append(d.list, &Error{Pos: pos, Code: code, Msg: fmt.Sprintf(format, args...), Severity: SeverityWarning})
}

func (d *diags) failed() bool {
	for _, e := range d.list {
		if e.Severity == SeverityError {
			return true
		}
	}
	return false
}
