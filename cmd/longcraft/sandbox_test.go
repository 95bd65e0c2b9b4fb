package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// envAgent plays noop only when $GIVEN is y: it checks that --agent-env
// passes a variable into the sandbox, and that nothing else does.
const envAgent = `#!/bin/sh
[ "$GIVEN" = y ] || { echo "GIVEN is '$GIVEN'" >&2; exit 9; }
[ -z "$LONGCRAFT_TEST_OTHER" ] || { echo "LONGCRAFT_TEST_OTHER leaked" >&2; exit 9; }
while read -r line; do case "$line" in *reset*) echo '{"type":"ready"}';; *) echo '{"action":"noop"}';; esac; done
`

func TestScoreAgentEnv(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Linux's")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "agent.sh")
	require.NoError(t, os.WriteFile(script, []byte(envAgent), 0o755))
	t.Setenv("GIVEN", "y")
	t.Setenv("LONGCRAFT_TEST_OTHER", "x")
	args := func(out string, more ...string) []string {
		return append([]string{"score", "--suite", "default", "--agent", "exec:" + script, "--tier", "easy", "--family", "obtain", "--seeds", "1", "--out", filepath.Join(dir, out), "-q"}, more...)
	}
	out, err := runCLI(t, args("passed", "--agent-env", "GIVEN")...)
	require.NoError(t, err, out)

	out, err = runCLI(t, args("not-passed")...)
	require.Error(t, err, "the sandboxed agent does not get GIVEN: it cannot start")
	assert.Contains(t, err.Error()+out, "GIVEN is ''")

	out, err = runCLI(t, args("set", "--agent-env", "GIVEN=y")...)
	require.NoError(t, err, out)

	_, err = runCLI(t, args("unset", "--agent-env", "LONGCRAFT_TEST_UNSET_VARIABLE")...)
	assert.ErrorContains(t, err, "LONGCRAFT_TEST_UNSET_VARIABLE: not set")
}
