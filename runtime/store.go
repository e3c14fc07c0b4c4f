package runtime

import (
	"crypto/sha256"
	"encoding/hex"
)

// A DecisionStore keeps decisions beyond an engine's life, so that a
// process deciding one call (a hook) answers a call an earlier process
// decided without reading the rules or preparing OPA. regate's state
// folder is one (cmd/regate/internal/statedir). Get must return only what
// Put stored under the same key; a store that cannot read or write simply
// misses. The engine asks it after its own cache and before evaluating,
// and gives it every decision it evaluates.
type DecisionStore interface {
	Get(key string) (Decision, bool)
	Put(key string, d Decision)
}

// WithDecisionStore makes the engine remember its decisions in s as well.
func WithDecisionStore(s DecisionStore) Option { return func(e *Engine) { e.store = s } }

// storeKey names a decision in a store: the compiled policy's hash (the
// rule files, the compiler and the library, compiler.InputHash) and the
// decision cache's key (the whole input document and the approvals it was
// decided under), digested.
func storeKey(policy, document string) string {
	h := sha256.New()
	h.Write([]byte(policy))
	h.Write([]byte{0})
	h.Write([]byte(document))
	return hex.EncodeToString(h.Sum(nil))
}
