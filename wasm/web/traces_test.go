package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDemoServesOnlyTraces: `longcraft demo --traces DIR` is pointed at a
// run directory (report.html links its failures to
// 127.0.0.1:8080/?trace=traces/episodes.lctrace). A sandboxed exec agent
// shares the host's network, so whatever the demo serves, an agent scored
// meanwhile can fetch, around the mounts that hide the run directory from
// it: --salt random's salt.secret (step 3 of the published-score protocol
// scores other agents on that salt), results and run.json. Only the
// .lctrace files may be served. Before, every file of DIR was, and DIR's
// listing too.
func TestDemoServesOnlyTraces(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"episodes.lctrace": "trace", "salt.secret": "0123abcd", "results.jsonl": "{}\n", "run.json": "{}",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "old.lctrace"), []byte("old"), 0o644))
	srv := httptest.NewServer(Handler(t.TempDir(), dir))
	defer srv.Close()
	get := func(path string) (int, string) {
		res, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(b)
	}
	code, body := get("/traces/episodes.lctrace")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "trace", body)
	code, body = get("/traces/sub/old.lctrace")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "old", body)
	for _, path := range []string{"/traces/salt.secret", "/traces/results.jsonl", "/traces/run.json", "/traces/", "/traces/sub/", "/traces/%2e%2e/salt.secret"} {
		code, body := get(path)
		assert.Equal(t, http.StatusNotFound, code, "%s is served: %q", path, body)
		assert.NotContains(t, body, "0123abcd", path)
		assert.NotContains(t, body, "salt.secret", path)
	}
}
