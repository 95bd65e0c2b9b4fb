package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
)

// DefinitionFile is the run directory's definition of its run.
const DefinitionFile = "run.json"

// Definition is what defines a run: every setting that decides which
// episodes are played and how. Two invocations with equal definitions play
// the same episodes the same way, so --resume may continue one with the
// other, and shards whose definitions differ only in Shard may be merged.
// Settings that cannot change a result (workers, progress display, call
// retries) are not part of it.
type Definition struct {
	Suite     string   `json:"suite"`      // the suite's name
	SuiteHash string   `json:"suite_hash"` // of every spec the suite expands to, before filters
	Lock      string   `json:"lock"`       // hash of the suite lock the tasks come from ("": generated)
	Episodes  int      `json:"episodes"`   // planned over all shards, after filters
	Tiers     []string `json:"tiers,omitempty"`
	Families  []string `json:"families,omitempty"`
	Seeds     int      `json:"seeds,omitempty"`
	Shard     int      `json:"shard"`
	Shards    int      `json:"shards"` // 1: not sharded
	Rules     []string `json:"rules"`  // "name vN" of each ruleset
	Agent     string   `json:"agent"`
	// SaltCommitment names the salt of held-out seeds (never the salt
	// itself); "": public seeds.
	SaltCommitment string `json:"salt_commitment,omitempty"`
	// The external player's settings (zero for built-in agents).
	Model       string  `json:"model,omitempty"`
	BaseURL     string  `json:"base_url,omitempty"` // scheme and host only: never a path's secrets
	Temperature float64 `json:"temperature,omitempty"`
	MaxTokens   int     `json:"max_tokens,omitempty"`
	History     int     `json:"history,omitempty"`
	ImageSize   int     `json:"image_size,omitempty"`
	Symbolic    bool    `json:"symbolic,omitempty"`
	NoNotice    bool    `json:"no_notice,omitempty"`
	// Unsandboxed: an exec agent ran without the sandbox (--no-sandbox),
	// able to read and write the run's files: its results are the
	// agent's word, and the table and report say so.
	Unsandboxed bool   `json:"unsandboxed,omitempty"`
	Reply       string `json:"reply,omitempty"`          // json, schema or tools
	Notes       bool   `json:"notes,omitempty"`          // the scratchpad
	HistoryToks int    `json:"history_tokens,omitempty"` // the history's size bound
	Prompt      string `json:"prompt,omitempty"`         // bench/player.PromptID
	// Budgets of the agent's tokens and cost; an episode or the run that
	// reaches one ends (budget_tokens, budget_cost).
	MaxEpisodeTokens int     `json:"max_episode_tokens,omitempty"`
	MaxRunTokens     int     `json:"max_run_tokens,omitempty"`
	MaxRunCost       float64 `json:"max_run_cost,omitempty"`
	PriceIn          float64 `json:"price_in,omitempty"`  // US dollars per million prompt tokens
	PriceOut         float64 `json:"price_out,omitempty"` // per million completion tokens
	// An agent that does not answer in time errs, so the timeouts decide
	// results too.
	StepTimeoutMs int64 `json:"step_timeout_ms,omitempty"`
	CallTimeoutMs int64 `json:"call_timeout_ms,omitempty"`
	// How episodes end and what is kept.
	Certify    bool   `json:"certify"`
	NoProgress int    `json:"no_progress,omitempty"`
	TimeoutMs  int64  `json:"timeout_ms,omitempty"`
	Traces     string `json:"traces"`
}

// Differs returns the first field in which d and other differ, by its
// JSON name, with both values; "" when they are equal. except names fields
// to leave out (merge leaves out "shard").
func (d Definition) Differs(other Definition, except ...string) string {
	a, b := reflect.ValueOf(d), reflect.ValueOf(other)
	t := a.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		skip := false
		for _, e := range except {
			skip = skip || e == name
		}
		if skip || reflect.DeepEqual(a.Field(i).Interface(), b.Field(i).Interface()) {
			continue
		}
		return fmt.Sprintf("%s: %v here, %v there", name, show(a.Field(i).Interface()), show(b.Field(i).Interface()))
	}
	return ""
}

func show(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

// WriteDefinition writes run.json into dir.
func WriteDefinition(dir string, d Definition) error {
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	return WriteAtomic(filepath.Join(dir, DefinitionFile), append(data, '\n'))
}

// ErrNoDefinition is returned for a run directory without run.json.
var ErrNoDefinition = errors.New("no " + DefinitionFile)

// ReadDefinition reads dir's run.json.
func ReadDefinition(dir string) (Definition, error) {
	var d Definition
	data, err := os.ReadFile(filepath.Join(dir, DefinitionFile))
	if errors.Is(err, os.ErrNotExist) {
		return d, fmt.Errorf("%s: %w (written by an older Longcraft, or not a run directory)", dir, ErrNoDefinition)
	}
	if err != nil {
		return d, err
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return d, fmt.Errorf("%s: %w", filepath.Join(dir, DefinitionFile), err)
	}
	return d, nil
}
