package runtime

import (
	"reflect"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/regate/regate/facts"
)

// promptOnly are the members of a check that Rego never sees: they feed the
// prompt facts, not the decision, so they are neither in the input document
// nor in the decision cache's key.
var promptOnly = map[string]bool{"Runs": true}

// derived are the members facts' Index derives from a check's others: the
// document holds them, the key need not (documentKey).
var derived = map[string]bool{"Keys": true, "AnyKeys": true, "Plain": true}

// TestDocumentKeyCoversTheDocument changes every field of facts.Input and of
// facts.Check in turn, by reflection, so a field added later is covered
// without editing this test: whatever changes the input document Rego
// evaluates must change the decision cache's key (else a cached decision
// of another call would answer), and every field but the prompt-only ones
// must reach the document.
func TestDocumentKeyCoversTheDocument(t *testing.T) {
	base := func() *facts.Input {
		return &facts.Input{Tool: "bash", Agent: "a", Floor: "ask", Checks: []facts.Check{{
			Surface: "bash", Value: "ls", Forms: [][]string{{"ls"}}, Origin: "o", Error: "e", Wrapper: "w",
			Runs: "r", Reason: "why", Malformed: "m", At: "1:1", Strict: "s",
		}}}
	}
	doc := func(in *facts.Input) string { return inputValue(in, ast.NullTerm()).String() }
	key := func(in *facts.Input) string {
		k, err := documentKey(in, "")
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	wantDoc, wantKey := doc(base()), key(base())

	check := func(name string, in *facts.Input, mayBeInvisible bool) {
		t.Helper()
		docChanged, keyChanged := doc(in) != wantDoc, key(in) != wantKey
		if docChanged && !keyChanged {
			t.Errorf("%s changes the input document but not the cache key: a cached decision of another call would answer", name)
		}
		if !docChanged && !mayBeInvisible {
			t.Errorf("%s does not reach the input document: list it in promptOnly if Rego must not see it", name)
		}
	}
	for _, f := range reflect.VisibleFields(reflect.TypeOf(facts.Input{})) {
		if f.Name == "Checks" || !f.IsExported() {
			continue
		}
		in := base()
		mutate(t, reflect.ValueOf(in).Elem().FieldByIndex(f.Index), "Input."+f.Name)
		check("Input."+f.Name, in, false)
	}
	for _, f := range reflect.VisibleFields(reflect.TypeOf(facts.Check{})) {
		in := base()
		mutate(t, reflect.ValueOf(&in.Checks[0]).Elem().FieldByIndex(f.Index), "Check."+f.Name)
		if derived[f.Name] {
			if key(in) != wantKey {
				t.Errorf("Check.%s, which Index derives, changes the cache key", f.Name)
			}
			continue
		}
		check("Check."+f.Name, in, promptOnly[f.Name])
	}
}

// mutate changes v to another value of its type.
func mutate(t *testing.T, v reflect.Value, name string) {
	t.Helper()
	switch v.Kind() {
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.String {
			// AnyKeys: one more key.
			v.Set(reflect.Append(v, reflect.ValueOf("other")))
			break
		}
		// Forms, Keys: one more group.
		v.Set(reflect.Append(v, reflect.ValueOf([]string{"other"})))
	default:
		t.Fatalf("%s: a field of kind %s; teach mutate to change it", name, v.Kind())
	}
}
