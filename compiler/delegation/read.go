package delegation

import (
	"encoding/json"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/compiler/internal/ruledoc"
)

// The typed reads of a delegation file. The spec's fields are plain JSON
// types, read as encoding/json reads them into the Policy's Go types: null
// is accepted everywhere and leaves a field as it was (a list or an object
// becomes nil, a nullable string nil, a null entry of a list or an object
// ""), an integer is a number written as one, and a value of another type
// is reported at the value, "want a list of strings". Each reports whether
// it read the value.

func (d *decoder) want(v *ruledoc.Node, what string) bool {
	d.errorf(v, compiler.CodeWrongType, "want %s", what)
	return false
}

func (d *decoder) bool(v *ruledoc.Node, dst *bool) bool {
	switch v.Kind {
	case ruledoc.Null:
		return true
	case ruledoc.Bool:
		*dst = v.Bool
		return true
	}
	return d.want(v, "true or false")
}

func (d *decoder) int64(v *ruledoc.Node, dst *int64) bool {
	if v.IsNull() {
		return true
	}
	if i, ok := v.Int64(); ok {
		*dst = i
		return true
	}
	return d.want(v, "an integer")
}

// number reads a number as written, which ratOf reads exactly.
func (d *decoder) number(v *ruledoc.Node, dst *json.Number) bool {
	switch v.Kind {
	case ruledoc.Null:
		return true
	case ruledoc.Number:
		*dst = json.Number(v.Str)
		return true
	}
	return d.want(v, "a number")
}

func (d *decoder) string(v *ruledoc.Node, dst *string) bool {
	switch v.Kind {
	case ruledoc.Null:
		return true
	case ruledoc.String:
		*dst = v.Str
		return true
	}
	return d.want(v, "a string")
}

// optString reads a string or null, which is none.
func (d *decoder) optString(v *ruledoc.Node, dst **string) bool {
	switch v.Kind {
	case ruledoc.Null:
		*dst = nil
		return true
	case ruledoc.String:
		s := v.Str
		*dst = &s
		return true
	}
	return d.want(v, "a string or null")
}

// strings reads a list of strings: nil for null, never nil for a list.
func (d *decoder) strings(v *ruledoc.Node) ([]string, bool) {
	switch v.Kind {
	case ruledoc.Null:
		return nil, true
	case ruledoc.Array:
		out := make([]string, 0, len(v.Elems))
		for _, e := range v.Elems {
			if e.Kind != ruledoc.String && e.Kind != ruledoc.Null {
				return nil, d.want(v, "a list of strings")
			}
			out = append(out, e.Str)
		}
		return out, true
	}
	return nil, d.want(v, "a list of strings")
}

// stringMap reads an object of strings: nil for null; of a repeated key,
// the later value.
func (d *decoder) stringMap(v *ruledoc.Node) (map[string]string, bool) {
	switch v.Kind {
	case ruledoc.Null:
		return nil, true
	case ruledoc.Object:
		out := make(map[string]string, len(v.Members))
		for _, m := range v.Members {
			if m.Val.Kind != ruledoc.String && m.Val.Kind != ruledoc.Null {
				return nil, d.want(v, "an object of strings")
			}
			out[m.Key] = m.Val.Str
		}
		return out, true
	}
	return nil, d.want(v, "an object of strings")
}
