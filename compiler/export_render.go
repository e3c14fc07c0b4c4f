package compiler

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteJSON writes the audit as indented JSON.
func (a *Audit) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(a)
}

var csvHeader = []string{"layer", "agent", "surface", "pattern", "action", "reason", "rank", "pos", "never_decides", "shadowed_by"}

// WriteCSV writes one row per rule, with a header; the duplicates are
// rows of layer "duplicate-key", the precedence warnings rows whose layer is
// their code.
func (a *Audit) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, r := range a.Rules {
		if err := cw.Write([]string{r.Layer, r.Agent, r.Surface, r.Pattern, r.Action, r.Reason, strconv.Itoa(r.Rank), r.Pos,
			strconv.FormatBool(r.NeverDecides), r.ShadowedBy}); err != nil {
			return err
		}
	}
	for _, d := range a.Duplicates {
		if err := cw.Write([]string{"duplicate-key", "", "", "", "", d.Msg, "", d.Pos, "", ""}); err != nil {
			return err
		}
	}
	for _, f := range a.Precedence {
		if err := cw.Write([]string{f.Code, "", "", "", "", f.Msg, "", f.Pos, "", ""}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteMarkdown writes the rules as a table per layer, then the rules that
// can never decide, the duplicated keys and the precedence warnings.
func (a *Audit) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Compiled rules\n")
	layer, agent := "", ""
	for _, r := range a.Rules {
		if r.Layer != layer || r.Agent != agent {
			layer, agent = r.Layer, r.Agent
			title := layer
			if agent != "" {
				title += " " + agent
			}
			fmt.Fprintf(&b, "\n## %s\n\n| surface | pattern | action | reason | rank | source | decides |\n| --- | --- | --- | --- | --- | --- | --- |\n", title)
		}
		decides := "yes"
		if r.NeverDecides {
			decides = "never: " + r.ShadowedBy
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %s | %s |\n", cell(r.Surface), code(r.Pattern), r.Action, cell(r.Reason), r.Rank, r.Pos, cell(decides))
	}
	b.WriteString("\n## Rules that can never decide\n\n")
	n := 0
	for _, r := range a.Rules {
		if r.NeverDecides {
			n++
			fmt.Fprintf(&b, "- %s %s %s at %s: %s\n", r.Layer, r.Surface, code(r.Pattern), r.Pos, r.ShadowedBy)
		}
	}
	if n == 0 {
		b.WriteString("None.\n")
	}
	b.WriteString("\n## Keys written twice\n\n")
	for _, d := range a.Duplicates {
		fmt.Fprintf(&b, "- %s: %s\n", d.Pos, d.Msg)
	}
	if len(a.Duplicates) == 0 {
		b.WriteString("None.\n")
	}
	b.WriteString("\n## Precedence surprises\n\n")
	for _, f := range a.Precedence {
		fmt.Fprintf(&b, "- %s: %s [%s]\n", f.Pos, cell(f.Msg), f.Code)
	}
	if len(a.Precedence) == 0 {
		b.WriteString("None.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cell escapes a Markdown table cell.
func cell(s string) string { return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s) }

func code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + cell(strings.ReplaceAll(s, "`", "'")) + "`"
}
