package ruledoc

import "math"

// Expect reports whether n is of kind k, and reports it under
// CodeWrongType ("what must be an object, not array") when it is not.
func (d *Diags) Expect(n *Node, k Kind, what string) bool {
	if n.Kind != k {
		d.Errorf(n.Pos, CodeWrongType, "%s must be %s %s, not %s", what, k.Article(), k, n.Kind)
		return false
	}
	return true
}

// Bool reads a boolean into dst; dst is left alone on a type mismatch.
func (d *Diags) Bool(n *Node, what string, dst *bool) bool {
	if !d.Expect(n, Bool, what) {
		return false
	}
	*dst = n.Bool
	return true
}

// String reads a string into dst; dst is left alone on a type mismatch.
func (d *Diags) String(n *Node, what string, dst *string) bool {
	if !d.Expect(n, String, what) {
		return false
	}
	*dst = n.Str
	return true
}

// Int reads a whole number from lo to hi into dst; a fraction is a type
// mismatch, a number out of range CodeOutOfRange, and dst is left alone on
// either.
func (d *Diags) Int(n *Node, what string, lo, hi int, dst *int) bool {
	if !d.Expect(n, Number, what) {
		return false
	}
	if n.Num != math.Trunc(n.Num) {
		d.Errorf(n.Pos, CodeWrongType, "%s must be a whole number, not %v", what, n.Num)
		return false
	}
	if n.Num < float64(lo) || n.Num > float64(hi) {
		d.Errorf(n.Pos, CodeOutOfRange, "%s is %v; it must be between %d and %d", what, n.Num, lo, hi)
		return false
	}
	*dst = int(n.Num)
	return true
}

// Strings reads an array of strings. Each entry that is not a string is
// reported ("what entry must be a string") and left out; anything but an
// array is reported and read as no entries. The result is never nil.
func (d *Diags) Strings(n *Node, what string) []string {
	out := []string{}
	if !d.Expect(n, Array, what) {
		return out
	}
	for _, e := range n.Elems {
		if d.Expect(e, String, what+" entry") {
			out = append(out, e.Str)
		}
	}
	return out
}
