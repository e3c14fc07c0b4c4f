package gosrc_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/regate/regate/internal/testkit/gosrc"
)

const src = `package p

var keys = []string{"b", "a"}
var notList = 3

type d struct{}

func (x *d) decode(m struct{ key string }, key string) {
	switch m.key {
	case "z", "y":
	case "x":
	}
	switch key {
	case "k":
	}
	f := func() {
		switch m.key {
		case "w":
		}
	}
	_ = f
}

func plain(key string) {
	switch key {
	case notAString:
	}
}
`

func TestSwitchCasesAndLists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		fn, tag string
		want    []string
		wantErr bool
	}{
		{"(*d).decode", "m.key", []string{"w", "x", "y", "z"}, false}, // closures included
		{"(*d).decode", "key", []string{"k"}, false},
		{"(*d).decode", "other", nil, true},
		{"decode", "m.key", nil, true}, // a method is named with its receiver
		{"plain", "key", nil, true},    // a case that is not a string constant
		{"nonesuch", "key", nil, true},
	}
	for _, tt := range tests {
		got, err := gosrc.SwitchCases(path, tt.fn, tt.tag)
		if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
			t.Errorf("SwitchCases(%s, %s) = %v, %v; want %v (error %v)", tt.fn, tt.tag, got, err, tt.want, tt.wantErr)
		}
	}
	if got, err := gosrc.StringList(path, "keys"); err != nil || !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("StringList(keys) = %v, %v", got, err)
	}
	for _, name := range []string{"notList", "nonesuch"} {
		if _, err := gosrc.StringList(path, name); err == nil {
			t.Errorf("StringList(%s): no error", name)
		}
	}
}
