package attack

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// traced is the strace -e trace= set: every call that opens, creates,
// renames, removes or links a file, executes a program, changes the
// working directory or starts a process. A leading ? lets strace skip a
// call the architecture lacks (open and creat are absent on arm64).
const traced = "trace=?open,openat,?openat2,?creat,execve,?execveat," +
	"?rename,?renameat,?renameat2,?unlink,unlinkat,?rmdir,?mkdir,mkdirat," +
	"?link,?linkat,?symlink,?symlinkat,?truncate,chdir,fchdir," +
	"clone,?clone3,?fork,?vfork"

// RunTimeout bounds one traced command.
const RunTimeout = 10 * time.Second

// Run runs cmd as `bash --norc --noprofile -c CMD` under `strace -f` in the
// fixture's project, with standard input from /dev/null and the fixture's
// environment, and returns the parsed trace and the command's output. A
// command still running after RunTimeout is killed with its process group;
// its trace so far is still returned, with an error.
func Run(ctx context.Context, f *Fixture, cmd string) (*Trace, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, RunTimeout)
	defer cancel()
	out := filepath.Join(f.scratch, "strace.out")
	c := exec.CommandContext(ctx, "strace", "-f", "-qq", "-y", "-s", "65535",
		"-o", out, "-e", traced,
		"bash", "--norc", "--noprofile", "-c", cmd)
	c.Dir = f.Project
	c.Env = f.Env()
	c.Stdin = nil // /dev/null
	var output bytes.Buffer
	c.Stdout, c.Stderr = &output, &output
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
	runErr := c.Run()
	if ctx.Err() != nil {
		runErr = fmt.Errorf("attack: timed out after %v", RunTimeout)
	} else {
		runErr = nil // a failing command is a result, not a fault
	}
	text, err := os.ReadFile(out)
	if err != nil {
		return nil, output.Bytes(), errors.Join(runErr, err)
	}
	tr := ParseTrace(string(text), f.Project)
	return tr, output.Bytes(), runErr
}

// StraceWorks reports whether strace can trace a process here (it may be
// absent, or ptrace forbidden in a container).
func StraceWorks() error {
	if _, err := exec.LookPath("strace"); err != nil {
		return err
	}
	out, err := exec.Command("strace", "-f", "-qq", "-o", os.DevNull, "-e", traced, "true").CombinedOutput()
	if err != nil {
		return fmt.Errorf("strace -f true: %v: %s", err, out)
	}
	return nil
}
