package ruledoc

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

// The codes of what this package finds itself. Stable: tools and tests
// branch on them; compiler re-exports each under its Code* name.
const (
	CodeSyntax        = "jsonc_syntax"
	CodeTrailingComma = "jsonc_trailing_comma"
	CodeInvalidUTF8   = "invalid_utf8"
	CodeEmptyFile     = "empty_file"
	CodeTooLarge      = "file_too_large"
	CodeTooDeep       = "nesting_too_deep"
	CodeDuplicateKey  = "duplicate_key"
	CodeUnknownKey    = "unknown_key"
	CodeWrongType     = "wrong_type"
	CodeOutOfRange    = "value_out_of_range"
	CodeFrontmatter   = "frontmatter_syntax"
)

// Error is one positioned diagnostic. Code is a stable string; Msg is for
// people.
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

// Diags collects the diagnostics of one file, in the order they were
// found. The zero Diags is ready to use.
type Diags struct {
	List Errors
}

// Errorf adds an error: the file fails closed.
func (d *Diags) Errorf(pos Pos, code, format string, args ...any) {
	d.List = append(d.List, &Error{Pos: pos, Code: code, Msg: fmt.Sprintf(format, args...), Severity: SeverityError})
}

// Warnf adds a warning: it changes nothing.
func (d *Diags) Warnf(pos Pos, code, format string, args ...any) {
	d.List = append(d.List, &Error{Pos: pos, Code: code, Msg: fmt.Sprintf(format, args...), Severity: SeverityWarning})
}

// Failed reports whether any diagnostic is an error.
func (d *Diags) Failed() bool {
	for _, e := range d.List {
		if e.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Unknown warns of a key that no decoder of its object reads, where the key
// stands, with the key of known it most likely misspells. code is the
// decoder's code for it, where names the object ("" for the top level) and
// effect says what becomes of the key ("is ignored"). A misspelt key is
// never an error, so that a file written for a newer regate still loads,
// but it must never pass in silence: a typo such as "permision" drops
// every rule under it.
func (d *Diags) Unknown(m Member, code string, known []string, where, effect string) {
	d.Warnf(m.KeyPos, code, "%s", UnknownKeyMessage(m.Key, known, where, effect))
}
