package profile

import "strings"

// Compose prepends the managed block to prompt: the begin marker, the
// control statement, the layers' bodies most specific first, the end
// marker, then a blank line and the prompt. Every block of its own at the
// very start of prompt is removed first, so composing is idempotent: the
// prompt never accumulates blocks, and the same inputs give the same
// bytes. With no layers it returns prompt as it is.
func Compose(prompt string, layers []string) string {
	if len(layers) == 0 {
		return prompt
	}
	rest := StripBlocks(prompt)
	var b strings.Builder
	b.WriteString(BeginMarker)
	b.WriteString("\n")
	b.WriteString(Control)
	for _, body := range layers {
		b.WriteString("\n\n")
		b.WriteString(body)
	}
	b.WriteString("\n")
	b.WriteString(EndMarker)
	if rest != "" {
		b.WriteString("\n\n")
		b.WriteString(rest)
	}
	return b.String()
}

// StripBlocks removes every managed block at the very start of prompt (a
// begin marker there, through the first end marker after it), with the
// line break and the blank line that follow each. A begin marker with no
// end marker, and marker text further inside the prompt, belong to the
// prompt and are kept.
func StripBlocks(prompt string) string {
	for strings.HasPrefix(prompt, BeginMarker) {
		end := strings.Index(prompt[len(BeginMarker):], EndMarker)
		if end < 0 {
			break
		}
		prompt = prompt[len(BeginMarker)+end+len(EndMarker):]
		for range 2 {
			prompt = strings.TrimPrefix(prompt, "\n")
		}
	}
	return prompt
}
