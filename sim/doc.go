// Package sim is Longcraft's deterministic world: a seeded, Crafter-like
// 2D open world whose rules come from a data table (Classic reproduces the
// Crafter benchmark's mechanics).
//
// A World is built once with New and then reused: Reset(seed) generates
// the world of a seed and Step(action) advances it, neither allocating.
// The state is integers only and fixed in size, so the same seed and
// actions give the same Hash at every step on every platform, natively and
// under WebAssembly, and Clone/CopyFrom snapshot a world for planners.
//
// Step reports a structured Outcome: what the action did and, when it
// failed, why (missing_tool, missing_material, needs_nearby,
// invalid_target, occupied, inventory_full, not_ripe, not_tired, no_luck),
// with the missing items or stations. The simulation always knows; the
// task layer above decides how much of it a player sees.
//
// Observations: Observe fills a fixed-size struct with the 9×9 symbolic
// local view (Crafter's semantic ids, see SemanticID), the inventory,
// achievements, daylight and facing; SemanticMap writes the whole map.
// ASCII and LoadASCII read and write maps in a one-character-per-tile
// format used by tests and task files. Text for language-model players
// is not sim's: bench/protocol/text writes it from these accessors.
//
// The package does no I/O, starts no goroutines and reads no clock.
package sim

//go:generate go run gen_tables.go
