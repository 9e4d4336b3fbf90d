package cmd

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// layers is the order of the repository's wings, lowest first (README's
// Layout, docs/design.md): a package's code imports packages of its own
// wing or of a lower layer, never of its own layer's other wings (but for
// peers below) nor of a higher one. A new top-level directory of Go code
// must be given a layer here.
var layers = [][]string{
	{"internal"},
	{"games"},
	{"sim"},
	{"variants", "configs"},
	{"reports"},
	{"runs"},
	{"studies", "viewers"},
	{"cmd"},
}

// peers are the imports allowed between two wings of one layer: the
// variants read the embedded presets.
var peers = map[[2]string]bool{{"variants", "configs"}: true}

// maxTopLevel is how many top-level directories may hold Go code: the
// design card's six and the wings of runs, studies, viewers and internal.
const maxTopLevel = 10

// wingImports walks the module from root and returns, for each package
// directory, its wing (first path element) and the module-internal
// imports of its non-test files; tests may reach any layer for their
// end-to-end setups.
func wingImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	imports := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "docs" || d.Name() == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		dir = filepath.ToSlash(dir)
		if _, ok := imports[dir]; !ok {
			imports[dir] = nil
		}
		for _, spec := range f.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			if rest, ok := strings.CutPrefix(p, "playtest/"); ok {
				imports[dir] = append(imports[dir], rest)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return imports
}

// layerViolations checks imports (package directory → module-internal
// import paths) against layers and returns one line per violation, sorted.
func layerViolations(imports map[string][]string) []string {
	rank := map[string]int{}
	for i, layer := range layers {
		for _, w := range layer {
			rank[w] = i
		}
	}
	wing := func(dir string) string { w, _, _ := strings.Cut(dir, "/"); return w }
	var bad []string
	tops := map[string]bool{}
	for dir, deps := range imports {
		from := wing(dir)
		if dir == "." {
			bad = append(bad, "the module root holds Go code: give it a wing")
			continue
		}
		tops[from] = true
		rf, ok := rank[from]
		if !ok {
			bad = append(bad, dir+": top-level directory "+from+"/ holds Go code but has no layer (cmd/layers_test.go's layers)")
			continue
		}
		for _, dep := range deps {
			to := wing(dep)
			rt, ok := rank[to]
			switch {
			case to == from:
			case !ok:
				bad = append(bad, dir+" imports "+dep+", whose wing "+to+"/ has no layer")
			case rt > rf:
				bad = append(bad, dir+" ("+from+") imports "+dep+" ("+to+"), a higher layer")
			case rt == rf && !peers[[2]string{from, to}]:
				bad = append(bad, dir+" ("+from+") imports "+dep+" ("+to+"), another wing of its own layer")
			}
		}
	}
	if len(tops) > maxTopLevel {
		names := make([]string, 0, len(tops))
		for w := range tops {
			names = append(names, w)
		}
		sort.Strings(names)
		bad = append(bad, "the top level holds "+strconv.Itoa(len(tops))+" directories of Go code ("+strings.Join(names, " ")+"), more than "+strconv.Itoa(maxTopLevel))
	}
	sort.Strings(bad)
	return bad
}

// TestLayers: every import of the repository's code follows the wings'
// layer order, every top-level directory of Go code has a layer, and there
// are at most maxTopLevel of them.
func TestLayers(t *testing.T) {
	imports := wingImports(t, "..")
	if len(imports) < 30 {
		t.Fatalf("found only %d packages: the walk is broken", len(imports))
	}
	for _, v := range layerViolations(imports) {
		t.Error(v)
	}
}

// TestLayersCatch: the check fails on an import up the layers, between two
// wings of one layer, into or out of an unlisted wing, and on too many
// top-level directories; and passes peers and a wing's own imports.
func TestLayersCatch(t *testing.T) {
	cases := []struct {
		name    string
		imports map[string][]string
		want    string
	}{
		{"up", map[string][]string{"games/stacks": {"sim/bots"}}, "a higher layer"},
		{"sideways", map[string][]string{"studies/sweep": {"viewers/play"}}, "another wing of its own layer"},
		{"new wing", map[string][]string{"learn": {"games"}}, "has no layer"},
		{"into a new wing", map[string][]string{"sim": {"learn/fit"}}, "has no layer"},
		{"root", map[string][]string{".": nil}, "module root"},
	}
	for _, c := range cases {
		got := layerViolations(c.imports)
		if len(got) != 1 || !strings.Contains(got[0], c.want) {
			t.Errorf("%s: got %q, want one violation with %q", c.name, got, c.want)
		}
	}
	ok := map[string][]string{
		"variants":         {"configs", "games/catalog", "sim/bots", "internal/knobs"},
		"studies/tune":     {"studies/sweep", "runs/rundir", "reports"},
		"viewers/replay":   {"runs/runlog"},
		"cmd":              {"viewers/play", "studies/check"},
		"reports/publish":  {"reports/plots"},
		"internal/testenv": {"internal/buildinfo"},
	}
	if got := layerViolations(ok); len(got) != 0 {
		t.Errorf("allowed imports flagged: %q", got)
	}
	many := map[string][]string{}
	for _, layer := range layers {
		for _, w := range layer {
			many[w+"/x"] = nil
		}
	}
	if got := layerViolations(many); len(got) != 0 {
		t.Errorf("the listed wings flagged: %q", got)
	}
	many["zzz"] = nil
	got := strings.Join(layerViolations(many), "\n")
	if !strings.Contains(got, "more than 10") || !strings.Contains(got, "zzz/ holds Go code but has no layer") {
		t.Errorf("an 11th top-level directory not flagged: %q", got)
	}
	if _, err := os.Stat("../go.mod"); err != nil {
		t.Fatal("cmd's tests run from cmd/, beside the module root")
	}
}
