package argmodel_test

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/regate/regate/bashfacts/argmodel"
)

// TestPSEnvironment runs procps's ps with each spelling, a process
// carrying a secret in its environment beside it: a spelling that prints
// the secret must make the model ask, and the spellings of ordinary work
// must be understood, with no prompt. PID stands for that process's id.
func TestPSEnvironment(t *testing.T) {
	if out, err := exec.Command("ps", "--version").Output(); err != nil || !strings.Contains(string(out), "procps") {
		t.Skip("procps's ps is not on this machine")
	}
	var b [8]byte
	rand.Read(b[:])
	secret := "regate-ps-" + hex.EncodeToString(b[:])
	sleeper := exec.Command("sleep", "60")
	sleeper.Env = append(cleanPSEnv(), "REGATE_PS_SECRET="+secret)
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sleeper.Process.Kill(); sleeper.Wait() })
	pid := strconv.Itoa(sleeper.Process.Pid)

	leaking := []string{
		"ex", "ewwx", "auxe", "axe", "x e", "-e e", "-ef e", "-p PID e", "ewwp PID", "ep PID",
		"-o pid,args e -p PID", "-eo pid,args e", "--pid PID e",
		// ps rejects the first reading and reads the dash bundles as BSD ones.
		"-auxe", "-exe", "-e -x", "-eH -T", "-e -uwwx", "-fe -x",
	}
	ordinary := []string{
		"aux", "auxf", "auxww", "axjf", "x", "ux", "-aux", "-ax", "-ef", "-e", "-A", "-eF", "-elf", "-eLf",
		"-ejH", "-ely", "-eo pid,ppid,cmd", "-eo pid,args --no-headers", "-e --sort=-%mem", "aux --sort -rss",
		"-ef --forest", "axo pid,comm", "-C sleep", "-p PID -o pid,etime,args", "--pid PID -o comm=",
		"-o pid= -p PID", "-fp PID", "-u root", "-fu root", "-ef -u root", "-u 0 -o pid", "-e -u nosuch",
		"-ef -u steve", "-U root -u root u", "-eo pid,user,comm --sort=user", "PID", "-ww -p PID",
	}
	run := func(spelling string) (args []string, leaked bool) {
		args = strings.Fields(strings.ReplaceAll(spelling, "PID", pid))
		cmd := exec.Command("ps", args...)
		cmd.Env = cleanPSEnv()
		out, _ := cmd.CombinedOutput()
		return args, strings.Contains(string(out), secret)
	}
	for _, spelling := range leaking {
		args, leaked := run(spelling)
		r := argmodel.Parse("ps", plainArgs(args...))
		if !leaked {
			t.Errorf("ps %s: the row says it prints environments, and ps did not", spelling)
		}
		if r.Problem == "" {
			t.Errorf("ps %s printed a process's environment, and the model understood it with no floor", spelling)
		}
	}
	for _, spelling := range ordinary {
		args, leaked := run(spelling)
		r := argmodel.Parse("ps", plainArgs(args...))
		if leaked {
			t.Errorf("ps %s printed a process's environment, and the row calls it ordinary", spelling)
		}
		if r.Problem != "" {
			t.Errorf("ps %s: %s", spelling, r.Problem)
		}
	}
}

// cleanPSEnv is the test's environment without what changes how ps reads
// its arguments (PS_PERSONALITY, CMD_ENV, PS_FORMAT).
func cleanPSEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PS_") && !strings.HasPrefix(kv, "CMD_ENV=") && !strings.HasPrefix(kv, "I_WANT_A_BROKEN_PS=") {
			env = append(env, kv)
		}
	}
	return env
}

func plainArgs(words ...string) []argmodel.Arg {
	args := make([]argmodel.Arg, len(words))
	for i, w := range words {
		args[i] = argmodel.Arg{Text: w}
	}
	return args
}

// TestPSModel: where ps reads options, a word bash expands may be any
// bundle (X=e), so it is not understood; as an option's value it is a
// value. A format that names the environ column asks.
func TestPSModel(t *testing.T) {
	for _, c := range []struct {
		args       []argmodel.Arg
		understood bool
	}{
		{[]argmodel.Arg{{Text: "$X", Dynamic: true, Environment: true}}, false},
		{[]argmodel.Arg{{Text: "a$X", Dynamic: true}}, false},
		{[]argmodel.Arg{{Text: "$PID", Dynamic: true, Environment: true}}, false},
		{[]argmodel.Arg{{Text: "-p"}, {Text: "$PID", Dynamic: true, Environment: true}, {Text: "-o"}, {Text: "etime="}}, true},
		{[]argmodel.Arg{{Text: "-u"}, {Text: "$USER", Dynamic: true, Environment: true}}, true},
		{[]argmodel.Arg{{Text: "-ef"}, {Text: "-u"}, {Text: "$USER", Dynamic: true, Environment: true}}, true},
		// procps 4.0.2 prints "-" in the environ column; other versions fill it.
		{[]argmodel.Arg{{Text: "-o"}, {Text: "pid,environ"}}, false},
		{[]argmodel.Arg{{Text: "axo"}, {Text: "environ"}}, false},
		{[]argmodel.Arg{{Text: "--format=args,environ"}}, false},
	} {
		r := argmodel.Parse("ps", c.args)
		if (r.Problem == "") != c.understood {
			t.Errorf("ps %v: understood %v, want %v (%s)", c.args, r.Problem == "", c.understood, r.Problem)
		}
	}
}
