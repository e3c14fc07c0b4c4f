package autoreview

import (
	"strings"
	"testing"
)

func TestEstimateTokens(t *testing.T) {
	for _, c := range []struct {
		s    string
		want float64
	}{{"", 0}, {"abcd", 1}, {"日本語", 3}, {"ab日", 1.5}} {
		if got := EstimateTokens(c.s); got != c.want {
			t.Errorf("EstimateTokens(%q) = %v; want %v", c.s, got, c.want)
		}
	}
}

func TestRender(t *testing.T) {
	long := strings.Repeat("x", 20000) // 5000 tokens: capped
	entries := []Entry{
		{Role: "user", Trusted: true, Text: "please fix the build"},
		{Role: "tool", Text: long},
		{Role: "assistant", Text: "old untrusted"},
		{Role: "assistant", Text: "recent untrusted"},
	}
	out, st := Render(entries, Budget{MessageTokens: 10, ToolTokens: 10000, MaxUntrustedEntries: 2})
	if !strings.Contains(out, "[user] please fix the build") || !strings.Contains(out, "recent untrusted") {
		t.Fatalf("trusted and recent entries must be kept:\n%s", out)
	}
	if strings.Contains(out, "old untrusted") {
		t.Fatalf("the message budget (10 tokens) holds the trusted turn and one recent entry:\n%s", out)
	}
	if st.Capped != 1 || EstimateTokens(strings.SplitN(strings.SplitN(out, "[tool] ", 2)[1], "\n", 2)[0]) > ToolEntryCap {
		t.Fatalf("the tool result must be capped at %d tokens: %+v", ToolEntryCap, st)
	}
	if strings.Index(out, "[user]") > strings.Index(out, "[tool]") {
		t.Fatalf("entries keep their order:\n%s", out)
	}
	_, st = Render(entries, Budget{MaxUntrustedEntries: 1})
	if st.Untrusted != 1 || st.Trusted != 1 {
		t.Fatalf("maxUntrustedEntries 1: %+v", st)
	}
}
