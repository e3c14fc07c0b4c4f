package argmodel

import (
	"reflect"
	"testing"
)

// TestLazyModelsAreTheModels: every program decoded lazily (lookup), with
// each of its subcommands decoded on use, is the model decoding every file
// at once gives (load), field for field.
func TestLazyModelsAreTheModels(t *testing.T) {
	all := load()
	if all.err != nil {
		t.Fatal(all.err)
	}
	for name, want := range all.programs {
		got, err := lookup(name)
		if err != nil || got == nil {
			t.Fatalf("%s: %v", name, err)
		}
		same(t, name, got, want)
	}
}

// same compares two models, their subcommands decoded.
func same(t *testing.T, name string, got, want *Program) {
	t.Helper()
	g, w := *got, *want
	g.Subcommands, w.Subcommands = nil, nil
	g.subs, w.subs, g.subList, w.subList, g.defaultSub, w.defaultSub = nil, nil, nil, nil, nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: the lazy model differs", name)
	}
	if len(got.subs) != len(want.subs) {
		t.Fatalf("%s: %d subcommands, want %d", name, len(got.subs), len(want.subs))
	}
	for n, ws := range want.subs {
		gp, err := got.subs[n].program(got.name)
		if err != nil {
			t.Fatalf("%s %s: %v", name, n, err)
		}
		wp, _ := ws.program(want.name)
		same(t, name+" "+n, gp, wp)
	}
}
