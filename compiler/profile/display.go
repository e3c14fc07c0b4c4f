package profile

import (
	"strconv"
	"strings"

	"github.com/regate/regate/internal/printable"
)

// DisplayName is how a file name appears in a diagnostic: as it is when
// every character is printable, otherwise quoted and escaped the way
// strconv.Quote does it. A name is chosen by whoever writes the folder, so
// a raw newline could fake a line of output and an escape sequence could
// drive the terminal; "a\nb.md" is shown as "\"a\\nb.md\"" instead. A name
// holding a double quote is quoted too, so a quoted name is never one that
// was written to look quoted.
func DisplayName(name string) string {
	if printable.String(name) == name && !strings.Contains(name, `"`) {
		return name
	}
	return strconv.Quote(name)
}

// Printable is printable.String, kept here for the package's callers.
func Printable(s string) string { return printable.String(s) }
