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
	Tags []string
	// Probe is a minimal command of the class, run in the fixture's
	// project: the default policy allows it and it does what it must not.
	Probe string
	Issue string
	Line  int
}

// ParseTolerated reads the tolerated list: one class a line, its tags
// separated by spaces, its probe and the issue text, the three separated
// by tabs; # starts a comment line.
func ParseTolerated(r io.Reader) ([]Class, error) {
	var out []Class
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 || strings.TrimSpace(f[0]) == "" || strings.TrimSpace(f[1]) == "" || strings.TrimSpace(f[2]) == "" {
			return nil, fmt.Errorf("attack: tolerated list line %d: want TAGS<tab>PROBE<tab>ISSUE", n)
		}
		out = append(out, Class{Tags: strings.Fields(f[0]), Probe: strings.TrimSpace(f[1]), Issue: strings.TrimSpace(f[2]), Line: n})
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

// Carries: the shape's tags hold every tag of the class (its finding:
// tags aside), so a run of it may show the class.
func (c *Class) Carries(tags []string) bool { return c.matches(tags, Finding{}) }

func (c *Class) matches(tags []string, f Finding) bool {
	for _, t := range c.Tags {
		if kind, ok := strings.CutPrefix(t, "finding:"); ok {
			if f.What != "" && f.Kind() != kind {
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
