package arch

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/internal/golden"
)

const (
	module  = "github.com/longcraft/longcraft"
	root    = "../.."
	docPath = root + "/docs/architecture.md"
)

// block returns the lines of the fenced block of the given info string.
func block(t *testing.T, doc, info string) []string {
	t.Helper()
	m := regexp.MustCompile("(?s)```" + info + "\n(.*?)```").FindStringSubmatch(doc)
	require.NotNil(t, m, "docs/architecture.md has no ```%s block", info)
	return strings.Split(strings.TrimSuffix(m[1], "\n"), "\n")
}

// table parses "name: a b c" lines.
func table(t *testing.T, lines []string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, l := range lines {
		name, rest, ok := strings.Cut(l, ":")
		require.True(t, ok, "line %q: want \"name: ...\"", l)
		_, dup := out[name]
		require.False(t, dup, "%s listed twice", name)
		out[name] = strings.Fields(rest)
	}
	return out
}

// imports returns, for every package directory of the module (relative
// path, "" for none at the root), the imports of its non-test files,
// whatever their build tags.
func imports(t *testing.T) map[string]map[string]bool {
	t.Helper()
	pkgs := map[string]map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "build" || n == "node_modules") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil && path != root {
				return filepath.SkipDir // another module (internal/k8sjob): not Longcraft's packages
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		if ignored(f) {
			return nil // a generator run by go:generate, not part of the package
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		if pkgs[rel] == nil {
			pkgs[rel] = map[string]bool{}
		}
		for _, s := range f.Imports {
			p, _ := strconv.Unquote(s.Path.Value)
			pkgs[rel][p] = true
		}
		return nil
	})
	require.NoError(t, err)
	return pkgs
}

// ignored reports whether f is built only on request (//go:build ignore).
func ignored(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() > f.Package {
			break
		}
		for _, c := range g.List {
			if strings.TrimSpace(c.Text) == "//go:build ignore" {
				return true
			}
		}
	}
	return false
}

func readDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(docPath)
	require.NoError(t, err)
	return string(b)
}

