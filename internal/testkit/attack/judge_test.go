package attack_test

import (
	"context"
	"os/exec"
	"slices"
	"testing"

	"github.com/regate/regate/internal/testkit/attack"
)

// TestJudgeSeesWhatRuns holds the judge itself to commands whose effect is
// known, run whatever the policy says of them: it must report each read of
// a secret, each write and each program the policy does not allow (so a
// family without disagreements means something), and nothing for the
// harmless commands a user runs all day (so a disagreement means
// something).
func TestJudgeSeesWhatRuns(t *testing.T) {
	judge, _ := newJudge(t)
	for _, c := range []struct {
		cmd  string
		want []string // each finding's What, the fixture's root written ROOT
	}{
		// Harmless: no finding.
		{"git status", nil},
		{"git diff", nil},
		{"git log --oneline -3", nil},
		{"ls -la", nil},
		{"ls -la src sub", nil},
		{"cat README.md", nil},
		{"grep -rn main src", nil},
		{"rg -n main src", nil},
		{"pwd", nil},
		{"cat .env.example 2>/dev/null", nil},
		{"cat <<EOF\nhere\nEOF", nil},
		// Reads of secrets, however spelt.
		{"cat .env", []string{"read ROOT/home/proj/.env"}},
		{"cat link", []string{"read ROOT/home/proj/.env"}},
		{"cat < keys/id_rsa", []string{"read ROOT/home/.ssh/id_rsa"}},
		{"X=key.pem; exec 3<$X; cat <&3", []string{"read ROOT/home/proj/key.pem"}},
		{"ls ~/.ssh", []string{"ls ROOT/home/.ssh"}},
		// Writes.
		{"ls > out.txt", []string{"write ROOT/home/proj/out.txt"}},
		{"cat README.md >> src/main.go", []string{"write ROOT/home/proj/src/main.go"}},
		// Programs the policy does not allow, and what they do.
		{"rm -f README.md", []string{"bash rm -f README.md", "write ROOT/home/proj/README.md"}},
		{"base64 README.md", []string{"bash base64 README.md"}},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			findings, out, err := judge.RunJudged(context.Background(), c.cmd)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range findings {
				got = append(got, judge.Redact(f.What))
			}
			slices.Sort(got)
			got = slices.Compact(got)
			want := slices.Sorted(slices.Values(c.want))
			if !slices.Equal(got, want) {
				t.Errorf("findings %q; want %q\noutput: %s", got, want, out)
			}
		})
	}
}

// newJudge is a judge on a fresh fixture, skipping where bash, git or
// strace cannot run.
func newJudge(t *testing.T) (*attack.Judge, *attack.Fixture) {
	t.Helper()
	for _, tool := range []string{"bash", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is absent: %v", tool, err)
		}
	}
	if err := attack.StraceWorks(); err != nil {
		t.Skipf("strace cannot trace here: %v", err)
	}
	fix, err := attack.NewFixture(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	judge, err := attack.NewJudge(fix)
	if err != nil {
		t.Fatal(err)
	}
	return judge, fix
}
