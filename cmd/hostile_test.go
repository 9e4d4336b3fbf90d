package cmd

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/net/html"

	"playtest/internal/testenv"
)

// hostile is a variant name full of markup: HTML, a script, an event
// handler, a javascript: link, Markdown table and emphasis characters, a
// backquote and an entity.
const hostile = "<script>alert(1)</script> <img src=x onerror=alert(2)> [x](javascript:alert(3)) | *b* `q` &amp; _u_"

// controls are control bytes a hostile name may carry (issue 43): an
// escape sequence that recolours the terminal, one that retitles it, a
// bell, a bidirectional override, a C1 control sequence introducer and a
// line break that would end a table row.
const controls = " \x1b[31mred\x1b]0;title\x07 \u202eevil \u009b2J\nnext | row"

// hostileYAML is a YAML double-quoted scalar of the hostile name with its
// control bytes.
var hostileYAML = strconv.Quote(hostile + controls)

// TestHostileNameInEveryOutput (issue 31): a variant named with markup goes
// through every command that writes a page, and every page shows the name
// as text: no Markdown file carries it raw, no HTML page gains an element,
// an event handler or a javascript: link from it, and no page shows it
// escaped twice.
func TestHostileNameInEveryOutput(t *testing.T) {
	testenv.SkipUnderRace(t)
	t.Parallel() // heavy, and sets no environment: runs beside the others
	dir := t.TempDir()
	variant := filepath.Join(dir, "hostile.yaml")
	os.WriteFile(variant, []byte("game: stacktics\nname: "+hostileYAML+"\nrules: {size: 2}\n"+
		"players: [random, greedy]\ngames: 8\nexpect:\n  - {metric: seat0_wins, min: 0, max: 1}\n"), 0o644)
	sweepFile := filepath.Join(dir, "sweep.yaml")
	os.WriteFile(sweepFile, []byte("name: "+hostileYAML+"\ndescription: "+hostileYAML+"\n"+
		"base: "+variant+"\ngames: 8\naxes:\n  - {name: "+hostileYAML+", key: rules.pie_rule, values: [true, false], labels: ["+hostileYAML+", plain]}\n"+
		"  - {name: "+strconv.Quote(hostile+controls+"2")+", key: rules.size, values: [2]}\n"), 0o644)
	out := func(name string) string { return filepath.Join(dir, name) }
	for _, args := range [][]string{
		{"run", variant, "--out", out("run"), "--records", "full"},
		{"run", variant, "--out", out("run2"), "--seed", "2"},
		{"check", variant, "--out", out("check"), "--junit", out("check.xml"), "--markdown", out("check-summary.md")},
		{"tournament", variant, "--bot", "random", "--bot", "greedy", "--games", "4", "--out", out("tournament")},
		{"compare", variant, variant, "--set-b", "rules.pie_rule=false", "--games", "8", "--out", out("compare")},
		{"sweep", sweepFile, "--out", out("sweep")},
		{"tune", sweepFile, "--first-games", "4", "--games", "8", "--out", out("tune")},
		{"learn", variant, "--games", "20", "--out", out("learn")},
		{"skill", variant, "--set", "players.0=mcts", "--set", "players.1=mcts", "--budgets", "4,8", "--games", "4", "--out", out("skill")},
		{"diff", out("run"), out("run2"), "--markdown", out("diff.md")},
		{"replay", out("run"), "--game", "1", "--html", out("replay.html")},
		{"report", out("run")},
	} {
		code, stdout, errOut := run(t, append(args, "--quiet")[:len(args)+boolInt(hasQuiet(args[0]))]...)
		if code != 0 && code != 3 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		noControls(t, strings.Join(args, " ")+": stdout", stdout)
		noControls(t, strings.Join(args, " ")+": stderr", errOut)
	}
	pages := 0
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(path)
		switch filepath.Ext(path) {
		case ".md", ".html", ".csv", ".svg", ".xml":
			noControls(t, path, string(b))
		}
		switch filepath.Ext(path) {
		case ".md":
			pages++
			for _, raw := range []string{"<script", "<img", "](javascript:", "*b*", "_u_"} {
				if unescaped(string(b), raw) {
					t.Errorf("%s carries %q raw", path, raw)
				}
			}
			if strings.Contains(string(b), `\\\<`) {
				t.Errorf("%s escapes the name twice", path)
			}
		case ".html":
			pages++
			checkPage(t, path, b)
		}
		return nil
	})
	if pages < 14 {
		t.Errorf("%d pages checked", pages)
	}
}

// noControls fails the test if text carries a control character other
// than tab, line feed and carriage return, or a bidirectional override.
func noControls(t *testing.T, where, text string) {
	t.Helper()
	for _, r := range text {
		if unicode.IsControl(r) && !strings.ContainsRune("\t\n\r", r) || r == '\u202e' {
			t.Errorf("%s carries the control character %U", where, r)
			return
		}
	}
}

// checkPage parses an HTML page and fails on anything the hostile name
// could have injected, or on the name shown escaped twice.
func checkPage(t *testing.T, path string, page []byte) {
	t.Helper()
	z := html.NewTokenizer(bytes.NewReader(page))
	inScript := false
	shown := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			if !shown && !strings.HasSuffix(path, "replay.html") {
				t.Errorf("%s never shows the variant's name as text", path)
			}
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			inScript = tok.Data == "script"
			for _, a := range tok.Attr {
				if strings.HasPrefix(a.Key, "on") {
					t.Errorf("%s: <%s %s=%q>", path, tok.Data, a.Key, a.Val)
				}
				if (a.Key == "href" || a.Key == "src") && strings.HasPrefix(strings.ToLower(strings.TrimSpace(a.Val)), "javascript:") {
					t.Errorf("%s: <%s %s=%q>", path, tok.Data, a.Key, a.Val)
				}
				if tok.Data == "img" && a.Key == "src" && a.Val == "x" {
					t.Errorf("%s: the name's <img> became an element", path)
				}
			}
		case html.EndTagToken:
			inScript = false
		case html.TextToken:
			text := string(z.Text())
			if inScript {
				if strings.Contains(text, "alert(1)</script>") || strings.Contains(text, "<script>alert") {
					t.Errorf("%s: the name is in a script's text raw", path)
				}
				continue
			}
			if strings.Contains(text, "&lt;script") || strings.Contains(text, "&amp;amp;") {
				t.Errorf("%s shows the name escaped twice: %q", path, text)
			}
			if strings.Contains(text, "<script>alert(1)</script>") {
				shown = true
			}
		}
	}
}

// unescaped reports whether s holds raw with no backslash before its
// first character.
func unescaped(s, raw string) bool {
	for i := 0; ; {
		k := strings.Index(s[i:], raw)
		if k < 0 {
			return false
		}
		if at := i + k; at == 0 || s[at-1] != '\\' {
			return true
		}
		i += k + 1
	}
}

func hasQuiet(command string) bool {
	switch command {
	case "run", "check", "tournament", "compare", "sweep", "skill", "tune", "learn":
		return true
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
