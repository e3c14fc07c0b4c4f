package hosts

import (
	"fmt"
	"strings"
)

// A PatchFile is one file an apply_patch touches, as the regate tool that
// stands for it: write for an added file or a move's destination, edit for
// an updated, moved or deleted one.
type PatchFile struct {
	Tool, Path string
}

// The apply_patch envelope's markers (codex-rs/apply-patch/src/parser.rs).
const (
	beginPatch   = "*** Begin Patch"
	endPatch     = "*** End Patch"
	addFile      = "*** Add File: "
	deleteFile   = "*** Delete File: "
	updateFile   = "*** Update File: "
	moveTo       = "*** Move to: "
	endOfFile    = "*** End of File"
	contextMark  = "@@ "
	emptyContext = "@@"
)

// ParsePatch lists the files of an apply_patch envelope exactly as Codex's
// own parser reads them (codex-rs/apply-patch/src/parser.rs, lenient mode, as
// Codex 0.171.0 runs it): the patch is trimmed and split into lines; the
// first and last lines, trimmed, must be the begin and end markers (or the
// whole may be wrapped in <<EOF … EOF); a hunk header is read from its line
// trimmed, so an indented "*** Add File:" still adds a file, while "*** Move
// to:" is read untrimmed, and a line inside an update's changes that starts
// with a space is a context line, not a header. A patch Codex would reject
// is an error: regate blocks it rather than guess what it touches.
func ParsePatch(patch string) ([]PatchFile, error) {
	lines := rustLines(strings.TrimSpace(patch))
	body, err := patchBody(lines)
	if err != nil {
		if n := len(lines); n >= 4 && (lines[0] == "<<EOF" || lines[0] == "<<'EOF'" || lines[0] == `<<"EOF"`) &&
			strings.HasSuffix(lines[n-1], "EOF") {
			body, err = patchBody(lines[1 : n-1])
		}
		if err != nil {
			return nil, err
		}
	}
	var files []PatchFile
	for len(body) > 0 {
		hunk, n, err := parseHunk(body)
		if err != nil {
			return nil, err
		}
		files = append(files, hunk...)
		body = body[n:]
	}
	return files, nil
}

// rustLines splits as Rust's str::lines does: on "\n", dropping a "\r"
// before it, with no empty last line.
func rustLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		if t, ok := strings.CutSuffix(l, "\n"); ok {
			l = strings.TrimSuffix(t, "\r")
		}
		lines[i] = l
	}
	return lines
}

// patchBody checks the begin and end markers and returns the lines between.
func patchBody(lines []string) ([]string, error) {
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != beginPatch {
		return nil, fmt.Errorf("invalid patch: the first line of the patch must be '%s'", beginPatch)
	}
	if len(lines) < 2 || strings.TrimSpace(lines[len(lines)-1]) != endPatch {
		return nil, fmt.Errorf("invalid patch: the last line of the patch must be '%s'", endPatch)
	}
	return lines[1 : len(lines)-1], nil
}

// parseHunk reads one hunk from the start of lines: its files and the
// number of lines it takes.
func parseHunk(lines []string) ([]PatchFile, int, error) {
	first := strings.TrimSpace(lines[0])
	if p, ok := strings.CutPrefix(first, addFile); ok {
		n := 1
		for n < len(lines) && strings.HasPrefix(lines[n], "+") {
			n++
		}
		return []PatchFile{{"write", p}}, n, nil
	}
	if p, ok := strings.CutPrefix(first, deleteFile); ok {
		return []PatchFile{{"edit", p}}, 1, nil
	}
	p, ok := strings.CutPrefix(first, updateFile)
	if !ok {
		return nil, 0, fmt.Errorf("invalid hunk: '%s' is not a valid hunk header", first)
	}
	files := []PatchFile{{"edit", p}}
	n := 1
	if n < len(lines) {
		if to, ok := strings.CutPrefix(lines[n], moveTo); ok {
			files = append(files, PatchFile{"write", to})
			n++
		}
	}
	chunks := 0
	for n < len(lines) {
		if strings.TrimSpace(lines[n]) == "" {
			n++
			continue
		}
		if strings.HasPrefix(lines[n], "*") {
			break
		}
		m, err := updateChunk(lines[n:], chunks == 0)
		if err != nil {
			return nil, 0, err
		}
		chunks++
		n += m
	}
	if chunks == 0 {
		return nil, 0, fmt.Errorf("invalid hunk: update file hunk for path '%s' is empty", p)
	}
	return files, n, nil
}

// updateChunk is the number of lines one chunk of an update takes.
func updateChunk(lines []string, firstChunk bool) (int, error) {
	start := 0
	switch {
	case lines[0] == emptyContext || strings.HasPrefix(lines[0], contextMark):
		start = 1
	case !firstChunk:
		return 0, fmt.Errorf("invalid hunk: expected update hunk to start with a @@ context marker, got: '%s'", lines[0])
	}
	if start >= len(lines) {
		return 0, fmt.Errorf("invalid hunk: update hunk does not contain any lines")
	}
	n := 0
	for _, line := range lines[start:] {
		if line == endOfFile {
			if n == 0 {
				return 0, fmt.Errorf("invalid hunk: update hunk does not contain any lines")
			}
			n++
			break
		}
		if line != "" && line[0] != ' ' && line[0] != '+' && line[0] != '-' {
			if n == 0 {
				return 0, fmt.Errorf("invalid hunk: unexpected line found in update hunk: '%s'", line)
			}
			break // the next hunk
		}
		n++
	}
	return n + start, nil
}

// PatchFiles lists the files of an apply_patch envelope, nil when it does
// not parse.
//
// Deprecated: use ParsePatch, which says why a patch does not parse.
func PatchFiles(patch string) []PatchFile {
	files, _ := ParsePatch(patch)
	return files
}
