package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"

	"github.com/regate/regate/internal/rulefile"
)

// tokenEnv names the environment variable serve reads its token from, the
// one the Pi extension sends from too.
const tokenEnv = "REGATE_TOKEN"

// maxTokenFile bounds a token file: a token is a line, not a document.
const maxTokenFile = 4 << 10

// serveToken is the token every request must carry ("" for none), whether
// the user gave it (rather than serve generating it), and what to undo on
// exit.
type serveToken struct {
	value   string
	given   bool
	cleanup func()
}

// resolveToken finds the token: --token-file, else the deprecated --token,
// else $REGATE_TOKEN. A token on the command line is visible to every
// local user (ps, /proc/PID/cmdline), so --token still works, for scripts
// written before --token-file, but warns. Over a Unix socket no token is
// needed (the socket's 0600 mode is the access check). Over TCP one always
// is, loopback too, since any local user can connect there: without one,
// a new token is written to a 0600 file in a fresh private folder, whose
// path is printed (never the token) and which is removed on exit.
func (p *serveParams) resolveToken(stderr io.Writer) (serveToken, error) {
	none := serveToken{cleanup: func() {}}
	if p.tokenFile != "" && p.token != "" {
		return none, errors.New("give the token once: --token-file or --token, not both")
	}
	var tok string
	switch {
	case p.tokenFile != "":
		var err error
		if tok, err = readOrCreateTokenFile(p.tokenFile, stderr); err != nil {
			return none, err
		}
	case p.token != "":
		fmt.Fprintln(stderr, "regate serve: warning: --token is visible to every local user (ps); use --token-file or $"+tokenEnv)
		tok = p.token
	default:
		tok = os.Getenv(tokenEnv)
	}
	if tok != "" {
		if err := checkToken(tok); err != nil {
			return none, err
		}
		return serveToken{value: tok, given: true, cleanup: func() {}}, nil
	}
	if p.socket != "" {
		return none, nil
	}
	return generateTokenFile(stderr)
}

// readOrCreateTokenFile reads a token file, refusing one other users can
// read; a file that does not exist yet is created 0600 with a new token,
// so that the host and serve can share it from then on.
func readOrCreateTokenFile(path string, stderr io.Writer) (string, error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		tok, err := newToken()
		if err != nil {
			return "", err
		}
		if err := writeTokenFile(path, tok); err != nil {
			return "", err
		}
		fmt.Fprintf(stderr, "regate serve: wrote a new token to %s\n", path)
		return tok, nil
	}
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	// Windows keeps access in ACLs, not in these bits.
	if goruntime.GOOS != "windows" && st.Mode().IsRegular() && st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("--token-file %s: other users can read it (mode %04o); chmod 600 %s", path, st.Mode().Perm(), path)
	}
	b, err := rulefile.Read(path, maxTokenFile) // a regular file only, never waited on
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("--token-file %s is empty", path)
	}
	return tok, nil
}

// generateTokenFile writes a new token into a fresh private folder under
// $XDG_RUNTIME_DIR (else the temporary folder).
func generateTokenFile(stderr io.Writer) (serveToken, error) {
	none := serveToken{cleanup: func() {}}
	tok, err := newToken()
	if err != nil {
		return none, err
	}
	dir, err := os.MkdirTemp(os.Getenv("XDG_RUNTIME_DIR"), "regate-serve-") // 0700; "" is the temporary folder
	if err != nil {
		return none, fmt.Errorf("a folder for the token: %w", err)
	}
	path := filepath.Join(dir, "token")
	if err := writeTokenFile(path, tok); err != nil {
		os.RemoveAll(dir)
		return none, err
	}
	fmt.Fprintf(stderr, "regate serve: no token was given; requests must carry \"Authorization: Bearer\" and the token in %s (removed when serve exits; pass --token-file or $%s to choose one)\n", path, tokenEnv)
	return serveToken{value: tok, cleanup: func() { os.RemoveAll(dir) }}, nil
}

// writeTokenFile creates path 0600, never over an existing file.
func writeTokenFile(path, tok string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("token file: %w", err)
	}
	_, err = f.WriteString(tok + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("token file: %w", err)
	}
	return nil
}

// newToken is 32 random bytes in hex: 256 bits, past any guessing.
func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("a new token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// checkToken refuses a token a header cannot carry as one word.
func checkToken(tok string) error {
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; c <= ' ' || c >= 0x7f {
			return errors.New("the token must be printable ASCII without spaces")
		}
	}
	return nil
}
