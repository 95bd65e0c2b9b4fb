package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReportOfAnOpenEndedSuite: comparing runs of the crafter suite, where
// no task defines success, prints each run's Crafter score and
// progression per ruleset and no success figure or sentence (before, it
// printed "random and explorer do not differ detectably on all tiers:
// +0.0 points").
func TestReportOfAnOpenEndedSuite(t *testing.T) {
	dir := t.TempDir()
	var runs []string
	for _, a := range []string{"noop", "random"} {
		out := filepath.Join(dir, a)
		got, err := runCLI(t, "score", "--suite", "crafter", "--agent", a, "--seeds", "2", "--out", out, "-q")
		require.NoError(t, err, got)
		runs = append(runs, out)
	}
	got, err := runCLI(t, append([]string{"report", "--out", filepath.Join(dir, "compare.html")}, runs...)...)
	require.NoError(t, err, got)
	assert.Contains(t, got, "open-ended, classic rules")
	assert.Regexp(t, `noop +2  Crafter score 0\.00%, progression 0\.00% ± 0\.00`, got)
	assert.NotContains(t, got, "points")
	assert.NotContains(t, got, "%]")
}
