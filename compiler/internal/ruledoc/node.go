package ruledoc

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/tailscale/hujson"
)

// Kind is the type of a decoded value, shared by JSON and YAML input.
type Kind int

const (
	Null Kind = iota
	Bool
	Number
	String
	Object
	Array
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "object", "array"}[k]
}

// Article is the indefinite article of k's name: "an object", "a string".
func (k Kind) Article() string {
	if k == Object || k == Array {
		return "an"
	}
	return "a"
}

// Node is one decoded value with the position where it starts. JSON and
// YAML both decode into nodes, so that one set of decoders, and one set of
// diagnostics, serves every rule file.
type Node struct {
	Kind Kind
	Pos  Pos
	// Str is a string's value, or a number as written ("1.0", "1e3"): a
	// decoder that wants an exact integer reads the literal, not Num.
	Str     string
	Num     float64
	Bool    bool
	Members []Member // an object's, in file order
	Elems   []*Node  // an array's
	// raw is the JSON value the node was read from (nil from YAML): what
	// Standard renders. The node fits the same allocation size class with
	// it as without it.
	raw *hujson.Value
}

// Member is one key of an object and its value.
type Member struct {
	Key    string
	KeyPos Pos
	Val    *Node
}

// Get returns the value of the first member named key, or nil.
func (n *Node) Get(key string) *Node {
	for i := range n.Members {
		if n.Members[i].Key == key {
			return n.Members[i].Val
		}
	}
	return nil
}

// IsNull reports whether n is null.
func (n *Node) IsNull() bool { return n.Kind == Null }

// Text is n's value when n is a string.
func (n *Node) Text() (string, bool) {
	if n == nil || n.Kind != String {
		return "", false
	}
	return n.Str, true
}

// Boolean is n's value when n is true or false.
func (n *Node) Boolean() (bool, bool) {
	if n == nil || n.Kind != Bool {
		return false, false
	}
	return n.Bool, true
}

// Float is n's value when n is a finite number.
func (n *Node) Float() (float64, bool) {
	if n == nil || n.Kind != Number || math.IsInf(n.Num, 0) || math.IsNaN(n.Num) {
		return 0, false
	}
	return n.Num, true
}

// Int64 is n's value when n is a number written as an integer that fits
// in 64 bits ("1.0" and "1e3" do not): what encoding/json accepts.
func (n *Node) Int64() (int64, bool) {
	if n == nil || n.Kind != Number {
		return 0, false
	}
	i, err := strconv.ParseInt(n.Str, 10, 64)
	return i, err == nil
}

// Plain is n as plain Go values (map[string]any, []any, string, float64,
// bool, nil).
func (n *Node) Plain() any {
	switch n.Kind {
	case Object:
		m := make(map[string]any, len(n.Members))
		for _, mb := range n.Members {
			m[mb.Key] = mb.Val.Plain()
		}
		return m
	case Array:
		s := make([]any, len(n.Elems))
		for i, e := range n.Elems {
			s[i] = e.Plain()
		}
		return s
	case String:
		return n.Str
	case Number:
		return n.Num
	case Bool:
		return n.Bool
	}
	return nil
}

// Standard is n as written, in plain JSON: comments and trailing commas
// removed, whitespace minimized, repeated keys kept. It is nil for a node
// that was not read from JSON.
func (n *Node) Standard() json.RawMessage {
	if n.raw == nil {
		return nil
	}
	c := n.raw.Clone()
	c.Standardize()
	c.Minimize()
	return json.RawMessage(c.Pack())
}
