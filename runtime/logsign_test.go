package runtime_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/regate/regate/runtime"
)

// TestSignedLines: a signed line verifies under its key and context and
// gives back the line as it was; any change to the line, the key or the
// context makes it fail, and so does a line that carries no MAC.
func TestSignedLines(t *testing.T) {
	key := runtime.LogKey([]byte("master"))
	line := []byte(`{"surface":"bash","pattern":"make deploy"}`)
	signed := runtime.SignLine(key, "ctx", line)
	if got, ok := runtime.VerifyLine(key, "ctx", signed); !ok || !bytes.Equal(got, line) {
		t.Fatalf("a signed line: %q, %v", got, ok)
	}
	for _, c := range []struct {
		name    string
		key     []byte
		context string
		line    []byte
	}{
		{"another key", runtime.LogKey([]byte("other")), "ctx", signed},
		{"the master key itself", []byte("master"), "ctx", signed},
		{"another context", key, "ctx2", signed},
		{"a changed value", key, "ctx", bytes.Replace(signed, []byte("deploy"), []byte("deplox"), 1)},
		{"unsigned", key, "ctx", line},
		{"a MAC cut short", key, "ctx", append(signed[:len(signed)-4:len(signed)-4], '"', '}')},
		{"not hex", key, "ctx", bytes.Replace(signed, signed[len(signed)-6:len(signed)-2], []byte("zzzz"), 1)},
		{"empty", key, "ctx", nil},
	} {
		if _, ok := runtime.VerifyLine(c.key, c.context, c.line); ok {
			t.Errorf("%s: verifies", c.name)
		}
	}
	if got := runtime.SignLine(key, "ctx", []byte(`[1]`)); !bytes.Equal(got, []byte(`[1]`)) {
		t.Errorf("a line that is not an object was changed: %s", got)
	}
}

// TestLogSignsItsLines: a Log told to sign writes lines that verify for
// its context, and only those.
func TestLogSignsItsLines(t *testing.T) {
	dir := t.TempDir()
	key := runtime.LogKey([]byte("master"))
	l, err := runtime.OpenLog(dir, "review.jsonl", 0)
	if err != nil {
		t.Fatal(err)
	}
	l.SignWith(key, "review.jsonl")
	for _, v := range []any{map[string]any{"a": 1}, map[string]any{"token": "secret", "b": "x"}} {
		if err := l.Write(v); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	f, _ := os.Open(filepath.Join(dir, "review.jsonl"))
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		if _, ok := runtime.VerifyLine(key, "review.jsonl", sc.Bytes()); !ok {
			t.Errorf("line %d does not verify: %s", n, sc.Text())
		}
		if _, ok := runtime.VerifyLine(key, "debug.jsonl", sc.Bytes()); ok {
			t.Errorf("line %d verifies for another log", n)
		}
	}
	if n != 2 {
		t.Errorf("%d lines; want 2", n)
	}
}
