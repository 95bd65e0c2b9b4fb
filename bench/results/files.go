package results

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

// Files of a run directory.
const (
	ResultsFile = "results.jsonl"
	SummaryFile = "summary.json"
	TraceFile   = "episodes.lctrace"
	ReportFile  = "report.html"
)

// Read reads a results.jsonl, keeping every whole line (a run
// killed mid-write may leave a torn last one).
func Read(path string) ([]Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Result
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Result
		if err := json.Unmarshal(line, &r); err != nil {
			if i == bytes.Count(data, []byte("\n")) { // the torn last line
				break
			}
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// WriteSorted rewrites results.jsonl in suite order, atomically.
func WriteSorted(path string, rs []Result) error {
	sort.Slice(rs, func(i, j int) bool { return rs[i].Index < rs[j].Index })
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i := range rs {
		if err := enc.Encode(&rs[i]); err != nil {
			return err
		}
	}
	return WriteAtomic(path, buf.Bytes())
}

// WriteAtomic writes data to path through a temporary file and a rename,
// so that a reader sees the old file or the new one, never a part.
func WriteAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// WriteSummary writes summary.json.
func WriteSummary(path string, s Summary) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return WriteAtomic(path, append(data, '\n'))
}
