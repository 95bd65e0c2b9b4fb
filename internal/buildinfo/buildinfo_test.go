package buildinfo

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFromReadsTheVCSStamp(t *testing.T) {
	stamped := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261203061849-6a76553abcde+dirty"}, Settings: []debug.BuildSetting{
		{Key: "-compiler", Value: "gc"},
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "6a76553abcdef0123456789abcdef0123456789a"},
		{Key: "vcs.time", Value: "2026-12-03T06:18:49Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	for _, c := range []struct {
		name   string
		bi     *debug.BuildInfo
		ok     bool
		want   Build
		string string
	}{
		{"go build in a checkout", stamped, true,
			Build{Version: "v0.0.0-20261203061849-6a76553abcde+dirty", Revision: "6a76553abcdef0123456789abcdef0123456789a", Modified: true, Time: "2026-12-03T06:18:49Z"},
			"v0.0.0-20261203061849-6a76553abcde+dirty 6a76553abcde modified"},
		{"go test, go run", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, Build{Version: "(devel)"}, "(devel) no VCS revision"},
		{"no version at all", &debug.BuildInfo{}, true, Build{Version: "(devel)"}, "(devel) no VCS revision"},
		{"a release", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}, Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "false"}}}, true, Build{Version: "v1.2.0"}, "v1.2.0 no VCS revision"},
		{"no build information", nil, false, Build{Version: Unknown}, "unknown no VCS revision"},
	} {
		got := From(c.bi, c.ok)
		assert.Equal(t, c.want, got, c.name)
		assert.Equal(t, c.string, got.String(), c.name)
		assert.False(t, got.IsZero(), c.name)
	}
	assert.Equal(t, "not recorded", Build{}.String())
	// The test binary has build information (no VCS stamp under go test).
	assert.NotEqual(t, Unknown, Read().Version)
}

func TestCompareIsATotalOrder(t *testing.T) {
	a := Build{Version: "v1", Revision: "a"}
	b := Build{Version: "v1", Revision: "a", Modified: true}
	c := Build{Version: "v1", Revision: "b"}
	d := Build{Version: "v2"}
	for _, pair := range [][2]Build{{a, b}, {b, c}, {c, d}, {a, d}} {
		assert.Negative(t, Compare(pair[0], pair[1]), "%v < %v", pair[0], pair[1])
		assert.Positive(t, Compare(pair[1], pair[0]))
	}
	assert.Zero(t, Compare(b, b))
}
