// Package arch holds no code: its test checks the import arrows written in
// docs/architecture.md against every non-test Go file of the module, so
// that the one-way dependencies of the map are the code's. It imports
// nothing of Longcraft's, and nothing may import it.
package arch
