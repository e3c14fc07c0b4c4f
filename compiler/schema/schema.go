package schema

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// FS holds the schema files.
//
//go:embed *.schema.json
var FS embed.FS

// Kind names a kind of rule file, and so its schema.
type Kind string

const (
	Policy            Kind = "policy"
	HardGuards        Kind = "hard-guards"
	Agent             Kind = "agent"
	Delegation        Kind = "delegation"
	DelegationRequest Kind = "delegation-request"
	ProfileConfig     Kind = "profile-config"
)

// Kinds lists every kind of rule file that has a schema.
func Kinds() []Kind {
	return []Kind{Policy, HardGuards, Agent, Delegation, DelegationRequest, ProfileConfig}
}

// FileName is the name of the kind's schema file in FS and in the
// repository's compiler/schema folder.
func (k Kind) FileName() string { return string(k) + ".schema.json" }

// base is where the schemas are placed for the validator: a name for
// resolving relative $refs between them, never fetched.
const base = "file:///regate/compiler/schema/"

var compiled = sync.OnceValues(compileAll)

func compileAll() (map[Kind]*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	names, err := fs.Glob(FS, "*.schema.json")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		f, err := FS.Open(name)
		if err != nil {
			return nil, err
		}
		doc, err := jsonschema.UnmarshalJSON(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("schema: %s: %w", name, err)
		}
		if err := c.AddResource(base+name, doc); err != nil {
			return nil, fmt.Errorf("schema: %s: %w", name, err)
		}
	}
	out := map[Kind]*jsonschema.Schema{}
	for _, k := range Kinds() {
		s, err := c.Compile(base + k.FileName())
		if err != nil {
			return nil, fmt.Errorf("schema: %s: %w", k.FileName(), err)
		}
		out[k] = s
	}
	return out, nil
}

// noLoader refuses every URL: the schemas refer only to each other.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema: %s is not one of regate's schemas", url)
}

func lookup(k Kind) (*jsonschema.Schema, error) {
	all, err := compiled()
	if err != nil {
		return nil, err
	}
	s, ok := all[k]
	if !ok {
		return nil, fmt.Errorf("schema: no schema for %q", k)
	}
	return s, nil
}

// A Violation is one way a document breaks its schema: where (the path of
// keys and indexes from the root), what, and for an unknown key the key
// itself.
type Violation struct {
	Path []string
	// Key is set when the violation is a key the schema does not allow at
	// Path.
	Key string
	Msg string
}

func (v Violation) String() string {
	return fmt.Sprintf("/%s: %s", joinPath(v.Path), v.Msg)
}

func joinPath(p []string) string { return strings.Join(p, "/") }

// Validate checks doc, a decoded JSON value (map[string]any, []any,
// string, float64 or json.Number, bool, nil), against the kind's schema.
// It returns nil when doc is valid; an error means the schemas themselves
// could not be compiled, or doc holds a value JSON cannot.
func Validate(k Kind, doc any) ([]Violation, error) {
	s, err := lookup(k)
	if err != nil {
		return nil, err
	}
	err = s.Validate(doc)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, err
	}
	var out []Violation
	collect(ve, &out)
	return out, nil
}

// ValidateJSON is Validate of a JSON document (comments removed; see
// hujson.Standardize for JSONC).
func ValidateJSON(k Kind, src []byte) ([]Violation, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return Validate(k, doc)
}

// collect gathers the leaves of a validation error: the causes that say
// what is wrong rather than which branch of the schema failed.
func collect(ve *jsonschema.ValidationError, out *[]Violation) {
	if len(ve.Causes) > 0 {
		causes := ve.Causes
		if alternatives(ve) {
			// Of the branches a value could have taken ("an action or a
			// pattern map"), report those whose kind of value it is: that
			// "rm *" holds an unknown key, not also that it is no action.
			if deep := slices.DeleteFunc(slices.Clone(causes), func(c *jsonschema.ValidationError) bool {
				return wrongKind(c, len(ve.InstanceLocation))
			}); len(deep) > 0 {
				causes = deep
			}
		}
		for _, c := range causes {
			collect(c, out)
		}
		return
	}
	if ap, ok := ve.ErrorKind.(*kind.AdditionalProperties); ok {
		for _, key := range ap.Properties {
			*out = append(*out, Violation{Path: slices.Clone(ve.InstanceLocation), Key: key, Msg: fmt.Sprintf("unknown key %q", key)})
		}
		return
	}
	*out = append(*out, Violation{Path: slices.Clone(ve.InstanceLocation), Msg: ve.ErrorKind.LocalizedString(english)})
}

var english = message.NewPrinter(language.English)

func alternatives(ve *jsonschema.ValidationError) bool {
	switch ve.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		return true
	}
	return false
}

// wrongKind reports whether a branch failed only because the value at
// depth is not of the branch's kind (type, enum or const), and so says
// nothing about what is wrong inside it.
func wrongKind(ve *jsonschema.ValidationError, depth int) bool {
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			if !wrongKind(c, depth) {
				return false
			}
		}
		return true
	}
	if len(ve.InstanceLocation) != depth {
		return false
	}
	switch ve.ErrorKind.(type) {
	case *kind.Type, *kind.Enum, *kind.Const:
		return true
	}
	return false
}
