// Package prefetch asks the CPU's caches for memory a host will read
// soon: the hint bench/episode and bench/task give for their own state
// when bench/vec steps more worlds than the caches hold. It changes no
// value anywhere, only when memory arrives. sim keeps kernels of its own
// (sim imports nothing of Longcraft's). It imports nothing of
// Longcraft's.
package prefetch