// against returns every way pkgs (directory → imports) breaks arrows:
// packages not on the map, imports not on their line, lines naming no
// package.
func against(arrows map[string][]string, pkgs map[string]map[string]bool) []string {
	var bad []string
	for dir, imps := range pkgs {
		allowed, ok := arrows[dir]
		if !ok {
			bad = append(bad, fmt.Sprintf("package %s is not on the map: add its line", dir))
			continue
		}
		for imp := range imps {
			rel, ours := strings.CutPrefix(imp, module+"/")
			if ours && !slices.Contains(allowed, rel) {
				bad = append(bad, fmt.Sprintf("%s imports %s, not on its line (%s: %s)", dir, rel, dir, strings.Join(allowed, " ")))
			}
		}
	}
	for dir, deps := range arrows {
		if _, ok := pkgs[dir]; !ok {
			bad = append(bad, fmt.Sprintf("%s is listed but is not a package", dir))
		}
		for _, d := range deps {
			if _, ok := arrows[d]; !ok {
				bad = append(bad, fmt.Sprintf("%s: %s is not on the map", dir, d))
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// TestImportsFollowTheArrows: every package is on the map, and imports
// only the Longcraft packages its line lists.
func TestImportsFollowTheArrows(t *testing.T) {
	arrows := table(t, block(t, readDoc(t), "arrows"))
	for _, b := range against(arrows, imports(t)) {
		t.Errorf("docs/architecture.md: %s", b)
	}
}

// TestAgainstFindsWhatBreaksTheArrows: the checker itself, on a made-up
// tree where the task layer reaches up into the runner.
func TestAgainstFindsWhatBreaksTheArrows(t *testing.T) {
	arrows := map[string][]string{"sim": nil, "bench/task": {"sim"}, "bench/run": {"bench/task", "sim"}, "gone": {"nowhere"}}
	pkgs := map[string]map[string]bool{
		"sim":        {"math/bits": true},
		"bench/task": {module + "/sim": true, module + "/bench/run": true},
		"bench/run":  {module + "/bench/task": true},
		"new":        {},
	}
	assert.Equal(t, []string{
		"bench/task imports bench/run, not on its line (bench/task: sim)",
		"gone is listed but is not a package",
		"gone: nowhere is not on the map",
		"package new is not on the map: add its line",
	}, against(arrows, pkgs))
	assert.Empty(t, against(map[string][]string{"sim": nil}, map[string]map[string]bool{"sim": {}}))
}

// TestModulesStayWhereTheyBelong: a module outside the standard library is
// imported only by the packages its line names; one not listed at all
// fails too, so a new dependency is a decision written down.
func TestModulesStayWhereTheyBelong(t *testing.T) {
	modules := table(t, block(t, readDoc(t), "modules"))
	for dir, imps := range imports(t) {
		for imp := range imps {
			if strings.HasPrefix(imp, module+"/") || !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".") {
				continue // ours, or the standard library
			}
			found := false
			for mod, users := range modules {
				if imp == mod || strings.HasPrefix(imp, mod+"/") {
					found = true
					assert.Contains(t, users, dir, "%s imports %s, which docs/architecture.md allows only in %v", dir, imp, users)
				}
			}
			assert.True(t, found, "%s imports %s, a module docs/architecture.md does not list", dir, imp)
		}
	}
}

// TestCoreRefusesIO: the packages of the refused block import none of the
// standard packages on their line.
func TestCoreRefusesIO(t *testing.T) {
	refused := table(t, block(t, readDoc(t), "refused"))
	pkgs := imports(t)
	for dir, std := range refused {
		require.Contains(t, pkgs, dir)
		for _, p := range std {
			assert.False(t, pkgs[dir][p], "%s imports %s, which docs/architecture.md refuses there", dir, p)
		}
	}
}

// layers assigns each package its depth: 0 for a package importing none
// of ours, else one more than its deepest import. It fails on a cycle.
func layers(arrows map[string][]string) (map[string]int, error) {
	depth := map[string]int{}
	const visiting = -1
	var visit func(p string, path []string) error
	visit = func(p string, path []string) error {
		switch d, ok := depth[p]; {
		case ok && d == visiting:
			return fmt.Errorf("cycle: %s", strings.Join(append(path, p), " → "))
		case ok:
			return nil
		}
		depth[p] = visiting
		d := 0
		for _, q := range arrows[p] {
			if err := visit(q, append(path, p)); err != nil {
				return err
			}
			d = max(d, depth[q]+1)
		}
		depth[p] = d
		return nil
	}
	names := make([]string, 0, len(arrows))
	for p := range arrows {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		if err := visit(p, nil); err != nil {
			return nil, err
		}
	}
	return depth, nil
}

func TestLayersFindsACycle(t *testing.T) {
	_, err := layers(map[string][]string{"a": {"b"}, "b": {"c"}, "c": {"a"}})
	require.ErrorContains(t, err, "cycle: a → b → c → a")
	d, err := layers(map[string][]string{"a": {"b", "c"}, "b": {"c"}, "c": nil})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"a": 2, "b": 1, "c": 0}, d)
}

// TestArrowsPointOneWay: the arrows have no cycle, and the layers block
// is what they generate (-rewrite refreshes it for review).
func TestArrowsPointOneWay(t *testing.T) {
	doc := readDoc(t)
	depth, err := layers(table(t, block(t, doc, "arrows")))
	require.NoError(t, err, "docs/architecture.md's arrows")
	byLayer := map[int][]string{}
	top := 0
	for p, d := range depth {
		byLayer[d] = append(byLayer[d], p)
		top = max(top, d)
	}
	var b strings.Builder
	for d := 0; d <= top; d++ {
		sort.Strings(byLayer[d])
		fmt.Fprintf(&b, "%d: %s\n", d, strings.Join(byLayer[d], " "))
	}
	want := "```layers\n" + b.String() + "```"
	got := regexp.MustCompile("(?s)```layers\n.*?```").FindString(doc)
	if golden.Rewrite() {
		require.NoError(t, os.WriteFile(docPath, []byte(strings.Replace(doc, got, want, 1)), 0o644))
		return
	}
	assert.Equal(t, want, got, "docs/architecture.md's layers are stale: go test ./internal/arch -rewrite")
}
