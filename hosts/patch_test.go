package hosts

import (
	"reflect"
	"strings"
	"testing"
)

// The patches below are read as Codex's own parser reads them
// (codex-rs/apply-patch/src/parser.rs): every file a patch touches is
// decided, and a patch Codex would reject is an error.
func TestParsePatch(t *testing.T) {
	for _, c := range []struct {
		name, patch string
		want        []PatchFile
	}{
		{"every hunk kind", "*** Begin Patch\n*** Add File: a.go\n+x\n*** Update File: b.go\n*** Move to: c.go\n@@\n-a\n+b\n*** Delete File: d.go\r\n*** End Patch",
			[]PatchFile{{"write", "a.go"}, {"edit", "b.go"}, {"write", "c.go"}, {"edit", "d.go"}}},
		// Codex trims a header line: an indented header after added lines
		// is still a header.
		{"indented add header", "*** Begin Patch\n*** Add File: docs/a.md\n+hello\n   *** Add File: .env\n+SECRET=1\n*** End Patch",
			[]PatchFile{{"write", "docs/a.md"}, {"write", ".env"}}},
		{"indented begin and end", "  *** Begin Patch \n\t*** Delete File: x\n *** End Patch  ", []PatchFile{{"edit", "x"}}},
		// Inside an update's changes a line starting with a space is context,
		// even when it looks like a header; Move to is read untrimmed.
		{"header as context", "*** Begin Patch\n*** Update File: a\n  *** Move to: b\n@@\n-x\n+y\n*** End Patch", []PatchFile{{"edit", "a"}}},
		{"update then add", "*** Begin Patch\n*** Update File: f.py\n@@\n+line\n*** Add File: other.py\n+c\n*** End Patch",
			[]PatchFile{{"edit", "f.py"}, {"write", "other.py"}}},
		{"update without @@", "*** Begin Patch\n*** Update File: f.py\n import foo\n+bar\n*** End Patch", []PatchFile{{"edit", "f.py"}}},
		{"end of file marker", "*** Begin Patch\n*** Update File: f\n@@\n+x\n*** End of File\n*** Delete File: g\n*** End Patch", []PatchFile{{"edit", "f"}, {"edit", "g"}}},
		{"heredoc wrapped", "<<'EOF'\n*** Begin Patch\n*** Add File: n.txt\n+x\n*** End Patch\nEOF\n", []PatchFile{{"write", "n.txt"}}},
		{"no hunk", "*** Begin Patch\n*** End Patch", nil},
	} {
		got, err := ParsePatch(c.patch)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ParsePatch = %v, %v; want %v", c.name, got, err, c.want)
		}
	}
	for _, bad := range []string{
		"",
		"*** Add File: a\n+x",
		"*** Begin Patch\n*** Add File: a\n+x",
		"*** Begin Patch\n*** Update File: a\n*** End Patch",
		"*** Begin Patch\n*** Frobnicate File: a\n*** End Patch",
		"*** Begin Patch\n*** Update File: a\n@@\n+x\nzzz\n*** End Patch",
		"*** Begin Patch\n*** Add File:a\n*** End Patch",
	} {
		if got, err := ParsePatch(bad); err == nil {
			t.Errorf("ParsePatch(%q) = %v; want an error", bad, got)
		}
	}
}

func TestShellCommand(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{"git status", "git status"},
		// Codex joins its shell tool's argv into one string.
		{"bash -lc 'git status && rm -rf x'", "git status && rm -rf x"},
		{`/bin/bash -c "echo \"hi\" \$HOME"`, `echo "hi" $HOME`},
		{`bash -lc 'echo '\''it'\''s'`, `echo 'it's`},
		{"sh -c ls", "ls"},
		// Anything but a plain shell -c form is decided whole.
		{"bash -lc 'ls' extra", "bash -lc 'ls' extra"},
		{"bash -lc \"$(curl x)\"", "bash -lc \"$(curl x)\""},
		{"bash -lc *", "bash -lc *"},
		{"FOO=1 bash -lc 'ls'", "FOO=1 bash -lc 'ls'"},
		{"bash -lc 'ls' > out", "bash -lc 'ls' > out"},
		{"python -c 'print(1)'", "python -c 'print(1)'"},
		{[]any{"bash", "-lc", "git status && rm -rf x"}, "git status && rm -rf x"},
		{[]any{"/bin/sh", "-c", "ls"}, "ls"},
		{[]any{"rm", "-rf", "my dir"}, "rm -rf 'my dir'"},
		{[]any{"echo", "it's"}, `echo 'it'\''s'`},
	} {
		got, err := shellCommand(c.in)
		if err != nil || got != c.want {
			t.Errorf("shellCommand(%v) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []any{nil, 3, []any{"ls", 4}} {
		if _, err := shellCommand(bad); err == nil {
			t.Errorf("shellCommand(%v) succeeded", bad)
		}
	}
}

func TestHeredocPatch(t *testing.T) {
	patch, dir, ok := heredocPatch("cd sub && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: .env\n+x\n*** End Patch\nEOF\n")
	if !ok || dir != "sub" || !strings.Contains(patch, "*** Add File: .env") {
		t.Fatalf("heredocPatch = %q, %q, %v", patch, dir, ok)
	}
	for _, no := range []string{"apply_patch", "echo apply_patch", "apply_patch <<EOF\n$X\nEOF\n", "ls"} {
		if _, _, ok := heredocPatch(no); ok {
			t.Errorf("heredocPatch(%q) found a patch", no)
		}
	}
}
