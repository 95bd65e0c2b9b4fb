// Package buildinfo is the one reading of which code a Longcraft binary
// was built from: the module version and the VCS revision, its dirty flag
// and commit time, as the go command stamps them (runtime/debug). Results
// lines, summaries, trace headers, reports, invocations, the HTTP server
// and `longcraft version` all record this Build, so a figure can be traced
// to its code.
//
// It reads the running binary only; callers that need another build (a
// test, a merge of runs played by other binaries) carry a Build as data.
// It must not import anything of Longcraft's.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Build is the code a binary was built from.
type Build struct {
	// Version is the main module's version: a release tag, a
	// pseudo-version that `go build` derives from the checkout's commit
	// (with "+dirty" for local changes), or "(devel)" when the go command
	// stamped none (go run, go test).
	Version string `json:"version"`
	// Revision is the VCS commit (vcs.revision), Modified whether the
	// checkout had local changes (vcs.modified), Time the commit's time
	// (vcs.time, RFC 3339): "", false and "" for a binary built without
	// VCS stamping (go run, go test, -buildvcs=false, outside a checkout).
	Revision string `json:"revision,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Time     string `json:"time,omitempty"`
}

// Unknown is the version of a binary without build information.
const Unknown = "unknown"

// Read returns the running binary's build.
func Read() Build { return From(debug.ReadBuildInfo()) }

// From returns the build that bi describes (ok false: no build
// information, Version Unknown).
func From(bi *debug.BuildInfo, ok bool) Build {
	if !ok || bi == nil {
		return Build{Version: Unknown}
	}
	b := Build{Version: bi.Main.Version}
	if b.Version == "" {
		b.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		case "vcs.time":
			b.Time = s.Value
		}
	}
	return b
}

// IsZero reports a build not recorded (results and traces written before
// Longcraft recorded provenance).
func (b Build) IsZero() bool { return b == Build{} }

// String is the build on one line: the version, then the revision's first
// 12 digits and "modified" when known ("(devel) 6a76553abcde modified").
func (b Build) String() string {
	if b.IsZero() {
		return "not recorded"
	}
	parts := []string{b.Version}
	if b.Revision != "" {
		parts = append(parts, Short(b.Revision))
	} else {
		parts = append(parts, "no VCS revision")
	}
	if b.Modified {
		parts = append(parts, "modified")
	}
	return strings.Join(parts, " ")
}

// Short is a revision's first 12 digits.
func Short(revision string) string {
	if len(revision) > 12 {
		return revision[:12]
	}
	return revision
}

// Compare orders builds by version, revision, dirty flag and time, for
// lists that must not depend on the order results came in.
func Compare(a, b Build) int {
	switch {
	case a.Version != b.Version:
		return strings.Compare(a.Version, b.Version)
	case a.Revision != b.Revision:
		return strings.Compare(a.Revision, b.Revision)
	case a.Modified != b.Modified:
		if a.Modified {
			return 1
		}
		return -1
	}
	return strings.Compare(a.Time, b.Time)
}
