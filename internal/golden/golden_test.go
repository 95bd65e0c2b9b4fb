package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a testing.TB that keeps its failures instead of failing.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func TestFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hashes.txt")
	require.NoError(t, os.WriteFile(path, []byte("a 1\nb 2\n"), 0o644))
	for _, c := range []struct {
		name, path, got string
		ok              bool
		says            []string
	}{
		{"the same bytes pass", path, "a 1\nb 2\n", true, nil},
		{"a changed line fails with a diff and the command", path, "a 1\nb 3\n", false, []string{"-b 2", "+b 3", "hashes.txt differs", "the frames moved", "-run '^TestFile$' -rewrite"}},
		{"a missing file fails with the command", filepath.Join(dir, "none.txt"), "x\n", false, []string{"none.txt is missing", "-rewrite"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{TB: t}
			assert.Equal(t, c.ok, File(r, c.path, []byte(c.got), "the frames %s", "moved"))
			if c.ok {
				assert.Empty(t, r.failures)
				return
			}
			require.NotEmpty(t, r.failures)
			for _, s := range c.says {
				assert.Contains(t, r.failures[0], s)
			}
		})
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "a 1\nb 2\n", string(b), "without -rewrite the file is left as it was")

	*rewrite = true
	t.Cleanup(func() { *rewrite = false })
	fresh := filepath.Join(dir, "new", "golden.txt")
	assert.True(t, File(t, fresh, []byte("z\n")), "with -rewrite the file is written, then agrees")
	b, err = os.ReadFile(fresh)
	require.NoError(t, err)
	assert.Equal(t, "z\n", string(b))
}
