package statedir

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/regate/regate/compiler"
	"github.com/regate/regate/runtime"
)

// sessionsDir holds every session's approvals, apart from the compiled
// policies: an approval is keyed by the policy's identity, not by the
// hash of its text, so it outlives an edit of the rules.
const sessionsDir = "sessions"

// The files of one session, named by digests so that neither a session
// id nor a path can reach outside the folder.
const (
	approvalsExt = ".jsonl"  // the approvals under one policy, one per line
	seenExt      = ".policy" // the policy a hook decided the session under
)

// digest names a file or folder for s.
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}

func (d *Dir) sessionDir(session string) string {
	return filepath.Join(d.root, sessionsDir, digest(session))
}

func (d *Dir) approvalsFile(policy, session string) string {
	return filepath.Join(d.sessionDir(session), digest(policy)+approvalsExt)
}

// Approvals returns the approvals recorded for session under policy, the
// policy's identity as the caller names it (regate uses the policy file's
// absolute path). A line that is not an approval, or whose MAC does not
// verify (a line Approve did not write for this session and policy: one an
// agent appended, or copied from another session), is an error naming the
// file and line; the caller decides without the approvals, which only
// asks more.
func (d *Dir) Approvals(policy, session string) ([]compiler.Approval, error) {
	key, err := d.LogKey()
	if err != nil {
		return nil, err
	}
	return d.readApprovals(d.approvalsFile(policy, session), key)
}

// lineContext is what an approvals file's lines are signed for: the
// file's place in the folder, so that a line copied into another
// session's or policy's file does not verify.
func (d *Dir) lineContext(file string) string {
	rel, err := filepath.Rel(d.root, file)
	if err != nil {
		return file
	}
	return filepath.ToSlash(rel)
}

func (d *Dir) readApprovals(file string, key []byte) ([]compiler.Approval, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("statedir: %w", err)
	}
	var out []compiler.Approval
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		unsigned, ok := runtime.VerifyLine(key, d.lineContext(file), sc.Bytes())
		if !ok {
			return nil, fmt.Errorf("%s:%d:1: an approval regate approve did not record here: its MAC does not verify", file, line)
		}
		var a compiler.Approval
		dec := json.NewDecoder(bytes.NewReader(unsigned))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&a); err != nil || a.Surface == "" {
			return nil, fmt.Errorf("%s:%d:1: not an approval (want {\"surface\", \"pattern\"})", file, line)
		}
		out = append(out, a)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("statedir: %s: %w", file, err)
	}
	return out, nil
}

// AllApprovals returns the approvals every session recorded under policy,
// by session folder (a digest: the session ids are not kept), for regate
// suggest. A file that cannot be read, or a line that is not an approval,
// is an error naming it.
func (d *Dir) AllApprovals(policy string) (map[string][]compiler.Approval, error) {
	files, err := filepath.Glob(filepath.Join(d.root, sessionsDir, "*", digest(policy)+approvalsExt))
	if err != nil {
		return nil, fmt.Errorf("statedir: %w", err)
	}
	key, err := d.LogKey()
	if err != nil {
		return nil, err
	}
	out := map[string][]compiler.Approval{}
	for _, file := range files {
		as, err := d.readApprovals(file, key)
		if err != nil {
			return nil, err
		}
		if len(as) > 0 {
			out[filepath.Base(filepath.Dir(file))] = as
		}
	}
	return out, nil
}

// Approve records approvals for session under policy, one appended line
// each.
func (d *Dir) Approve(policy, session string, approvals ...compiler.Approval) error {
	file := d.approvalsFile(policy, session)
	if err := mkdir(filepath.Dir(file)); err != nil {
		return err
	}
	key, err := d.LogKey()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	for _, a := range approvals {
		if a.Surface == "" {
			return fmt.Errorf("statedir: an approval needs a surface")
		}
		b, err := json.Marshal(a)
		if err != nil {
			return err
		}
		buf.Write(append(runtime.SignLine(key, d.lineContext(file), b), '\n'))
	}
	f, err := os.OpenFile(file, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("statedir: %w", err)
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("statedir: %w", err)
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("statedir: %w", err)
	}
	return f.Close()
}

// Revoke removes every approval recorded for session under policy.
func (d *Dir) Revoke(policy, session string) error {
	err := os.Remove(d.approvalsFile(policy, session))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("statedir: %w", err)
	}
	return nil
}

// Seen records that a hook decided a call of session under policy, so
// that `regate approve` can tell which policy a session's approvals must
// be filed under. It costs one exclusive create when the record exists.
func (d *Dir) Seen(policy, session string) error {
	file := filepath.Join(d.sessionDir(session), digest(policy)+seenExt)
	f, err := os.OpenFile(file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		if err := mkdir(filepath.Dir(file)); err != nil {
			return err
		}
		f, err = os.OpenFile(file, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	}
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("statedir: %w", err)
	}
	// Written whole by the one process whose create succeeded; a reader
	// that finds it empty or short skips it (SeenPolicies).
	_, werr := f.WriteString(policy + "\n")
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("statedir: %w", werr)
	}
	return nil
}

// SeenPolicies are the policies hooks have decided session's calls under
// (Seen), sorted; none when no hook has used this folder for the session.
func (d *Dir) SeenPolicies(session string) ([]string, error) {
	dir := d.sessionDir(session)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("statedir: %w", err)
	}
	var out []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), seenExt)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		// The record must name the policy its file is named for: one being
		// written, or damaged, is skipped.
		policy, complete := strings.CutSuffix(string(b), "\n")
		if complete && digest(policy) == name {
			out = append(out, policy)
		}
	}
	slices.Sort(out)
	return out, nil
}

// pruneSessions removes the sessions whose files all went unmodified for
// staleAfter.
func (d *Dir) pruneSessions() {
	root := filepath.Join(d.root, sessionsDir)
	sessions, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, s := range sessions {
		dir := filepath.Join(root, s.Name())
		if s.IsDir() && !touchedWithin(dir, staleAfter) {
			_ = os.RemoveAll(dir)
		}
	}
}

// touchedWithin reports whether dir or a file in it was modified within d.
func touchedWithin(dir string, d time.Duration) bool {
	recent := func(info fs.FileInfo, err error) bool { return err == nil && time.Since(info.ModTime()) < d }
	if recent(os.Stat(dir)) {
		return true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return true // not readable: not ours to judge
	}
	for _, e := range entries {
		if recent(e.Info()) {
			return true
		}
	}
	return false
}
