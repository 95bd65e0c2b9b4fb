package run

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/longcraft/longcraft/bench/results"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/task"
)

// leakSpecs cover every family, every tier, both observabilities and every
// feedback level, with short budgets.
func leakSpecs() []task.Spec {
	var specs []task.Spec
	for i, fam := range task.Families() {
		tier := task.Tiers()[i%4].Name
		budget := 12
		if fam == task.FamilySurvive {
			budget = 0 // a survive task's budget cannot be shorter than its goal
		}
		specs = append(specs, task.Spec{Family: fam, Tier: tier, Split: task.Eval, Index: uint64(i), Budget: budget})
	}
	specs = append(specs,
		task.Spec{Family: task.FamilyObtain, Tier: "hard", Split: task.Eval, Index: 7, Budget: 12, Observability: task.Full, Feedback: task.FeedbackFull},
		task.Spec{Family: task.FamilyObtain, Tier: "medium", Split: task.Eval, Index: 8, Budget: 12, Feedback: task.FeedbackReason})
	return specs
}

// identifying lists the strings that would identify a result's world: its
// seed in decimal and hexadecimal and its episode id (an id maps to a spec,
// and a spec to its seed, by enumeration).
func identifying(r results.Result) []string {
	return []string{fmt.Sprint(r.Seed), fmt.Sprintf("%x", r.Seed), fmt.Sprintf("%016x", r.Seed), r.ID}
}

// checkNoLeak fails if anything the agent received holds an identifying
// string of any episode played.
func checkNoLeak(t *testing.T, transport string, received []byte, rows []results.Result) {
	t.Helper()
	require.NotEmpty(t, received, "%s: the agent received nothing", transport)
	for _, r := range rows {
		for _, s := range identifying(r) {
			assert.False(t, bytes.Contains(received, []byte(s)), "%s: the agent received %q, which identifies the world of %s", transport, s, r.ID)
		}
	}
}

// TestAgentsCannotIdentifyTheirWorld plays tasks through the exec and the
// OpenAI transports with agents that record everything they receive, and
// fails if any world seed or episode id appears (v1's exec reset message
// carried the seed, from which `longcraft map` regenerates the map).
func TestAgentsCannotIdentifyTheirWorld(t *testing.T) {
	specs := leakSpecs()
	idx := make([]int, len(specs))
	for i := range idx {
		idx[i] = i
	}
	play := func(cfg Config) []results.Result {
		var rows []results.Result
		require.NoError(t, Suite(context.Background(), specs, idx, cfg, func(d Done) error {
			require.Empty(t, d.Result.Err, d.Result.ID)
			rows = append(rows, d.Result)
			return nil
		}))
		require.Len(t, rows, len(specs))
		return rows
	}

	t.Run("exec", func(t *testing.T) {
		if runtime.GOOS == "js" {
			t.Skip("no subprocesses under js/wasm")
		}
		rec := filepath.Join(t.TempDir(), "received.jsonl")
		t.Setenv("LONGCRAFT_RECORD", rec)
		// NoSandbox: the recorder writes what it receives to a file the
		// test reads, which the sandbox forbids; what it receives does
		// not depend on it.
		rows := play(Config{Agent: "exec:" + buildAgent(t, "recorder"), Workers: 1,
			External: agent.External{ImageSize: 64, Symbolic: true, NoSandbox: true}})
		b, err := os.ReadFile(rec)
		require.NoError(t, err)
		assert.Equal(t, len(specs), bytes.Count(b, []byte(`"type":"reset"`)), "one reset an episode")
		checkNoLeak(t, "exec", b, rows)
	})

	t.Run("openai", func(t *testing.T) {
		var mu sync.Mutex
		var received bytes.Buffer
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			mu.Lock()
			received.Write(body)
			received.WriteString(r.URL.String())
			for k, v := range r.Header {
				received.WriteString(k + ": " + strings.Join(v, ",") + "\n")
			}
			mu.Unlock()
			json.NewEncoder(w).Encode(map[string]any{
				"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": `{"action": "do"}`}}},
			})
		}))
		t.Cleanup(srv.Close)
		rows := play(Config{Agent: "openai", Workers: 2,
			External: agent.External{Model: "fake", BaseURL: srv.URL, ImageSize: 64, Symbolic: true}})
		mu.Lock()
		defer mu.Unlock()
		checkNoLeak(t, "openai", received.Bytes(), rows)
	})
}
