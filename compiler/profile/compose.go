package profile

import "strings"

// Compose prepends the managed block to prompt: the begin marker, the
// control statement, the layers' bodies most specific first, the end
// marker, then a blank line and the prompt. Every block of its own at the
// start of prompt is removed first (StripBlocks), so composing is
// idempotent: the prompt never accumulates blocks, and the same inputs give
// the same bytes. The block's own line breaks are the prompt's: CRLF when
// the prompt's first line break is one, so a CRLF prompt stays CRLF around
// the block (the bodies are verbatim, their line breaks as written). With
// no layers it returns prompt as it is.
func Compose(prompt string, layers []string) string {
	if len(layers) == 0 {
		return prompt
	}
	nl := lineBreak(prompt)
	rest := StripBlocks(prompt)
	var b strings.Builder
	b.WriteString(BeginMarker)
	b.WriteString(nl)
	b.WriteString(Control)
	for _, body := range layers {
		b.WriteString(nl + nl)
		b.WriteString(body)
	}
	b.WriteString(nl)
	b.WriteString(EndMarker)
	if rest != "" {
		b.WriteString(nl + nl)
		b.WriteString(rest)
	}
	return b.String()
}

// StripBlocks removes the prompt's leading byte-order mark and every
// managed block at its start: a begin marker (after any blank lines)
// through the first end marker after it, with the line break and the
// blank line that follow, LF or CRLF. Blank lines before a block go with
// it: a host that puts a newline before the prompt it hands over still has
// regate's stale block recognised, instead of stacking a second one. A
// begin marker with no end marker, one after other text (even spaces), and
// marker text further inside the prompt belong to the prompt and are kept,
// with the blank lines before them.
func StripBlocks(prompt string) string {
	rest := strings.TrimPrefix(prompt, bom)
	for {
		s := trimLineBreaks(rest, -1)
		if !strings.HasPrefix(s, BeginMarker) {
			return rest
		}
		end := strings.Index(s[len(BeginMarker):], EndMarker)
		if end < 0 {
			return rest
		}
		rest = trimLineBreaks(s[len(BeginMarker)+end+len(EndMarker):], 2)
	}
}

// trimLineBreaks removes up to n leading line breaks ("\n" or "\r\n"; n <
// 0: all of them).
func trimLineBreaks(s string, n int) string {
	for ; n != 0; n-- {
		switch {
		case strings.HasPrefix(s, "\r\n"):
			s = s[2:]
		case strings.HasPrefix(s, "\n"):
			s = s[1:]
		default:
			return s
		}
	}
	return s
}

// lineBreak is the prompt's line ending: "\r\n" when its first line break
// is one, else "\n".
func lineBreak(prompt string) string {
	if i := strings.IndexByte(prompt, '\n'); i > 0 && prompt[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}
