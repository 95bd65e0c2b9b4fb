package arch

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
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
)

// concurrencyImports are the standard packages that run code of the
// importer's on goroutines of their own (handlers, signal relays).
var concurrencyImports = []string{"net/http", "net/http/httptest", "os/signal"}

// concurrencyCalls are the methods and functions that start goroutines or
// run a callback on one: t.Parallel and b.RunParallel, sync.WaitGroup.Go,
// time.AfterFunc and context.AfterFunc, finalizers and cleanups, and
// testify's polling assertions, whose condition runs on a goroutine of
// its own.
var concurrencyCalls = []string{"Parallel", "RunParallel", "Go", "AfterFunc", "SetFinalizer", "AddCleanup",
	"Eventually", "EventuallyWithT", "EventuallyWithTf", "Eventuallyf", "Never", "Neverf"}

// concurrencyFields are os/exec's Cmd fields that, set to a reader or
// writer of the caller's, have the command copy through it on a
// goroutine of its own (Output and CombinedOutput keep theirs inside).
var concurrencyFields = []string{"Stdin", "Stdout", "Stderr"}

// concurrency returns how the Go file src could run code on more than one
// goroutine: go statements, concurrencyCalls (by method or bare name),
// assignments to concurrencyFields, concurrencyImports. A dot import is
// refused too, since its calls could not be told apart.
func concurrency(name string, src []byte) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	return concurrencyIn(fset, f), nil
}

// concurrencyIn is concurrency of the parsed file f.
func concurrencyIn(fset *token.FileSet, f *ast.File) []string {
	if ignored(f) {
		return nil
	}
	var found []string
	for _, s := range f.Imports {
		p, _ := strconv.Unquote(s.Path.Value)
		for _, c := range concurrencyImports {
			if p == c {
				found = append(found, fmt.Sprintf("%s imports %s", fset.Position(s.Pos()), p))
			}
		}
		if s.Name != nil && s.Name.Name == "." {
			found = append(found, fmt.Sprintf("%s dot-imports %s", fset.Position(s.Pos()), p))
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			found = append(found, fmt.Sprintf("%s: a go statement", fset.Position(n.Pos())))
		case *ast.SelectorExpr: // t.Parallel() and p := t.Parallel alike
			if slices.Contains(concurrencyCalls, n.Sel.Name) {
				found = append(found, fmt.Sprintf("%s: uses %s", fset.Position(n.Pos()), n.Sel.Name))
			}
		case *ast.CallExpr: // a bare name: a function of the package's own
			if id, ok := n.Fun.(*ast.Ident); ok && slices.Contains(concurrencyCalls, id.Name) {
				found = append(found, fmt.Sprintf("%s: calls %s", fset.Position(n.Pos()), id.Name))
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if sel, ok := l.(*ast.SelectorExpr); ok && slices.Contains(concurrencyFields, sel.Sel.Name) {
					found = append(found, fmt.Sprintf("%s: sets %s", fset.Position(l.Pos()), sel.Sel.Name))
				}
			}
		}
		return true
	})
	return found
}

// singleThreaded returns every way the package in dir (relative to the
// module root) could run on more than one goroutine in its tests: its
// own files, tests included, and the non-test files of every package of
// the module it imports, directly or not. It also returns the packages it
// looked at.
func singleThreaded(t *testing.T, dir string) (found, seen []string) {
	t.Helper()
	visited := map[string]bool{}
	var visit func(dir string, tests bool)
	visit = func(dir string, tests bool) {
		key := fmt.Sprintf("%s %v", dir, tests)
		if visited[key] {
			return
		}
		visited[key] = true
		if !tests {
			seen = append(seen, dir)
		}
		entries, err := os.ReadDir(filepath.Join(root, dir))
		require.NoError(t, err)
		for _, e := range entries {
			name := e.Name()
			if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") != tests {
				continue
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, filepath.Join(root, dir, name), nil, parser.ParseComments)
			require.NoError(t, err)
			if ignored(f) {
				continue
			}
			found = append(found, concurrencyIn(fset, f)...)
			for _, s := range f.Imports {
				p, _ := strconv.Unquote(s.Path.Value)
				if rel, ours := strings.CutPrefix(p, module+"/"); ours && rel != dir {
					visit(rel, false)
				}
			}
		}
	}
	visit(dir, true)
	visit(dir, false)
	sort.Strings(seen)
	return found, seen
}

