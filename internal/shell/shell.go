package shell

import "strings"

// Quote returns arg as one word of a POSIX shell command: as it is when it
// holds only characters no shell treats specially, else in single quotes
// (each single quote inside closes the quotes, is escaped, and reopens them).
func Quote(arg string) string {
	if arg != "" && strings.IndexFunc(arg, special) < 0 {
		return arg
	}
	return "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
}

// special reports whether r needs quoting.
func special(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		return false
	}
	return !strings.ContainsRune("-_./=,:@%+", r)
}

// Join quotes each argument and joins them with spaces.
func Join(args ...string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = Quote(a)
	}
	return strings.Join(out, " ")
}
