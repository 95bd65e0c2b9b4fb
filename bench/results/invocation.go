package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/longcraft/longcraft/internal/buildinfo"
)

// InvocationsFile lists every invocation that wrote into a run directory,
// one JSON line each: the first run, each resume, a merge (after the
// shards' own lines).
const InvocationsFile = "invocations.jsonl"

// Invocation is when, where and by which build a run directory was
// written. It is provenance, not part of the results: invocations of one
// run definition give the same results whatever it says, which is why it
// lives apart from summary.json.
type Invocation struct {
	Command   string    `json:"command"` // score or merge
	Args      []string  `json:"args"`    // the command line
	Start     time.Time `json:"start"`
	End       time.Time `json:"end"`
	Played    int       `json:"played"`             // episodes this invocation played
	Skipped   int       `json:"skipped,omitempty"`  // already had a result (resume)
	Replayed  int       `json:"replayed,omitempty"` // had a result but lost its trace
	Complete  bool      `json:"complete"`           // every planned episode had a result at the end
	Error     string    `json:"error,omitempty"`    // how it ended, if not well
	Merged    []string  `json:"merged,omitempty"`   // a merge's shard directories
	Longcraft string    `json:"longcraft"`          // module version (buildinfo: a pseudo-version for go build in a checkout, "(devel)" for go run)
	Revision  string    `json:"revision,omitempty"` // VCS revision the binary was built from
	Modified  bool      `json:"modified,omitempty"` // the checkout had local changes
	VCSTime   string    `json:"vcs_time,omitempty"` // the revision's commit time
	GoVersion string    `json:"go_version"`
	GOOS      string    `json:"goos"`
	GOARCH    string    `json:"goarch"`
	CPUs      int       `json:"cpus"`
	Host      string    `json:"host,omitempty"`
}

// NewInvocation starts an invocation's record: the build and the machine,
// from buildinfo and the runtime.
func NewInvocation(command string, args []string, start time.Time) Invocation {
	inv := Invocation{Command: command, Args: args, Start: start.UTC(),
		GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU()}
	inv.Host, _ = os.Hostname()
	b := buildinfo.Read()
	inv.Longcraft, inv.Revision, inv.Modified, inv.VCSTime = b.Version, b.Revision, b.Modified, b.Time
	return inv
}

// AppendInvocation adds inv, ended at end, to dir's invocations.jsonl.
func AppendInvocation(dir string, inv Invocation, end time.Time) error {
	inv.End = end.UTC()
	line, err := json.Marshal(inv)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, InvocationsFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("record the invocation: %w", err)
	}
	_, err = f.Write(append(line, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("record the invocation in %s: %w", path, err)
	}
	return nil
}

// ReadInvocations reads dir's invocations.jsonl (none if it is missing),
// keeping every whole line.
func ReadInvocations(dir string) ([]Invocation, error) {
	data, err := os.ReadFile(filepath.Join(dir, InvocationsFile))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Invocation
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var inv Invocation
		if err := dec.Decode(&inv); err != nil {
			break // a torn last line
		}
		out = append(out, inv)
	}
	return out, nil
}