// TestNoRacePackagesAreSingleThreaded: `make race` runs the packages of
// the Makefile's NORACE without the race detector, which can find nothing
// where one goroutine runs. That holds only while neither they nor what
// they import start another: a go statement, t.Parallel, a callback on a
// timer or finalizer, an HTTP server or a signal relay puts the package
// back under the race detector (take it out of NORACE).
func TestNoRacePackagesAreSingleThreaded(t *testing.T) {
	mk, err := os.ReadFile(filepath.Join(root, "Makefile"))
	require.NoError(t, err)
	require.Len(t, regexp.MustCompile(`(?m)^\s*(override\s+)?NORACE\s*[+:?!]*=`).FindAll(mk, -1), 1,
		"the Makefile sets NORACE once, on the line this test reads")
	m := regexp.MustCompile(`(?m)^NORACE := (.*)$`).FindSubmatch(mk)
	require.NotNil(t, m, "the Makefile has no NORACE := line")
	pkgs := strings.Fields(string(m[1]))
	require.NotEmpty(t, pkgs)
	for _, p := range pkgs {
		dir := strings.TrimPrefix(p, "./")
		require.NotContains(t, dir, "...", "NORACE lists packages one by one")
		found, seen := singleThreaded(t, dir)
		if assert.Empty(t, found, "%s is in the Makefile's NORACE but could run on more than one goroutine", dir) {
			t.Logf("%s: single-threaded, with %s", dir, strings.Join(seen, " "))
		}
	}
}

// TestConcurrencyFindsGoroutines: the checker itself, on made-up files.
func TestConcurrencyFindsGoroutines(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"package p\nfunc f() { x := 1; _ = x }\n", nil},
		{"package p\nfunc f() { go f() }\n", []string{"p.go:2:12: a go statement"}},
		{"package p\nimport \"testing\"\nfunc TestF(t *testing.T) {\n\tt.Parallel()\n}\n", []string{"p.go:4:2: uses Parallel"}},
		{"package p\nimport \"testing\"\nfunc TestF(t *testing.T) {\n\tp := t.Parallel\n\tp()\n}\n", []string{"p.go:4:7: uses Parallel"}},
		{"package p\nimport \"time\"\nfunc f() { time.AfterFunc(0, f) }\n", []string{"p.go:3:12: uses AfterFunc"}},
		{"package p\nimport \"sync\"\nfunc f(wg *sync.WaitGroup) { wg.Go(f) }\n", []string{"p.go:3:30: uses Go"}},
		{"package p\nfunc f() { Never() }\n", []string{"p.go:2:12: calls Never"}},
		{"package p\nimport . \"runtime\"\nfunc f(p *int) { SetFinalizer(p, nil) }\n", []string{"p.go:2:8 dot-imports runtime", "p.go:3:18: calls SetFinalizer"}},
		{"package p\nimport (\"bytes\"; \"os/exec\")\nfunc f(b *bytes.Buffer) { c := exec.Command(\"x\"); c.Stdout = b }\n", []string{"p.go:3:51: sets Stdout"}},
		{"package p\nimport \"os/exec\"\nfunc f() { exec.Command(\"x\").CombinedOutput() }\n", nil},
		{"package p\nimport _ \"net/http/httptest\"\n", []string{"p.go:2:8 imports net/http/httptest"}},
		{"//go:build ignore\n\npackage p\nfunc f() { go f() }\n", nil},
	} {
		got, err := concurrency("p.go", []byte(c.src))
		require.NoError(t, err)
		assert.Equal(t, c.want, got, "%s", c.src)
	}
}
