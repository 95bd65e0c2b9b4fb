package run

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSuiteHashKeepsTheNumericForm: results lines write a spec's index as
// a string now, but the suite hash is still over the numeric form, so the
// run.json of runs made before still matches: the hash below is the one
// Longcraft wrote for this suite file before indices were strings
// (6a76553). A change of what a spec holds changes it, and must.
func TestSuiteHashKeepsTheNumericForm(t *testing.T) {
	file := filepath.Join(t.TempDir(), "s2.yaml")
	require.NoError(t, os.WriteFile(file, []byte("name: big\nscenarios:\n  - name: far\n    grid: 6\n    goal: {reach: [2, 2]}\n    budget: 50\n    seeds: {from: 18221634021153779795, count: 2}\n"), 0o644))
	p, err := plan(Options{Suite: file, Agent: "random"})
	require.NoError(t, err)
	assert.Equal(t, "6035e2fcaa62cb0818ae0245f9c78fda7bae3476a0a4844307b7669ba7be16a8", p.suiteHash)
}
