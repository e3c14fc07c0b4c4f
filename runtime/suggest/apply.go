package suggest

import (
	"fmt"
	"strings"

	"github.com/tailscale/hujson"
)

// Apply adds the suggestions to a policy file's text: each as a member of
// its surface's map under "permission", after the map's last member, with
// a comment naming its evidence. The rest of the file (its comments, its
// formatting, its order) is left as the user wrote it. A surface written as
// one action ("read": "allow") becomes a map whose "*" is that action.
func Apply(src []byte, suggestions []Suggestion) ([]byte, error) {
	v, err := hujson.Parse(src)
	if err != nil {
		return nil, fmt.Errorf("suggest: the policy does not parse: %w", err)
	}
	root, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, fmt.Errorf("suggest: the policy is not an object")
	}
	perm := member(root, "permission")
	if perm == nil {
		root.Members = append(root.Members, hujson.ObjectMember{
			Name:  hujson.Value{BeforeExtra: hujson.Extra("\n  "), Value: hujson.String("permission")},
			Value: hujson.Value{BeforeExtra: hujson.Extra(" "), Value: &hujson.Object{AfterExtra: hujson.Extra("\n  ")}},
		})
		perm = &root.Members[len(root.Members)-1].Value
	}
	permObj, ok := perm.Value.(*hujson.Object)
	if !ok {
		return nil, fmt.Errorf("suggest: \"permission\" is not an object")
	}
	for _, s := range suggestions {
		surf := member(permObj, s.Surface)
		if surf == nil {
			indent := indentOf(permObj, "  ")
			permObj.Members = append(permObj.Members, hujson.ObjectMember{
				Name:  hujson.Value{BeforeExtra: hujson.Extra("\n" + indent), Value: hujson.String(s.Surface)},
				Value: hujson.Value{BeforeExtra: hujson.Extra(" "), Value: &hujson.Object{AfterExtra: hujson.Extra("\n" + indent)}},
			})
			surf = &permObj.Members[len(permObj.Members)-1].Value
		}
		if lit, ok := surf.Value.(hujson.Literal); ok && lit.Kind() == '"' {
			surf.Value = &hujson.Object{
				Members: []hujson.ObjectMember{{
					Name:  hujson.Value{BeforeExtra: hujson.Extra(" "), Value: hujson.String("*")},
					Value: hujson.Value{BeforeExtra: hujson.Extra(" "), Value: lit},
				}},
				AfterExtra: hujson.Extra(" "),
			}
		}
		obj, ok := surf.Value.(*hujson.Object)
		if !ok {
			return nil, fmt.Errorf("suggest: the %s map is not an object", s.Surface)
		}
		indent := indentOf(obj, indentOf(permObj, "  ")+"  ")
		// What follows the last member before the closing brace (a comment
		// on its line) stays with that member.
		after := string(obj.AfterExtra)
		kept := ""
		if i := strings.LastIndexByte(after, '\n'); i >= 0 {
			kept, obj.AfterExtra = after[:i], hujson.Extra(after[i:])
		}
		obj.Members = append(obj.Members, hujson.ObjectMember{
			Name: hujson.Value{
				BeforeExtra: hujson.Extra(kept + "\n" + indent + "// " + evidenceNote(s) + "\n" + indent),
				Value:       hujson.String(s.Pattern),
			},
			Value: hujson.Value{BeforeExtra: hujson.Extra(" "), Value: hujson.String(s.Action)},
		})
		if !strings.Contains(string(obj.AfterExtra), "\n") {
			obj.AfterExtra = hujson.Extra("\n" + strings.TrimSuffix(indent, "  "))
		}
	}
	return v.Pack(), nil
}

// evidenceNote is the comment above a written suggestion.
func evidenceNote(s Suggestion) string {
	note := fmt.Sprintf("regate suggest: %d approvals in %d sessions", s.Approvals, len(s.Sessions))
	if s.First != "" {
		note += fmt.Sprintf(", %s to %s", s.First, s.Last)
	}
	return note
}

// member returns the value of the object's member named key, or nil.
func member(o *hujson.Object, key string) *hujson.Value {
	for i := range o.Members {
		if lit, ok := o.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == key {
			return &o.Members[i].Value
		}
	}
	return nil
}

// indentOf is the indentation of the object's last member, or def.
func indentOf(o *hujson.Object, def string) string {
	if len(o.Members) == 0 {
		return def
	}
	extra := string(o.Members[len(o.Members)-1].Name.BeforeExtra)
	if i := strings.LastIndexByte(extra, '\n'); i >= 0 && strings.Trim(extra[i+1:], " \t") == "" {
		return extra[i+1:]
	}
	return def
}
