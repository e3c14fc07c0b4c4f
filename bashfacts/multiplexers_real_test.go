package bashfacts_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmuxCases are tmux commands that run rec, as an agent might start a
// server in the background: the command of a new session, tmux commands
// joined by ";", a command name abbreviated, a tmux command given as a
// string to if-shell. want is what rec is run with as regate reads the
// command, real (when set) what tmux really runs it with: a key binding
// runs nothing until the key is pressed, which regate reads anyway. A
// session whose command ends at once can take the server down before an
// if-shell or run-shell after it answers its client, which then waits for
// good: those rows keep their session alive a moment.
var tmuxCases = []struct{ cmd, want, real string }{
	{"tmux new-session -d 'rec a'", "a", ""},
	{"tmux new -d rec a b", "a b", ""},
	{"tmux new-sess -d 'rec a'", "a", ""},
	{"tmux new -d -s s -n w 'rec a; sleep 1'", "a", ""},
	{"tmux new -d 'sleep 2' \\; run-shell 'rec a'", "a", ""},
	{"tmux new -d 'sleep 1' \\; run -b 'rec a'", "a", ""},
	{"tmux new -d 'sleep 2' \\; if-shell true 'run-shell \"rec a\"'", "a", ""},
	{"tmux new -d 'sleep 2' \\; if-shell 'rec a' true", "a", ""},
	{"tmux new -d \\; send-keys 'REC/rec a' Enter", "a", ""}, // the pane's shell is a login shell: PATH anew
	{"tmux new -d true \\; bind x run-shell 'rec a'", "a", "-"},
	{"tmux new -d true \\; set-hook -g session-closed 'run-shell \"rec a\"' \\; kill-session", "a", ""},
}

// TestTmuxRunsWhatRegateReads runs each command with the real tmux, a
// server of its own per row, and requires regate to read the command
// tmux runs: strict mode floors tmux, but a deny on what it runs must
// still meet it (yolo mode approves the floor).
func TestTmuxRunsWhatRegateReads(t *testing.T) {
	for _, c := range tmuxCases {
		t.Run(c.cmd, func(t *testing.T) {
			dir := t.TempDir()
			cmd := strings.ReplaceAll(c.cmd, "REC/", dir+"/")
			if got := recRun(t, cmd); got != c.want {
				t.Errorf("regate reads rec's words as %q; the row says %q", got, c.want)
			}
			bash, errBash := exec.LookPath("bash")
			if _, err := exec.LookPath("tmux"); err != nil || errBash != nil {
				return // the reading is checked; tmux is not here to run
			}
			out := writeRec(t, dir)
			env := append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"), "TMUX_TMPDIR="+dir, "TMUX=", "HOME="+dir, "SHELL=/bin/sh", "ENV=")
			// A client can wait for good on a server that exits under it
			// (new -d true \; if-shell …: the session ends at once): the
			// run is bounded, and kill-server releases the client.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			run := exec.CommandContext(ctx, bash, "-c", strings.Replace(cmd, "tmux ", "tmux -f /dev/null ", 1))
			run.Dir, run.Env, run.Stdin, run.WaitDelay = dir, env, strings.NewReader(""), time.Second
			defer func() {
				kill := exec.Command("tmux", "kill-server")
				kill.Env = env
				kill.Run()
			}()
			msg, _ := run.CombinedOutput()
			want := c.want
			if c.real != "" {
				want = c.real
			}
			wait := 3 * time.Second
			if want == "-" {
				wait = time.Second // nothing is to run: a second is enough to see that nothing did
			}
			real := recorded(out, wait)
			if real != want {
				t.Errorf("tmux ran rec with %q; the row says %q\n%s", real, want, msg)
			}
		})
	}
}

// screenCases are screen commands that run rec in a new session, as an
// agent might start a server detached: options bundled (-dmS), values
// attached or in the next word, flow-control letters attached to -f.
var screenCases = []struct{ cmd, want string }{
	{"screen -dmS s REC/rec a b", "a b"},
	{"screen -d -m -S s -t title REC/rec a", "a"},
	{"screen -fn -dm REC/rec a", "a"},
	{"screen -dmS dev REC/rec a", "a"},
	{"screen -dmSt dev title REC/rec a", "a"},
	{"screen -dm -- REC/rec a", "a"},
	{"screen -dm -h 100 sh -c 'REC/rec a'", "a"},
}

// TestScreenRunsWhatRegateReads runs each command with the real screen,
// its sockets in a folder of the row's own, and requires regate to read
// the command screen runs.
func TestScreenRunsWhatRegateReads(t *testing.T) {
	for _, c := range screenCases {
		t.Run(c.cmd, func(t *testing.T) {
			dir := t.TempDir()
			cmd := strings.ReplaceAll(c.cmd, "REC/", dir+"/")
			if got := recRun(t, cmd); got != c.want {
				t.Errorf("regate reads rec's words as %q; the row says %q", got, c.want)
			}
			bash, errBash := exec.LookPath("bash")
			if _, err := exec.LookPath("screen"); err != nil || errBash != nil {
				return // the reading is checked; screen is not here to run
			}
			out := writeRec(t, dir)
			sockets := filepath.Join(dir, "sockets")
			if err := os.Mkdir(sockets, 0o700); err != nil {
				t.Fatal(err)
			}
			run := exec.Command(bash, "-c", cmd)
			run.Dir, run.Stdin = dir, strings.NewReader("")
			run.Env = append(os.Environ(), "SCREENDIR="+sockets, "HOME="+dir, "STY=")
			msg, _ := run.CombinedOutput()
			real := recorded(out, 3*time.Second)
			if real != c.want {
				t.Errorf("screen ran rec with %q; the row says %q\n%s", real, c.want, msg)
			}
		})
	}
}
