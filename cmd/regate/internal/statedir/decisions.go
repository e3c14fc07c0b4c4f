package statedir

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/regate/regate/runtime"
)

// Decisions are the decisions hook processes made, so that a call an
// earlier process decided is answered without reading the rules or
// preparing OPA (runtime.DecisionStore). A decision is filed under its
// key, which digests the compiled policy (rule files, compiler, library)
// and the call's whole input document with the session's approvals: a
// change of any of them is another key, never a stale answer.
//
// Each file carries a MAC under a key kept in the folder (key, 0600), and a
// file whose MAC does not verify is a miss: a decision is only ever one
// this regate stored. (Whoever can read the folder can forge one; the
// folder is the user's, and issue 32's floor keeps an agent out of it.)
//
// The folder keeps at most maxDecisions files: past it, a write now and
// then removes the oldest.
type Decisions struct {
	dir string
	key []byte
}

const (
	decisionsDir = "decisions"
	KeyFile      = "key" // the folder's MAC key, which the self floor guards
	// maxDecisions bounds the decisions kept, about 4 MB of files.
	maxDecisions = 8192
	// pruneEvery is how many writes, on average, pass between two counts.
	pruneEvery = 64
)

// Decisions opens the folder's decision store, making its MAC key on first
// use. nil (and the error) when the folder cannot hold one: the hook then
// decides every call.
func (d *Dir) Decisions() (*Decisions, error) {
	dir := filepath.Join(d.root, decisionsDir)
	if err := mkdir(dir); err != nil {
		return nil, err
	}
	key, err := d.macKey()
	if err != nil {
		return nil, err
	}
	return &Decisions{dir: dir, key: key}, nil
}

// LogKey is the key that signs log lines (runtime.LogKey of the folder's
// key, made on first use): a host that writes a review log signs it with
// this key, and regate suggest verifies with it.
func (d *Dir) LogKey() ([]byte, error) {
	key, err := d.macKey()
	if err != nil {
		return nil, err
	}
	return runtime.LogKey(key), nil
}

var keyMu sync.Mutex

// macKey reads the folder's key, or makes one: 32 random bytes, written
// to a temporary file and linked into place so that two processes making
// it at once agree on the one that won.
func (d *Dir) macKey() ([]byte, error) {
	file := filepath.Join(d.root, KeyFile)
	if b, err := os.ReadFile(file); err == nil && len(b) == 32 {
		return b, nil
	}
	keyMu.Lock()
	defer keyMu.Unlock()
	key := make([]byte, 32)
	_, _ = rand.Read(key) // crypto/rand.Read never fails (Go 1.24)
	tmp, err := os.CreateTemp(d.root, "key-*.tmp")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(key); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	if err := os.Link(tmp.Name(), file); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	b, err := os.ReadFile(file)
	if err != nil || len(b) != 32 {
		return nil, errors.New("statedir: the key file is damaged")
	}
	return b, nil
}

// storedDecision is one file.
type storedDecision struct {
	Decision runtime.Decision `json:"decision"`
	MAC      string           `json:"mac"`
}

func (s *Decisions) path(key string) string {
	return filepath.Join(s.dir, key[:2], key)
}

func (s *Decisions) mac(key string, decision []byte) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(key))
	m.Write([]byte{0})
	m.Write(decision)
	return hex.EncodeToString(m.Sum(nil))
}

// Get returns the decision stored under key, if its MAC verifies.
func (s *Decisions) Get(key string) (runtime.Decision, bool) {
	if len(key) < 3 {
		return runtime.Decision{}, false
	}
	b, err := os.ReadFile(s.path(key))
	if err != nil {
		return runtime.Decision{}, false
	}
	var raw struct {
		Decision json.RawMessage `json:"decision"`
		MAC      string          `json:"mac"`
	}
	if json.Unmarshal(b, &raw) != nil || !hmac.Equal([]byte(raw.MAC), []byte(s.mac(key, raw.Decision))) {
		return runtime.Decision{}, false
	}
	var d runtime.Decision
	if json.Unmarshal(raw.Decision, &d) != nil || !d.Action.Valid() {
		return runtime.Decision{}, false
	}
	return d, true
}

// Put stores d under key; a decision that cannot be written is only
// decided again.
func (s *Decisions) Put(key string, d runtime.Decision) {
	if len(key) < 3 {
		return
	}
	decision, err := json.Marshal(d)
	if err != nil {
		return
	}
	b, err := json.Marshal(struct {
		Decision json.RawMessage `json:"decision"`
		MAC      string          `json:"mac"`
	}{decision, s.mac(key, decision)})
	if err != nil {
		return
	}
	bucket := filepath.Dir(s.path(key))
	if mkdir(bucket) != nil {
		return
	}
	tmp, err := os.CreateTemp(bucket, "d-*.tmp")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		return
	}
	if os.Rename(tmp.Name(), s.path(key)) == nil && randomInt(pruneEvery) == 0 {
		s.prune()
	}
}

// prune removes the oldest decisions past maxDecisions.
func (s *Decisions) prune() {
	type file struct {
		path string
		mod  time.Time
	}
	var files []file
	_ = filepath.WalkDir(s.dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		if info, err := e.Info(); err == nil {
			files = append(files, file{p, info.ModTime()})
		}
		return nil
	})
	if len(files) <= maxDecisions {
		return
	}
	slices.SortFunc(files, func(a, b file) int { return a.mod.Compare(b.mod) })
	for _, f := range files[:len(files)-maxDecisions*3/4] {
		_ = os.Remove(f.path)
	}
}

func randomInt(n int) int {
	var b [1]byte
	_, _ = rand.Read(b[:])
	return int(b[0]) % n
}
