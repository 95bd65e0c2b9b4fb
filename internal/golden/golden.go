// Package golden is a test helper: the one -rewrite flag of the tree's
// golden files (testdata, python/tests/testdata and the generated parts of
// docs/) and the compare-or-rewrite of a whole file. A test that produces
// what a golden file holds calls File; a test that rewrites parts of a
// data file in place asks Rewrite. `go test ./PKG -run TestX -rewrite`
// regenerates the goldens of TestX, and the diff of the rewrite is the
// review.
//
// Only tests import it; it must not import anything of Longcraft's.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rewrite is registered once here, so that every package's tests take the
// same flag: a second flag of that name in a test package that imports
// golden would panic at start, which keeps it one.
var rewrite = flag.Bool("rewrite", false, "rewrite golden files (testdata and generated docs) from what the code does, for review")

// Rewrite reports whether the test binary runs with -rewrite.
func Rewrite() bool { return *rewrite }

// File compares got with the file at path; with -rewrite it first writes
// got there (creating the directory). A mismatch fails the test with a
// line diff of the two, why it matters (msgAndArgs) and the command that
// regenerates the file. It reports whether the two agree.
func File(t testing.TB, path string, got []byte, msgAndArgs ...any) bool {
	t.Helper()
	if *rewrite {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	how := "go test -run '^" + strings.SplitN(t.Name(), "/", 2)[0] + "$' -rewrite in this package, then review the diff"
	want, err := os.ReadFile(path)
	if !assert.NoError(t, err, "%s is missing: %s", path, how) {
		return false
	}
	return assert.Equal(t, string(want), string(got), "%s differs from what the code gives: %s (%s)", path, why(msgAndArgs), how)
}

// why formats testify-style msgAndArgs (a format and its arguments).
func why(msgAndArgs []any) string {
	if len(msgAndArgs) == 0 {
		return "a golden file changed"
	}
	format, ok := msgAndArgs[0].(string)
	if !ok {
		return fmt.Sprint(msgAndArgs...)
	}
	return fmt.Sprintf(format, msgAndArgs[1:]...)
}
