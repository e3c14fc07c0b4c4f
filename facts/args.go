package facts

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// Path-bearing arguments. A file tool's path is the value its rules are
// matched against, so an argument regate cannot read as one path must not be
// decided as if it named nothing: `{"path": [".env"]}` decided on "" would
// ride `read: allow`, and a host that turns the array into a string reads
// .env. Such an input is malformed: it gets a check that asks at least
// (<malformed-input>, decided in regate.lib.checks), and every string inside
// it is gated as a path too, so a deny on one of them still denies.

// argument is one path-bearing argument as the call gives it.
type argument struct {
	// present is false when the key is absent or null (JSON's "no value",
	// which hosts send for an optional argument left out).
	present bool
	// value is the argument when it is a string.
	value    string
	isString bool
	// strings are the non-empty strings inside an array argument: what a
	// host coercing the array would name. mixed is set when the array also
	// holds something else than a string.
	strings []string
	mixed   bool
	// shape describes an argument that is neither absent nor a string.
	shape string
}

func readArgument(args map[string]any, key string) argument {
	v, ok := args[key]
	if !ok || v == nil {
		return argument{}
	}
	a := argument{present: true}
	switch x := v.(type) {
	case string:
		a.value, a.isString = x, true
	case []any:
		a.shape = "an array"
		for _, e := range x {
			s, ok := e.(string)
			a.mixed = a.mixed || !ok
			if s != "" {
				a.strings = append(a.strings, s)
			}
		}
	case []string: // a call built in Go rather than decoded from JSON
		a.shape = "an array"
		for _, s := range x {
			if s != "" {
				a.strings = append(a.strings, s)
			}
		}
	case map[string]any:
		a.shape = "an object"
	case bool:
		a.shape = "a boolean"
	case float64, json.Number, int, int64:
		a.shape = "a number"
	default:
		a.shape = fmt.Sprintf("a %T", v)
	}
	return a
}

// malformedCheck is the check of a path-bearing argument regate cannot
// read as a path, on the tool's own surface with an empty value (an empty
// value cannot be approved for the session, only once). why says what is
// wrong, for the person asked and the decision log.
func malformedCheck(tool, why string) Check {
	return Check{Surface: tool, Forms: [][]string{{""}}, Malformed: why}
}

// notAString is the reason of a malformed argument that is present but not
// a string.
func notAString(key string, a argument) string {
	if a.mixed {
		return fmt.Sprintf("input.%s is an array holding something else than strings; regate cannot tell which paths the tool uses", key)
	}
	return fmt.Sprintf("input.%s is %s, not a string; regate cannot tell which path the tool uses", key, a.shape)
}

// fileTools must name the file they act on: without a path there is nothing
// to gate, and the call is malformed.
var fileTools = map[string]bool{"read": true, "write": true, "edit": true}

// searchTools default their path to the working directory when it is
// absent or empty; every other tool with a "path" argument is gated on it as
// given.
var searchTools = map[string]bool{"find": true, "grep": true, "ls": true}

// pathToolChecks gates a tool on its "path" argument: the path surface and
// the tool's own surface, or the malformed floor with every string inside
// the argument gated as well.
func (e *Env) pathToolChecks(tool string, args map[string]any, cwd string) []Check {
	a := readArgument(args, "path")
	switch {
	case a.isString && a.value != "":
		return e.toolPathChecks(tool, a.value, cwd)
	case !a.isString && a.present:
		out := []Check{malformedCheck(tool, notAString("path", a))}
		for _, s := range a.strings {
			if len(out) > MaxChecks {
				break // Build decides the call as one over-budget check
			}
			out = append(out, e.toolPathChecks(tool, s, cwd)...)
		}
		return out
	case searchTools[tool]:
		return e.toolPathChecks(tool, ".", cwd)
	case fileTools[tool] && a.present:
		return []Check{malformedCheck(tool, "input.path is empty; regate cannot tell which file the tool uses")}
	case fileTools[tool]:
		return []Check{malformedCheck(tool, "input.path is missing; regate cannot tell which file the tool uses")}
	}
	// Any other tool without a path is gated on its own surface.
	return []Check{{Surface: tool, Forms: [][]string{{""}}}}
}

// toolPathChecks gates one path on the path surface and on the tool's own
// surface, followed by the path's strict-only checks.
func (e *Env) toolPathChecks(tool, p, cwd string) []Check {
	pcs := e.pathChecks(p, cwd)
	pc := pcs[0]
	out := []Check{pc, {Surface: tool, Value: pc.Value, Forms: pc.Forms, Error: pc.Error}}
	return append(out, pcs[1:]...)
}

// mcpPathChecks gates an mcp call's arguments.path. An MCP tool's arguments
// follow the server's own schema, in which a list of paths is legitimate:
// each string of an array is gated as a path. Any other value that is not a
// string is malformed.
func (e *Env) mcpPathChecks(args map[string]any, cwd string) []Check {
	inner, ok := args["arguments"].(map[string]any)
	if !ok {
		return nil
	}
	out := e.mcpFieldChecks(inner, "path", cwd)
	if uri, ok := inner["uri"].(string); ok {
		if p, ok := fileURIPath(uri); ok {
			out = append(out, e.pathChecks(p, cwd)...)
		}
	}
	return append(out, e.mcpFileChecks(args, inner, out, cwd)...)
}

// fileURIPath is the local path a file: URI names (a resource read's uri,
// file:///home/u/.ssh/id_rsa, or file:/home/u/… without the authority,
// RFC 8089): after file:// comes an empty host or localhost, then the
// absolute path, percent-decoded (one that does not decode is taken as
// written: the path rules then see it unchanged).
func fileURIPath(uri string) (string, bool) {
	rest, ok := cutPrefixFold(uri, "file:")
	if !ok {
		return "", false
	}
	if r, ok := strings.CutPrefix(rest, "//"); ok {
		rest = r
		if r, ok := cutPrefixFold(rest, "localhost"); ok {
			rest = r
		}
	}
	if !strings.HasPrefix(rest, "/") {
		return "", false // another host's file: not on this machine
	}
	if p, err := url.PathUnescape(rest); err == nil {
		rest = p
	}
	return rest, true
}

// cutPrefixFold is strings.CutPrefix, the prefix matched in any case (URI
// schemes and host names are case-insensitive).
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// mcpFieldChecks gates the paths of one field of an mcp call's arguments.
func (e *Env) mcpFieldChecks(inner map[string]any, field, cwd string) []Check {
	a := readArgument(inner, field)
	var out []Check
	switch {
	case a.isString && a.value != "":
		out = e.pathChecks(a.value, cwd)
	case a.shape == "an array" && !a.mixed:
		for _, s := range a.strings {
			if len(out) > MaxChecks {
				break // Build decides the call as one over-budget check
			}
			out = append(out, e.pathChecks(s, cwd)...)
		}
	case a.present && !a.isString:
		out = []Check{malformedCheck("mcp", notAString("arguments."+field, a))}
		for _, s := range a.strings {
			if len(out) > MaxChecks {
				break
			}
			out = append(out, e.pathChecks(s, cwd)...)
		}
	}
	return out
}
