package bashfacts_test

import (
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts"
)

// TestInertAssignments: an environment prefix that sets a sensitive
// variable to a value that runs nothing (a pager that copies, less's
// display options, git's prompt off, git's identity) leaves the command as
// it is; any other value, an expansion or a second, sensitive variable
// still gives the unit its strict reason.
func TestInertAssignments(t *testing.T) {
	for _, c := range []struct {
		cmd    string
		strict string // a part of the first unit's strict reason; "" for none
	}{
		{"GIT_PAGER=cat git log", ""},
		{`GIT_PAGER="cat" git log`, ""},
		{"PAGER= git log", ""},
		{"PAGER='less -R' git log", ""},
		{"MANPAGER=cat man ls", ""},
		{"GIT_TERMINAL_PROMPT=0 git fetch", ""},
		{"GIT_AUTHOR_NAME='A B' GIT_COMMITTER_NAME='A B' git commit -m x", ""},
		{"LESS=-R git log", ""},
		{"LESS=FRX git log", ""},
		{"GIT_PAGER=cat; git log", ""},
		{"NO_COLOR=1 CI=1 LANG=C go test ./...", ""},
		{"GIT_PAGER='sh -c id' git log", "GIT_PAGER"},
		{"GIT_PAGER=$P git log", "GIT_PAGER"},
		{"GIT_PAGER=$(echo cat) git log", "GIT_PAGER"},
		{"GIT_PAGER+=cat git log", "GIT_PAGER"},
		{"PAGER=most git log", "PAGER"},
		{"LESS=-ofile git log", "LESS"},
		{"LESS='+!id' git log", "LESS"},
		{"LESSOPEN='|id %s' git log", "LESSOPEN"},
		{"GIT_TERMINAL_PROMPT=sh git fetch", "GIT_TERMINAL_PROMPT"},
		{"GIT_PAGER=cat GIT_SSH_COMMAND='ssh -i k' git fetch", "GIT_SSH_COMMAND"},
		{"GIT_SSH_COMMAND='ssh -i k' GIT_PAGER=cat git fetch", "GIT_SSH_COMMAND"},
		{"LD_PRELOAD=x.so git log", "LD_PRELOAD"},
		{"NODE_OPTIONS=--require=./x.js node a.js", "NODE_OPTIONS"},
		{"BASH_ENV=x bash a.sh", "BASH_ENV"},
		{"PS_PERSONALITY=bsd ps -ex", "PS_PERSONALITY"},
		{"GIT_PAGER='sh -c id'; git log", "GIT_PAGER"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			f, err := bashfacts.Extract(c.cmd)
			if err != nil {
				t.Fatal(err)
			}
			var reasons []string
			for _, u := range f.Units {
				for _, r := range []string{u.Strict, u.PrefixStrict} {
					if r != "" {
						reasons = append(reasons, r)
					}
				}
			}
			got := strings.Join(reasons, "; ")
			switch {
			case c.strict == "" && strings.Contains(got, "changes what runs"):
				t.Errorf("strict reasons %q; want none from the environment", got)
			case c.strict != "" && !strings.Contains(got, c.strict):
				t.Errorf("strict reasons %q; want one naming %s", got, c.strict)
			}
		})
	}
}
