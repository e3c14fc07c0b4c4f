package attack

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Class is a known disagreement class: every shape that carries all its
// tags is tolerated, with the issue text that says what is to be fixed.
// A tag "finding:KIND" matches a finding of that kind (read, ls, write,
// bash, prints); a tag ending in "*" matches every tag it begins.
type Class struct {
	Tags  []string
	Issue string
	Line  int
}

// ParseTolerated reads the tolerated list: one class a line, its tags
// separated by spaces, a tab, the issue text; # starts a comment line.
func ParseTolerated(r io.Reader) ([]Class, error) {
	var out []Class
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		tags, issue, ok := strings.Cut(line, "\t")
		if !ok || strings.TrimSpace(tags) == "" || strings.TrimSpace(issue) == "" {
			return nil, fmt.Errorf("attack: tolerated list line %d: want TAGS<tab>ISSUE", n)
		}
		out = append(out, Class{Tags: strings.Fields(tags), Issue: strings.TrimSpace(issue), Line: n})
	}
	return out, sc.Err()
}

// Tolerates returns, for a result with findings, the classes that cover
// them (each finding checked against the shape's tags and its own kind),
// or nil when some finding no class covers.
func Tolerates(classes []Class, r Result) []*Class {
	var used []*Class
	for _, f := range r.Findings {
		var by *Class
		for i := range classes {
			if classes[i].matches(r.Shape.Tags, f) {
				by = &classes[i]
				break
			}
		}
		if by == nil {
			return nil
		}
		if !slices.Contains(used, by) {
			used = append(used, by)
		}
	}
	return used
}

func (c *Class) matches(tags []string, f Finding) bool {
	for _, t := range c.Tags {
		if kind, ok := strings.CutPrefix(t, "finding:"); ok {
			if f.Kind() != kind {
				return false
			}
			continue
		}
		if prefix, ok := strings.CutSuffix(t, "*"); ok {
			if !slices.ContainsFunc(tags, func(s string) bool { return strings.HasPrefix(s, prefix) }) {
				return false
			}
		} else if !slices.Contains(tags, t) {
			return false
		}
	}
	return true
}

// Kind is the finding's kind: read, ls, write, bash or prints.
func (f Finding) Kind() string {
	k, _, _ := strings.Cut(f.What, " ")
	return k
}
