package schema

import (
	"fmt"
	"maps"
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Keys returns the keys the kind's schema names for the object at path,
// sorted: the candidates of a "did you mean". A path step is a key, or "*"
// for any key of a map the user names (the schema's additionalProperties)
// or any element of an array. A schema that branches (oneOf, anyOf, allOf)
// contributes the keys of every branch that describes an object. Keys
// reports an error for a path the schema does not describe.
func Keys(k Kind, path ...string) ([]string, error) {
	s, err := lookup(k)
	if err != nil {
		return nil, err
	}
	at := objects(s)
	for i, step := range path {
		var next []*jsonschema.Schema
		for _, o := range at {
			next = append(next, objects(child(o, step))...)
		}
		if len(next) == 0 {
			return nil, fmt.Errorf("schema: %s describes no object at /%s", k.FileName(), joinPath(path[:i+1]))
		}
		at = next
	}
	keys := map[string]bool{}
	for _, o := range at {
		for name := range o.Properties {
			keys[name] = true
		}
	}
	return slices.Sorted(maps.Keys(keys)), nil
}

// child is the schema of the value at step below s, or nil: the property
// step names, else any key's (additionalProperties), else an element's
// (step is then an index, or "*").
func child(s *jsonschema.Schema, step string) *jsonschema.Schema {
	if step != "*" {
		if p, ok := s.Properties[step]; ok {
			return p
		}
	}
	if ap, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
		return ap
	}
	return s.Items2020
}

// objects is s with its references followed and its branches opened: the
// schemas among them that can describe an object or an array.
func objects(s *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	var walk func(s *jsonschema.Schema, depth int)
	walk = func(s *jsonschema.Schema, depth int) {
		if s == nil || depth > 16 {
			return
		}
		if s.Ref != nil {
			walk(s.Ref, depth+1)
		}
		for _, b := range slices.Concat(s.OneOf, s.AnyOf, s.AllOf) {
			walk(b, depth+1)
		}
		if s.Properties != nil || s.AdditionalProperties != nil || s.Items2020 != nil {
			out = append(out, s)
		}
	}
	walk(s, 0)
	return out
}
