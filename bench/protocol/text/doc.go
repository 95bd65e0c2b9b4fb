// Package text writes what a language-model agent reads of the world: the
// text observation of a world (Describe, DescribeWindow) and an outcome
// in a sentence fragment (Outcome), from sim's read-only accessors.
//
// Offsets are always given per axis ("2 north, 3 west"), never as compass
// diagonals, which invite diagonal moves that do not exist. North is up
// (move_up), south is down, west is left, east is right. The text may
// allocate; it is deterministic, so the same state reads the same bytes
// everywhere (prompts, traces, the server, the browser).
//
// It imports sim alone, so that the layers below bench/protocol (the
// episode, datasets) can name an outcome without the renderer; what an
// agent may know (feedback levels, the local view's filter) is
// bench/task's, and the observation built from both is bench/protocol's.
package text
