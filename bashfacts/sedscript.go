package bashfacts

// A sed script, read as GNU sed 4 compiles one (compile.c's
// compile_program), for what it does beyond editing its input: the files
// its r and R commands read, those its w and W commands and the w flag of
// s write (sed creates them when it compiles the script, whether or not a
// line ever reaches the command), and the commands it runs (e, and the e
// flag of s). A script sed would refuse is reported as not understood,
// with whatever it named before the point sed stops at: the w files before
// it are already created.

// sedScript is what one sed invocation's scripts do.
type sedScript struct {
	reads, writes []string
	// runs says how the script runs a shell command; "" when it does not.
	runs string
	// problem says why sed would not compile the script; "" when it would.
	problem string
}

// readSed reads the scripts of one sed invocation in order (each -e, or
// the script operand). They are one program: text that an a, i or c
// command leaves open at the end of one (a\ alone) continues at the start
// of the next, as sed -e 'a\' -e 'text' appends "text".
func readSed(scripts []string) sedScript {
	var out sedScript
	pending := false
	for _, s := range scripts {
		r := sedReader{s: s, out: &out}
		if pending {
			pending = r.text('\n')
		}
		if !pending {
			pending = r.program()
		}
		if out.problem != "" {
			break
		}
	}
	return out
}

const sedEOF = -1

// sedReader reads one script. Blocks are not matched: sed refuses an
// unmatched } where it stands and an unclosed { at the end, and reading on
// past either can only name more files, never fewer.
type sedReader struct {
	s   string
	i   int
	out *sedScript
}

func (r *sedReader) inchar() int {
	if r.i >= len(r.s) {
		return sedEOF
	}
	r.i++
	return int(r.s[r.i-1])
}

// save gives back the character inchar returned last.
func (r *sedReader) save(ch int) {
	if ch != sedEOF {
		r.i--
	}
}

func (r *sedReader) nonblank() int {
	for {
		if ch := r.inchar(); ch != ' ' && ch != '\t' {
			return ch
		}
	}
}

func (r *sedReader) fail(why string) {
	if r.out.problem == "" {
		r.out.problem = why
	}
}

func sedSpace(ch int) bool {
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r'
}

func sedDigit(ch int) bool { return ch >= '0' && ch <= '9' }

// integer reads the digits from ch on and gives back the character after.
func (r *sedReader) integer(ch int) {
	for sedDigit(ch) {
		ch = r.inchar()
	}
	r.save(ch)
}

// program reads commands to the script's end, or to the first thing sed
// refuses. It reports whether the script ends inside an a, i or c text
// that the next script continues.
func (r *sedReader) program() (pending bool) {
	for r.out.problem == "" {
		ch := r.inchar()
		for ch == ';' || sedSpace(ch) {
			ch = r.inchar()
		}
		if ch == sedEOF {
			return false
		}
		if r.address(ch) {
			ch = r.nonblank()
			if ch == ',' {
				if !r.address(r.nonblank()) {
					r.fail("unexpected ','")
					return false
				}
				ch = r.nonblank()
			}
		}
		if ch == '!' {
			if ch = r.nonblank(); ch == '!' {
				r.fail("multiple '!'s")
				return false
			}
		}
		if r.command(ch) {
			return true
		}
	}
	return false
}

// command reads the command whose letter is ch, and reports whether it
// leaves its text open for the next script.
func (r *sedReader) command(ch int) (pending bool) {
	switch ch {
	case '#':
		for ch != sedEOF && ch != '\n' {
			ch = r.inchar()
		}
	case 'v', ':', 'b', 't', 'T':
		if label := r.label(); ch == ':' && label == "" {
			r.fail("':' lacks a label")
		}
	case '{':
	case '}', '=', 'd', 'D', 'F', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'z', 'x':
		r.end(r.nonblank())
	case 'q', 'Q', 'l', 'L':
		ch = r.nonblank()
		if sedDigit(ch) {
			r.integer(ch)
			ch = r.nonblank()
		}
		r.end(ch)
	case 'e':
		r.out.runs = "runs a shell command (e)"
		if ch = r.nonblank(); ch == sedEOF || ch == '\n' {
			return false // e alone runs the pattern space
		}
		return r.leadText(ch)
	case 'a', 'i', 'c':
		return r.leadText(r.nonblank())
	case 'r', 'R':
		switch name := r.filename(); name {
		case "":
			r.fail("missing filename in r/R/w/W commands")
		case "/dev/stdin":
		default:
			r.out.reads = append(r.out.reads, name)
		}
	case 'w', 'W':
		r.write()
	case 's':
		delim := r.inchar()
		if !r.delimited(delim, true) || !r.delimited(delim, false) {
			r.fail("unterminated 's' command")
			return false
		}
		r.substFlags()
	case 'y':
		delim := r.inchar()
		if !r.delimited(delim, false) || !r.delimited(delim, false) {
			r.fail("unterminated 'y' command")
			return false
		}
		r.end(r.nonblank())
	case sedEOF:
		r.fail("missing command")
	default:
		r.fail("unknown command: '" + string(rune(ch)) + "'")
	}
	return false
}

// end checks what follows a command that takes nothing more.
func (r *sedReader) end(ch int) {
	switch ch {
	case '}', '#':
		r.save(ch)
	case sedEOF, '\n', ';':
	default:
		r.fail("extra characters after command")
	}
}

