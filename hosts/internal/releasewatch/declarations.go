package releasewatch

import (
	"bufio"
	"bytes"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// A Fixture is a release's tool declarations: each declared input type
// and the names of its top-level fields, sorted.
type Fixture map[string][]string

var (
	unionStart = regexp.MustCompile(`(?m)^export type ToolInputSchemas =`)
	ifaceStart = regexp.MustCompile(`^export interface (\w+) \{(\}?)`)
	fieldLine  = regexp.MustCompile(`^\s*(?:"([^"]+)"|([A-Za-z_$][\w$]*))\??:`)
)

// Declarations reads the tool input types of a TypeScript declaration
// file shaped as Claude Code's sdk-tools.d.ts: the members of the
// ToolInputSchemas union (but ToolOutputSchemas) and the top-level fields
// of each member's interface.
func Declarations(src []byte) (Fixture, error) {
	loc := unionStart.FindIndex(src)
	if loc == nil {
		return nil, fmt.Errorf("releasewatch: no ToolInputSchemas union")
	}
	end := bytes.IndexByte(src[loc[1]:], ';')
	if end < 0 {
		return nil, fmt.Errorf("releasewatch: the ToolInputSchemas union does not end")
	}
	out := Fixture{}
	for _, m := range strings.Split(string(src[loc[1]:loc[1]+end]), "|") {
		if m = strings.TrimSpace(m); m != "" && m != "ToolOutputSchemas" {
			out[m] = nil
		}
	}
	fields, err := interfaceFields(src)
	if err != nil {
		return nil, err
	}
	for name := range out {
		f, ok := fields[name]
		if !ok {
			return nil, fmt.Errorf("releasewatch: %s is in the union but declared nowhere", name)
		}
		out[name] = f
	}
	return out, nil
}

// interfaceFields are the top-level field names of every exported
// interface, sorted: a field line at brace depth one.
func interfaceFields(src []byte) (map[string][]string, error) {
	out := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	name, depth := "", 0
	for sc.Scan() {
		line := sc.Text()
		if name == "" {
			if m := ifaceStart.FindStringSubmatch(line); m != nil {
				out[m[1]] = []string{}
				if m[2] == "" {
					name, depth = m[1], 1
				}
			}
			continue
		}
		if depth == 1 {
			if m := fieldLine.FindStringSubmatch(line); m != nil {
				out[name] = append(out[name], m[1]+m[2])
			}
		}
		depth += strings.Count(line, "{") - strings.Count(line, "}")
		if depth <= 0 {
			slices.Sort(out[name])
			out[name] = slices.Compact(out[name])
			name = ""
		}
	}
	if name != "" {
		return nil, fmt.Errorf("releasewatch: interface %s does not end", name)
	}
	return out, sc.Err()
}

// Format is a fixture as the repository keeps it: a header line, then one
// line per declared type, "Name: field field …", sorted.
func (f Fixture) Format(header string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n", header)
	for _, name := range slices.Sorted(maps.Keys(f)) {
		fmt.Fprintf(&b, "%s:", name)
		for _, field := range f[name] {
			b.WriteString(" " + field)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// ParseFixture reads a fixture Format wrote; lines starting with # are
// comments.
func ParseFixture(src []byte) (Fixture, error) {
	out := Fixture{}
	for i, line := range strings.Split(string(src), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, fields, ok := strings.Cut(line, ":")
		if !ok || name == "" {
			return nil, fmt.Errorf("releasewatch: line %d: want \"Name: field …\"", i+1)
		}
		out[name] = strings.Fields(fields)
	}
	return out, nil
}
