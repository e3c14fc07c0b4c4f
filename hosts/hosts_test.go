package hosts

import (
	"strings"
	"testing"
)

func TestInstallKeepsOtherSettings(t *testing.T) {
	old := []byte(`{"model": "opus", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}]},
		{"matcher": "*", "hooks": [{"type": "command", "command": "/old/regate hook claude"}]}]}}`)
	once, err := Install("claude", old, "/bin/regate hook claude")
	if err != nil {
		t.Fatal(err)
	}
	twice, err := Install("claude", once, "/bin/regate hook claude")
	if err != nil {
		t.Fatal(err)
	}
	if string(once) != string(twice) {
		t.Fatalf("installing twice changed the settings:\n%s\n%s", once, twice)
	}
	for _, want := range []string{`"model": "opus"`, `"lint.sh"`, `"/bin/regate hook claude"`, `"PermissionRequest"`} {
		if !strings.Contains(string(once), want) {
			t.Errorf("the settings lost %s:\n%s", want, once)
		}
	}
	if strings.Contains(string(once), "/old/regate") {
		t.Errorf("the earlier regate hook was kept:\n%s", once)
	}
	if _, err := Install("claude", []byte("{not json"), "x"); err == nil {
		t.Error("settings that are not JSON were overwritten")
	}
}
