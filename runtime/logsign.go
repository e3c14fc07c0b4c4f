package runtime

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// Signed lines (docs/self-protection.md, "Logs that cannot be forged"): a
// log line that regate or a host wrote carries a MAC over the line and the
// place it belongs to, so that a line an agent appended, or copied from
// another log, does not verify. The MAC is the last member of the line's
// object, "mac": 64 hex digits of HMAC-SHA256(key, context "\n" line),
// where line is the object without it.
const macMember = `,"mac":"`

// macLen is the length of the member and its closing: ,"mac":"<64>"}.
const macLen = len(macMember) + 2*sha256.Size + 2

// LogKey derives the key that signs log lines from a master key, such as
// the state folder's key file (32 random bytes), so that the master key
// itself signs nothing but what it was made for.
func LogKey(master []byte) []byte {
	m := hmac.New(sha256.New, master)
	m.Write([]byte("regate: signed log lines"))
	return m.Sum(nil)
}

// SignLine returns the JSON object line (no newline) with its MAC for
// context as its last member. A line that is not a non-empty object is
// returned as it is: it will not verify.
func SignLine(key []byte, context string, line []byte) []byte {
	if len(line) < 3 || line[0] != '{' || line[len(line)-1] != '}' {
		return line
	}
	out := make([]byte, 0, len(line)+macLen)
	out = append(out, line[:len(line)-1]...)
	out = append(out, macMember...)
	out = hex.AppendEncode(out, lineMAC(key, context, line))
	return append(out, '"', '}')
}

// VerifyLine reports whether line (no newline) carries a MAC that
// verifies for context under key, and returns the line without it.
func VerifyLine(key []byte, context string, line []byte) ([]byte, bool) {
	line = bytes.TrimSpace(line)
	n := len(line)
	if n < macLen+2 || !bytes.HasSuffix(line, []byte(`"}`)) || !bytes.Equal(line[n-macLen:n-macLen+len(macMember)], []byte(macMember)) {
		return nil, false
	}
	got, err := hex.DecodeString(string(line[n-macLen+len(macMember) : n-2]))
	if err != nil {
		return nil, false
	}
	unsigned := append(line[:n-macLen:n-macLen], '}')
	return unsigned, hmac.Equal(got, lineMAC(key, context, unsigned))
}

func lineMAC(key []byte, context string, line []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(context))
	m.Write([]byte{'\n'})
	m.Write(line)
	return m.Sum(nil)
}
