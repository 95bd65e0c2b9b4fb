// Package k8sjob holds no code: its test checks docs/scale-out.md's
// Kubernetes Indexed Job against the Job API's Go types (k8s.io/api,
// decoded strictly, so a misspelt or misplaced field fails) and runs the
// manifest's shard command for every completion index, as the pods would,
// merging the shards and comparing the merge with an unsharded run.
//
// It is a module of its own so that the Kubernetes API types, which only
// this test needs, stay out of Longcraft's module graph. It imports
// nothing of Longcraft's: it runs the longcraft binary.
package k8sjob
