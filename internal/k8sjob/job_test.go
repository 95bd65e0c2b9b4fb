package k8sjob

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

const root = "../.."

// manifest returns the Job of docs/scale-out.md's Kubernetes section.
func manifest(t *testing.T) (*batchv1.Job, []byte) {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(root, "docs", "scale-out.md"))
	require.NoError(t, err)
	m := regexp.MustCompile("(?s)## Kubernetes Indexed Job.*?```yaml\n(.*?)```").FindSubmatch(doc)
	require.NotNil(t, m, "docs/scale-out.md has no yaml block in its Kubernetes section")
	var job batchv1.Job
	require.NoError(t, yaml.UnmarshalStrict(m[1], &job), "the manifest against the Job API's types")
	return &job, m[1]
}

// TestManifestIsAValidIndexedJob: the fields an Indexed Job needs, and a
// shard count that matches its completions.
func TestManifestIsAValidIndexedJob(t *testing.T) {
	job, _ := manifest(t)
	assert.Equal(t, "batch/v1", job.APIVersion)
	assert.Equal(t, "Job", job.Kind)
	require.NotNil(t, job.Spec.CompletionMode)
	assert.Equal(t, batchv1.IndexedCompletion, *job.Spec.CompletionMode)
	require.NotNil(t, job.Spec.Completions)
	n := int(*job.Spec.Completions)
	assert.Positive(t, n)
	if p := job.Spec.Parallelism; p != nil {
		assert.LessOrEqual(t, int(*p), n)
	}
	pod := job.Spec.Template.Spec
	assert.Contains(t, []corev1.RestartPolicy{corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever}, pod.RestartPolicy,
		"a Job's pods restart OnFailure or Never")
	require.Len(t, pod.Containers, 1)
	c := pod.Containers[0]
	assert.Equal(t, []string{"/bin/sh", "-c"}, c.Command)
	require.Len(t, c.Args, 1)
	shards := regexp.MustCompile(`--shards (\d+)`).FindStringSubmatch(c.Args[0])
	require.NotNil(t, shards, "the command passes --shards")
	assert.Equal(t, strconv.Itoa(n), shards[1], "--shards is the job's completions")
	assert.Contains(t, c.Args[0], "--resume", "a restarted pod continues its shard")
	assert.Contains(t, c.Args[0], "$JOB_COMPLETION_INDEX")
	require.Len(t, c.VolumeMounts, 1)
	require.Len(t, pod.Volumes, 1)
	assert.Equal(t, pod.Volumes[0].Name, c.VolumeMounts[0].Name)
	require.False(t, c.Resources.Requests.Cpu().IsZero())
}

// TestManifestShardsMergeToTheWholeRun runs the container's command once
// per completion index, with JOB_COMPLETION_INDEX set as Kubernetes sets
// it and the volume's mount path mapped to a directory here, then merges
// the shards: the merge must be byte-identical to an unsharded run. It
// plays the standard suite with the planner several times; make test-long
// runs it.
func TestManifestShardsMergeToTheWholeRun(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the standard suite with the planner: make test-long runs it")
	}
	job, _ := manifest(t)
	c := job.Spec.Template.Spec.Containers[0]
	mount := c.VolumeMounts[0].MountPath
	vol := t.TempDir()
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "longcraft"), "./cmd/longcraft")
	build.Dir = root
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	script := strings.ReplaceAll(c.Args[0], mount, vol)
	env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for i := range int(*job.Spec.Completions) {
		pod := exec.Command(c.Command[0], append(c.Command[1:], script)...)
		pod.Env = append(env, "JOB_COMPLETION_INDEX="+strconv.Itoa(i))
		out, err := pod.CombinedOutput()
		require.NoError(t, err, "completion index %d: %s", i, out)
	}
	longcraft := filepath.Join(bin, "longcraft")
	shardDirs, err := filepath.Glob(filepath.Join(vol, "standard", "shard-*"))
	require.NoError(t, err)
	require.Len(t, shardDirs, int(*job.Spec.Completions))
	merged := filepath.Join(vol, "standard", "all")
	out, err = exec.Command(longcraft, append([]string{"merge", "--out", merged}, shardDirs...)...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	// The same run unsharded: the container's command without --shards
	// and its index.
	whole := filepath.Join(vol, "whole")
	args := strings.Fields(strings.ReplaceAll(script, "$JOB_COMPLETION_INDEX", "0"))
	var plain []string
	for i := 1; i < len(args); i++ { // args[0] is longcraft
		switch args[i] {
		case "--shards", "--out":
			i++
		case "--resume":
		default:
			plain = append(plain, args[i])
		}
	}
	out, err = exec.Command(longcraft, append(plain, "--out", whole, "--quiet")...).CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, f := range []string{"results.jsonl", "summary.json", "report.html", "run.json"} {
		a, err := os.ReadFile(filepath.Join(merged, f))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(whole, f))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(a, b), "%s: the merge differs from the unsharded run", f)
	}
}
