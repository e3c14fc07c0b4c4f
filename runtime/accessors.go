package runtime

import "github.com/regate/regate/compiler"

// Knobs returns the policy's runtime knobs: the ask path reads its
// authorizerChain, prompt budgets and logs from them (package ask).
func (e *Engine) Knobs() compiler.Knobs { return e.out.Knobs }

// Cwd is the engine's working directory (WithCwd): where relative paths
// resolve, and what a permission prompt shows as evidence.
func (e *Engine) Cwd() string { return e.env.Cwd }
