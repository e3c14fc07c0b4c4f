package importrules

import (
	"strings"
)

// A translation is the regate patterns for one host pattern, and how their
// meaning differs from the host's: wider (they match more) or narrower
// (they match less). A restriction (deny, ask) may be wider, never
// narrower; an allow the other way round.
type translation struct {
	patterns []string
	wider    []string
	narrower []string
}

func (t *translation) widen(why string)  { t.wider = appendOnce(t.wider, why) }
func (t *translation) narrow(why string) { t.narrower = appendOnce(t.narrower, why) }

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// settle checks a translation against the never-loosen rule: a restriction
// that came out narrower, or an allow that came out wider, is refused with
// why. Otherwise the note says how the meaning differs.
func (t translation) settle(action Action) (note, why string) {
	if isRestrictive(action) && len(t.narrower) > 0 {
		return "", "regate would match less than the host: " + strings.Join(t.narrower, "; ")
	}
	if !isRestrictive(action) && len(t.wider) > 0 {
		return "", "regate would allow more than the host: " + strings.Join(t.wider, "; ")
	}
	if isRestrictive(action) {
		if len(t.wider) > 0 {
			return "wider than the host's: " + strings.Join(t.wider, "; "), ""
		}
		return "", ""
	}
	if len(t.narrower) > 0 {
		return "narrower than the host's: " + strings.Join(t.narrower, "; "), ""
	}
	return "", ""
}

// The differences a path translation reports.
const (
	crossesSlash   = "gitignore's * and ? stop at /, regate's cross it"
	outsideWorkdir = "it also matches outside the working folder"
	topLevelOnly   = "only at the top of the working folder, where Claude Code matches the name at any depth"
	classAsAny     = "a [...] class becomes ?, any one character"
	fileOfDirName  = "a file of the folder's name too"
)

// claudePath translates the content of a Claude Code Read(…) or Edit(…)
// rule, which Claude Code matches the gitignore way (the ignore package):
//
//   - "//x" is absolute, "~/x" under the home folder, "/x" under the folder
//     holding the settings file's .claude folder (settingsRoot), anything
//     else ("x", "./x") relative to the working folder;
//   - a trailing "/**" is dropped before matching, so "src/**" is the name
//     "src", which (having no other /) matches at any depth;
//   - a pattern matches a path when it matches the path or one of its
//     parent folders, so "secrets" also covers "secrets/a/b";
//   - "*" and "?" stop at "/", "**" as a whole segment crosses folders.
//
// regate's "*" crosses "/" and a relative pattern meets a path relative to
// the working folder, so "x" and "x/*" are exact; everything else is
// reported as wider or narrower.
func claudePath(content, settingsRoot string, restrictive bool) (translation, string) {
	var t translation
	prefix, body := "", content
	rooted := true
	switch {
	case strings.HasPrefix(content, "//"):
		prefix, body = "/", content[2:]
	case strings.HasPrefix(content, "~/"):
		prefix, body = "~/", content[2:]
	case strings.HasPrefix(content, "/"):
		if settingsRoot == "" {
			return t, "a /path rule is relative to the settings file's folder, which is not known here"
		}
		prefix, body = strings.TrimSuffix(settingsRoot, "/")+"/", content[1:]
	default:
		rooted = false
		body = strings.TrimPrefix(content, "./")
	}
	if strings.HasSuffix(body, "/**") || body == "**" && rooted {
		body = strings.TrimSuffix(strings.TrimSuffix(body, "**"), "/")
	}
	if body == "" {
		if !rooted || !restrictive {
			return t, "Claude Code matches nothing with it (the ignore package skips an empty pattern)"
		}
		t.patterns = []string{prefix + "*"}
		t.widen("Claude Code matches nothing with it; imported as everything under " + strings.TrimSuffix(prefix, "/"))
		return t, ""
	}
	if strings.HasPrefix(body, "!") {
		return t, "a negated (!) pattern has no regate form"
	}
	if strings.Contains(body, `\`) {
		return t, `a \ escape has no regate form`
	}
	dirOnly := strings.HasSuffix(body, "/")
	body = strings.TrimRight(body, "/")
	if strings.Contains(body, "[") {
		if !restrictive {
			return t, "a [...] character class has no regate form"
		}
		body = classesAsAny(body)
		t.widen(classAsAny)
	}
	anchored := rooted || strings.Contains(body, "/")

	segs := strings.Split(body, "/")
	doubles := 0
	for i, s := range segs {
		switch {
		case s == "**":
			doubles++
		case s == "*" && i == len(segs)-1 && len(segs) > 1:
			// "a/*" matches a's entries and, through them, everything
			// below a: regate's "a/*" exactly.
		case strings.ContainsAny(s, "*?"):
			t.widen(crossesSlash)
		}
	}
	if doubles > 3 {
		return t, "too many ** segments"
	}
	variants := expandDoubles(segs)
	if !anchored {
		// A name without a slash matches at any depth.
		if restrictive && !strings.HasPrefix(body, "*") {
			variants = append(variants, "*/"+body)
			t.widen(outsideWorkdir)
		} else if !restrictive && !strings.HasPrefix(body, "*") {
			t.narrow(topLevelOnly)
		}
	}
	for _, v := range variants {
		if !rooted && strings.HasPrefix(v, "*") {
			t.widen(outsideWorkdir)
		}
		if !dirOnly || restrictive {
			t.patterns = appendOnce(t.patterns, prefix+v)
		}
		if v != "*" && !strings.HasSuffix(v, "/*") {
			t.patterns = appendOnce(t.patterns, prefix+v+"/*")
		}
	}
	if dirOnly && restrictive {
		t.widen(fileOfDirName)
	}
	return t, ""
}

// expandDoubles writes a pattern's "**" segments the regate way: each is
// either no folder at all or "*" (one or more, "*" crossing "/").
func expandDoubles(segs []string) []string {
	out := []string{""}
	for _, s := range segs {
		var next []string
		for _, o := range out {
			if s == "**" {
				next = append(next, o) // no folder
			}
			if o == "" {
				next = append(next, s)
			} else {
				next = append(next, o+"/"+s)
			}
		}
		out = next
	}
	var res []string
	for _, o := range out {
		if o == "**" {
			o = "*"
		}
		o = strings.ReplaceAll(o, "**", "*")
		if o != "" {
			res = appendOnce(res, o)
		}
	}
	return res
}

// classesAsAny replaces each [...] class with "?".
func classesAsAny(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '[' {
			if j := strings.IndexByte(s[i+1:], ']'); j >= 0 {
				b.WriteByte('?')
				i += j + 1
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
