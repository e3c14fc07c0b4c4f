package compiler

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/regate/regate/internal/testkit/gosrc"
)

// TestDecoderKeys holds each key list to the decoder that reads it: the
// cases of the decoder's switch, read from its source, are the list. A
// case added without its key (or a key without its case) fails here, and
// TestSchemaKeys in compiler/schema holds the lists to the schemas.
func TestDecoderKeys(t *testing.T) {
	tests := []struct {
		file, fn, tag string
		keys          []string
	}{
		{"decode.go", "decodePolicy", "m.Key", policyKeys},
		{"decode.go", "decodeHardGuards", "m.Key", hardGuardKeys},
		{"decode.go", "decodeRuleValue", "m.Key", denyObjectKeys},
		{"decode.go", "decodeShellTools", "f.Key", shellToolKeys},
		{"decode.go", "decodeAutoReview", "m.Key", autoReviewKeys},
		{"decode.go", "decodeAutoReview", "t.Key", transcriptKeys},
		{"examples.go", "decodeExamples", "m.Key", exampleKeys},
		{"examples.go", "decodeExampleCall", "m.Key", exampleCallKeys},
		{"frontmatter.go", "parseAgent", "m.Key", frontmatterKeys},
	}
	for _, tt := range tests {
		t.Run(tt.fn+"/"+tt.tag, func(t *testing.T) {
			cases, err := gosrc.SwitchCases(tt.file, tt.fn, tt.tag)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(slices.Sorted(slices.Values(tt.keys)), cases); diff != "" {
				t.Errorf("the key list and the switch of %s differ (-list +switch):\n%s", tt.fn, diff)
			}
		})
	}
}

func TestDidYouMean(t *testing.T) {
	tests := []struct {
		key   string
		known []string
		want  string
	}{
		{"permision", frontmatterKeys, "permission"},
		{"permisson", policyKeys, "permission"},
		{"premission", policyKeys, "permission"}, // two neighbours swapped: one edit
		{"permissions", frontmatterKeys, "permission"},
		{"Permission", frontmatterKeys, "permission"},
		{"PERMISSION", policyKeys, "permission"},
		{"nmae", frontmatterKeys, "name"},
		{"yolomode", policyKeys, "yoloMode"},
		{"yolo", policyKeys, ""},
		{"stict", policyKeys, "strict"},
		{"reasn", denyObjectKeys, "reason"},
		{"acton", denyObjectKeys, "action"},
		{"enabeld", autoReviewKeys, "enabled"},
		{"shelltool", policyKeys, "shellTools"},
		// Host keys of agent frontmatter suggest nothing: they are not typos.
		{"description", frontmatterKeys, ""},
		{"model", frontmatterKeys, ""},
		{"mode", frontmatterKeys, ""},
		{"tools", frontmatterKeys, ""},
		{"permissionMode", frontmatterKeys, ""},
		{"color", frontmatterKeys, ""},
		{"", frontmatterKeys, ""},
		{"permission", frontmatterKeys, ""}, // a known key is no typo
		{strings.Repeat("x", 5000), policyKeys, ""},
		{"pérmission", frontmatterKeys, "permission"}, // runes, not bytes
	}
	for _, tt := range tests {
		if got := DidYouMean(tt.key, tt.known); got != tt.want {
			t.Errorf("DidYouMean(%q) = %q, want %q", tt.key, got, tt.want)
		}
	}
}

// BenchmarkDidYouMean is the cost of one unknown key's suggestion against
// the longest key list: paid only when a file holds an unknown key.
func BenchmarkDidYouMean(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if DidYouMean("promptFieldMaxWdth", policyKeys) != "promptFieldMaxWidth" {
			b.Fatal("no suggestion")
		}
	}
}