// address reads an address that begins with ch, if one does, and
// reports whether one did.
func (r *sedReader) address(ch int) bool {
	switch {
	case ch == '/' || ch == '\\':
		if ch == '\\' {
			ch = r.inchar()
		}
		if !r.delimited(ch, true) {
			r.fail("unterminated address regex")
			return false
		}
		for {
			if ch = r.nonblank(); ch != 'I' && ch != 'M' {
				r.save(ch)
				return true
			}
		}
	case sedDigit(ch):
		r.integer(ch)
		if ch = r.nonblank(); ch == '~' {
			r.integer(r.nonblank())
		} else {
			r.save(ch)
		}
		return true
	case ch == '+' || ch == '~':
		r.integer(r.nonblank())
		return true
	case ch == '$':
		return true
	}
	return false
}

// delimited reads up to the delimiter that ends a regex or a
// replacement (match_slash): a backslash escapes the next character, a
// newline the script holds unescaped ends it unterminated, and in a regex
// a bracket expression may hold the delimiter.
func (r *sedReader) delimited(delim int, regex bool) bool {
	if delim == sedEOF || delim == '\n' || delim == '\\' || delim >= 0x80 {
		return false
	}
	for {
		ch := r.inchar()
		switch {
		case ch == sedEOF || ch == '\n':
			return false
		case ch == delim:
			return true
		case ch == '\\':
			if r.inchar() == sedEOF {
				return false
			}
		case ch == '[' && regex:
			if r.bracket() != ']' {
				return false
			}
		}
	}
}

// bracket reads a bracket expression after its "[" (snarf_char_class)
// and returns the character it stopped at: "]" when it closed.
func (r *sedReader) bracket() int {
	ch := r.inchar()
	if ch == '^' {
		ch = r.inchar()
	}
	if ch == ']' {
		ch = r.inchar()
	}
	// 0 outside [. [: [=, 1 after its "[", 2 inside it, 3 after its
	// closing . : or =.
	state, delim := 0, 0
	for ; ; ch = r.inchar() {
		switch ch {
		case sedEOF, '\n':
			return ch
		case '.', ':', '=':
			if state == 1 {
				delim, state = ch, 2
				continue
			}
			if state == 2 && ch == delim {
				state = 3
				continue
			}
		case '[':
			if state == 0 {
				state = 1
			}
			continue
		case ']':
			if state == 0 || state == 1 {
				return ch
			}
			if state == 3 {
				state = 0
			}
		}
		state &^= 1
	}
}

// substFlags reads the flags of an s command (mark_subst_opts).
func (r *sedReader) substFlags() {
	for {
		switch ch := r.nonblank(); {
		case ch == 'i' || ch == 'I' || ch == 'm' || ch == 'M' || ch == 'p' || ch == 'g':
		case ch == 'e':
			r.out.runs = "runs the replacement as a command (s///e)"
		case ch == 'w':
			r.write()
			return
		case sedDigit(ch):
			r.integer(ch)
		case ch == '}' || ch == '#':
			r.save(ch)
			return
		case ch == sedEOF || ch == '\n' || ch == ';':
			return
		case ch == '\r' && r.inchar() == '\n':
			return
		default:
			r.fail("unknown option to 's'")
			return
		}
	}
}

// label reads the label of :, b, t or T (or v's version).
func (r *sedReader) label() string {
	ch := r.nonblank()
	if ch == sedEOF {
		return ""
	}
	start := r.i - 1
	for ch != sedEOF && ch != '\n' && ch != ' ' && ch != '\t' && ch != ';' && ch != '}' && ch != '#' {
		ch = r.inchar()
	}
	r.save(ch)
	return r.s[start:r.i]
}

// filename reads the file name of r, R, w, W or s///w: from the first
// character that is not a blank to the end of the line, as written (sed
// expands no ~ and no variable).
func (r *sedReader) filename() string {
	ch := r.nonblank()
	if ch == sedEOF {
		return ""
	}
	start := r.i - 1
	for ch != sedEOF && ch != '\n' {
		ch = r.inchar()
	}
	end := r.i
	if ch == '\n' {
		end--
	}
	return r.s[start:end]
}

// write reads the file name of a command that writes one; sed's own names
// for its standard output and error are no file.
func (r *sedReader) write() {
	if name := r.filename(); name != "" && name != "/dev/stdout" && name != "/dev/stderr" {
		r.out.writes = append(r.out.writes, name)
	} else if name == "" {
		r.fail("missing filename in r/R/w/W commands")
	}
}

// leadText reads the text of a, i or c (or the command of e) whose first
// character is ch: after "\", the text starts with the next character (a
// newline there starts it on the next line); otherwise it is the rest of
// the line (GNU's one-line form). It reports whether the text is left
// open for the next script.
func (r *sedReader) leadText(ch int) (pending bool) {
	if ch == sedEOF {
		r.fail("expected \\ after 'a', 'c' or 'i'")
		return false
	}
	if ch == '\\' {
		ch = r.inchar()
	} else {
		r.save(ch)
		ch = '\n'
	}
	return r.text(ch)
}

// text reads a text to the end of its line, a backslash carrying it over
// a newline (read_text). It reports whether the script ended inside it:
// at once (a\ ends the script) or after a backslash.
func (r *sedReader) text(lead int) (pending bool) {
	if lead == sedEOF {
		return true
	}
	ch := r.inchar()
	for ch != sedEOF && ch != '\n' {
		if ch == '\\' {
			if ch = r.inchar(); ch == sedEOF {
				return true
			}
		}
		ch = r.inchar()
	}
	return false
}
