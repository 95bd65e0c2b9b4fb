package run

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/agent"
	"github.com/longcraft/longcraft/bench/results"
	"github.com/longcraft/longcraft/bench/suite"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
)

// testSalt is long enough that finding it in a file is no accident.
const testSalt = "correct horse battery staple 42"

// saltedRun is a small run of the default suite with the random agent,
// on held-out seeds when salt is not empty.
func saltedRun(out, salt string, workers int) Options {
	o := Options{Suite: "default", Agent: "random", Out: out, Traces: "all", Families: []string{task.FamilyObtain, task.FamilyWaypoints},
		Config: Config{Certify: true, Workers: workers}}
	if salt != "" {
		o.Salt = []byte(salt)
	}
	return o
}

func score(t *testing.T, o Options) Outcome {
	t.Helper()
	oc, err := Score(context.Background(), o, nil)
	require.NoError(t, err)
	require.True(t, oc.Complete)
	return oc
}

// TestSaltedRunsReproduce: the same lock and salt play the same run
// (whatever the workers: byte-identical results and summary); another
// salt plays other worlds under other ids; public ids stay the lock's;
// the salt is written nowhere in the run directory.
func TestSaltedRunsReproduce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b, c, pub := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "c"), filepath.Join(dir, "pub")
	withArgs := saltedRun(a, testSalt, 2) // the command line as the CLI passes it: Score keeps it, redacted
	withArgs.Args = []string{"longcraft", "score", "--salt", testSalt, "--out", a}
	score(t, withArgs)
	score(t, saltedRun(b, testSalt, 1))
	score(t, saltedRun(c, testSalt+"!", 2))
	score(t, saltedRun(pub, "", 2))
	for _, f := range []string{results.ResultsFile, results.SummaryFile, results.DefinitionFile, results.ReportFile} {
		assert.Equal(t, string(readFile(t, filepath.Join(a, f))), string(readFile(t, filepath.Join(b, f))), "%s: one lock and salt, one run", f)
	}
	assert.Equal(t, traceSet(t, a), traceSet(t, b), "the traces too")

	ra, err := results.Read(filepath.Join(a, results.ResultsFile))
	require.NoError(t, err)
	rc, err := results.Read(filepath.Join(c, results.ResultsFile))
	require.NoError(t, err)
	rp, err := results.Read(filepath.Join(pub, results.ResultsFile))
	require.NoError(t, err)
	require.Len(t, ra, 12)
	require.Len(t, rc, len(ra))
	require.Len(t, rp, len(ra))
	lock, err := suite.LoadLock("default")
	require.NoError(t, err)
	commit := task.SaltCommitment([]byte(testSalt))
	for i := range ra {
		require.Equal(t, ra[i].Index, rp[i].Index)
		assert.Equal(t, lock.Episodes[rp[i].Index].ID, rp[i].ID, "public ids are the lock's")
		assert.Equal(t, lock.Episodes[rp[i].Index].Seed, rp[i].Seed, "public seeds are the lock's")
		assert.Empty(t, rp[i].SaltCommitment)
		assert.Equal(t, commit, ra[i].SaltCommitment)
		assert.Equal(t, task.SaltedID(rp[i].ID, commit), ra[i].ID)
		assert.NotEqual(t, rp[i].Seed, ra[i].Seed, "a salted world is not the public one")
		assert.NotEqual(t, ra[i].Seed, rc[i].Seed, "another salt, another world")
		assert.NotEqual(t, ra[i].ID, rc[i].ID, "another salt, another id")
		assert.Equal(t, lock.Hash, ra[i].Lock, "the public seeds came from the lock")
		assert.True(t, ra[i].Certified, "certified at run time")
		assert.Empty(t, ra[i].Err)
	}
	def, err := results.ReadDefinition(a)
	require.NoError(t, err)
	assert.Equal(t, commit, def.SaltCommitment)
	var s results.Summary
	require.NoError(t, json.Unmarshal(readFile(t, filepath.Join(a, results.SummaryFile)), &s))
	assert.Equal(t, commit, s.SaltCommitment)
	assert.Contains(t, string(readFile(t, filepath.Join(a, results.ReportFile))), "held-out seeds (salt commitment "+commit[:8])
	assert.Contains(t, string(readFile(t, filepath.Join(pub, results.ReportFile))), "public seeds (memorisable)")
	filepath.Walk(a, func(path string, info os.FileInfo, err error) error {
		require.NoError(t, err)
		if !info.IsDir() {
			assert.False(t, bytes.Contains(readFile(t, path), []byte(testSalt)), "%s holds the salt", path)
		}
		return nil
	})
}

// TestSaltedTracesReplay: every trace of a salted run names its episode as
// its result does, carries the commitment and replays from its seed.
func TestSaltedTracesReplay(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	score(t, saltedRun(out, testSalt, 2))
	rs, err := results.Read(filepath.Join(out, results.ResultsFile))
	require.NoError(t, err)
	byID := map[string]results.Result{}
	for _, r := range rs {
		byID[r.ID] = r
	}
	tf, err := trace.Open(filepath.Join(out, results.TraceFile))
	require.NoError(t, err)
	defer tf.Close()
	require.Len(t, tf.Index, len(rs))
	for i := range tf.Index {
		ep, err := tf.Episode(i)
		require.NoError(t, err)
		r, ok := byID[ep.Header.EpisodeID()]
		require.True(t, ok, "trace %d is of a result", i)
		assert.Equal(t, task.SaltCommitment([]byte(testSalt)), ep.Header.SaltCommitment)
		assert.Equal(t, r.Seed, ep.Header.Seed)
		_, err = trace.Run(ep)
		assert.NoError(t, err, "episode %d replays", i)
	}
}

// TestSaltedResumeAndMerge: resume and merge refuse another salt (or
// none) by its commitment, and accept the same one; shards of one salt
// merge into the unsharded run.
func TestSaltedResumeAndMerge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole")
	score(t, saltedRun(whole, testSalt, 2))
	for name, salt := range map[string]string{"another salt": "another salt, as long", "no salt": ""} {
		o := saltedRun(whole, salt, 2)
		o.Resume = true
		_, err := Score(context.Background(), o, nil)
		assert.ErrorContains(t, err, "salt commitment differs", name)
	}
	o := saltedRun(whole, testSalt, 2)
	o.Resume = true
	oc := score(t, o)
	assert.Equal(t, 12, oc.Skipped)
	assert.Zero(t, oc.Played)

	// A salted run that lost its last results and its trace file plays
	// those episodes again, and rebuilds the others' traces, on the same
	// worlds.
	part := filepath.Join(dir, "part")
	score(t, saltedRun(part, testSalt, 2))
	rs, err := results.Read(filepath.Join(part, results.ResultsFile))
	require.NoError(t, err)
	require.NoError(t, results.WriteSorted(filepath.Join(part, results.ResultsFile), rs[:7]))
	require.NoError(t, os.Remove(filepath.Join(part, results.TraceFile)))
	o = saltedRun(part, testSalt, 1)
	o.Resume = true
	oc = score(t, o)
	assert.Equal(t, 5, oc.Played)
	assert.Equal(t, 7, oc.Replayed)
	assert.Equal(t, string(readFile(t, filepath.Join(whole, results.ResultsFile))), string(readFile(t, filepath.Join(part, results.ResultsFile))))

	shard := func(name, salt string, i int) string {
		d := filepath.Join(dir, name)
		o := saltedRun(d, salt, 1)
		o.Shard, o.Shards = i, 2
		score(t, o)
		return d
	}
	s0, s1, other := shard("s0", testSalt, 0), shard("s1", testSalt, 1), shard("x1", "another salt, as long", 1)
	_, err = Merge(filepath.Join(dir, "bad"), []string{s0, other})
	assert.ErrorContains(t, err, "salt commitment differs")
	merged := filepath.Join(dir, "merged")
	_, err = Merge(merged, []string{s0, s1})
	require.NoError(t, err)
	for _, f := range []string{results.ResultsFile, results.SummaryFile} {
		assert.Equal(t, string(readFile(t, filepath.Join(whole, f))), string(readFile(t, filepath.Join(merged, f))), f)
	}
	assert.Equal(t, traceSet(t, whole), traceSet(t, merged))

	// A results line of another salt slipped into a shard is refused.
	rs, err = results.Read(filepath.Join(s1, results.ResultsFile))
	require.NoError(t, err)
	rs[0].SaltCommitment = task.SaltCommitment([]byte("other"))
	require.NoError(t, results.WriteSorted(filepath.Join(s1, results.ResultsFile), rs))
	_, err = Merge(filepath.Join(dir, "bad2"), []string{s0, s1})
	assert.ErrorContains(t, err, "salt commitment differs")
}

// TestCheckSalt: the revealed salt checks out against its run; another
// salt, a public run and a result whose seed or goal was not derived from
// the salt are refused, named.
func TestCheckSalt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, pub := filepath.Join(dir, "salted"), filepath.Join(dir, "pub")
	score(t, saltedRun(out, testSalt, 2))
	score(t, saltedRun(pub, "", 2))
	c, err := CheckSalt(out, []byte(testSalt), "")
	require.NoError(t, err)
	assert.Equal(t, 12, c.Checked)
	assert.Equal(t, task.SaltCommitment([]byte(testSalt)), c.Commitment)

	_, err = CheckSalt(out, []byte("guess"), "")
	assert.ErrorContains(t, err, "salt commitment differs")
	_, err = CheckSalt(pub, []byte(testSalt), "")
	assert.ErrorContains(t, err, "public seeds")

	path := filepath.Join(out, results.ResultsFile)
	rs, err := results.Read(path)
	require.NoError(t, err)
	rs[3].Seed++
	rs[5].Goal = "obtain 1 diamond"
	require.NoError(t, results.WriteSorted(path, rs))
	_, err = CheckSalt(out, []byte(testSalt), "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "2 of 12 results do not follow")
	assert.Contains(t, err.Error(), rs[3].ID)
	assert.Contains(t, err.Error(), rs[5].ID)
}

func TestResolveSalt(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		return p
	}
	for _, tc := range []struct {
		name       string
		value      string
		given      bool
		file       string
		want       string
		wantErr    string
		wantSecret bool
	}{
		{name: "none"},
		{name: "literal", value: "abcdefghijklmnop", given: true, want: "abcdefghijklmnop"},
		{name: "short", value: "417", given: true, wantErr: "an agent can find it"},
		{name: "empty", value: "", given: true, wantErr: "empty"},
		{name: "too long", value: strings.Repeat("x", 5000), given: true, wantErr: "16 to 4096 bytes"},
		{name: "both", value: "abc", given: true, file: file("both", "x"), wantErr: "give one of them"},
		{name: "file", file: file("f", "from a file, long\n"), want: "from a file, long"},
		{name: "short file", file: file("short", "word\n"), wantErr: "an agent can find it"},
		{name: "file crlf", file: file("crlf", "dos line endings\r\n"), want: "dos line endings"},
		{name: "empty file", file: file("empty", "\n"), wantErr: "0 bytes"},
		{name: "missing file", file: filepath.Join(dir, "nope"), wantErr: "no such file"},
		{name: "random", value: "random", given: true, wantSecret: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, "out-"+tc.name)
			salt, secret, err := ResolveSalt(tc.value, tc.given, tc.file, out)
			if tc.wantErr != "" {
				assert.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			if !tc.wantSecret {
				assert.Equal(t, tc.want, string(salt))
				assert.Empty(t, secret)
				return
			}
			assert.Regexp(t, `^[0-9a-f]{64}$`, string(salt))
			assert.Equal(t, filepath.Join(out, SaltSecretFile), secret)
			assert.NoFileExists(t, secret, "Score keeps the salt, once it holds the run directory")
			require.NoError(t, os.MkdirAll(out, 0o755))
			require.NoError(t, keepSaltSecret(secret, salt))
			assert.Error(t, keepSaltSecret(secret, salt), "never over an existing salt")
			st, err := os.Stat(secret)
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "only the evaluator reads it")
			again, _, err := ResolveSalt("", false, secret, "")
			require.NoError(t, err)
			assert.Equal(t, salt, again, "--salt-file OUT/salt.secret gives the salt back")
			_, _, err = ResolveSalt("random", true, "", out)
			assert.ErrorContains(t, err, "already holds a run", "a second random salt is refused")
		})
	}
	out, _, err := ResolveSalt("random", true, "", "")
	assert.ErrorContains(t, err, "needs --out")
	assert.Nil(t, out)
}

// TestRefusedRunKeepsNoSalt: a --salt random run refused because another
// run holds the directory leaves no salt.secret there (it once wrote the
// salt before taking the lock, leaving the other run's directory a salt
// that is not its own); the run that holds the directory keeps it.
func TestRefusedRunKeepsNoSalt(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	held, err := LockDir(out, []string{"longcraft", "score", "--out", out})
	require.NoError(t, err)
	o := Options{Suite: "default", Families: []string{task.FamilyObtain}, Tiers: []string{"easy"}, Seeds: 1, Agent: "noop", Out: out, Traces: "none"}
	o.Salt, o.SaltSecret, err = ResolveSalt("random", true, "", out)
	require.NoError(t, err)
	_, err = Score(context.Background(), o, nil)
	require.ErrorContains(t, err, "pid")
	assert.NoFileExists(t, filepath.Join(out, SaltSecretFile), "the refused run left its salt in the other run's directory")
	require.NoError(t, held.Unlock())
	_, err = Score(context.Background(), o, nil)
	require.NoError(t, err)
	again, _, err := ResolveSalt("", false, filepath.Join(out, SaltSecretFile), "")
	require.NoError(t, err)
	assert.Equal(t, o.Salt, again, "the run that played keeps its salt")
}

func TestRedactSalt(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"longcraft score --salt s3cret --out x", "longcraft score --salt REDACTED --out x"},
		{"longcraft score --salt=s3cret --out x", "longcraft score --salt=REDACTED --out x"},
		{"longcraft score --salt random --out x", "longcraft score --salt random --out x"},
		{"longcraft score --salt-file f --out x", "longcraft score --salt-file f --out x"},
		{"longcraft score --out x --salt", "longcraft score --out x --salt"},
	} {
		assert.Equal(t, tc.want, strings.Join(RedactSalt(strings.Fields(tc.in)), " "))
	}
}

// TestKillSaltedRunResumes kills a salted run with SIGKILL after several
// kinds of write (the test binary re-executed, as TestKillAtEveryWrite
// does), resumes it with the same salt, and checks it ends as the
// uninterrupted salted run: the salted tasks made again for the episodes
// left are the same tasks.
func TestKillSaltedRunResumes(t *testing.T) {
	if dir := os.Getenv("LONGCRAFT_SALT_KILL_CHILD"); dir != "" {
		point, nth, _ := strings.Cut(os.Getenv("LONGCRAFT_SALT_KILL_AT"), ":")
		n, _ := strconv.Atoi(nth)
		o := saltedRun(dir, testSalt, 2)
		o.AfterWrite = killAfter(point, n)
		_, err := Score(context.Background(), o, nil)
		fmt.Fprintln(os.Stderr, "child ended without being killed:", err)
		os.Exit(3)
	}
	t.Parallel()
	whole := t.TempDir()
	score(t, saltedRun(whole, testSalt, 2))
	for _, at := range []string{"definition:1", "record:3", "result:3", "results:1", "summary:1"} {
		t.Run(at, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run", "^TestKillSaltedRunResumes$")
			cmd.Env = append(os.Environ(), "LONGCRAFT_SALT_KILL_CHILD="+dir, "LONGCRAFT_SALT_KILL_AT="+at)
			requireKilled(t, cmd, at)
			o := saltedRun(dir, testSalt, 1)
			o.Resume = true
			score(t, o)
			assertSameRun(t, whole, dir, traceSet(t, whole))
		})
	}
}

// BenchmarkCertifySaltedStandard measures what held-out seeds cost before
// the first episode: generating and certifying the standard suite's 700
// salted tasks across the machine's cores (docs/tasks.md quotes it).
//
//	go test ./bench/run -run '^$' -bench CertifySaltedStandard -benchtime 1x
func BenchmarkCertifySaltedStandard(b *testing.B) {
	if testing.Short() {
		b.Skip("a measurement of minutes, not a check: make benchmarks-once runs -short; run it with go test ./bench/run -run '^$' -bench CertifySaltedStandard -benchtime 1x")
	}
	s, err := suite.Load("standard")
	require.NoError(b, err)
	l, err := suite.LoadLock("standard")
	require.NoError(b, err)
	specs := s.Expand()
	indices := make([]int, len(specs))
	for i := range indices {
		indices[i] = i
	}
	for i := range b.N {
		salted, err := makeSalted(context.Background(), []byte(fmt.Sprintf("bench %d", i)), l, specs, indices, true, 0, nil)
		require.NoError(b, err)
		attempts, failed := 0, 0
		for _, st := range salted.tasks {
			if st.err != nil {
				failed++
				continue
			}
			attempts += st.t.Attempts
		}
		b.ReportMetric(float64(attempts)/float64(len(specs)), "attempts/task")
		b.ReportMetric(float64(failed), "failed")
	}
	b.ReportMetric(float64(len(specs)), "tasks")
}

// TestRecordedSaltedPlay: a trace of held-out seeds scores again as
// trace:FILE under its salt (the same worlds, the same results), and
// without it says which salt its play needs.
func TestRecordedSaltedPlay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	played := saltedRun(filepath.Join(dir, "planner"), testSalt, 2)
	// Survive at medium holds the default lock's one episode whose public
	// seed is not SeedFor's (its first world was replaced): recorded play
	// must derive from the lock's, as the run did.
	played.Agent, played.Families, played.Tiers = "planner", []string{task.FamilySurvive}, []string{"medium"}
	score(t, played)
	want, err := results.Read(filepath.Join(played.Out, results.ResultsFile))
	require.NoError(t, err)
	rec := "trace:" + filepath.Join(played.Out, results.TraceFile)
	again := Options{Suite: rec, Agent: rec, Out: filepath.Join(dir, "again"), Traces: "none", Salt: []byte(testSalt), Config: Config{Certify: true, Workers: 2}}
	score(t, again)
	got, err := results.Read(filepath.Join(again.Out, results.ResultsFile))
	require.NoError(t, err)
	require.Len(t, got, len(want))
	byID := map[string]results.Result{}
	for _, r := range want {
		byID[r.ID] = r
	}
	for _, r := range got { // in the trace file's order
		w, ok := byID[r.ID]
		require.True(t, ok, "%s is an episode of the salted run", r.ID)
		assert.Equal(t, w.Seed, r.Seed)
		assert.Equal(t, w.Success, r.Success, r.Err)
	}
	public := again
	public.Out, public.Salt = filepath.Join(dir, "public"), nil
	score(t, public)
	got, err = results.Read(filepath.Join(public.Out, results.ResultsFile))
	require.NoError(t, err)
	for _, r := range got {
		assert.Contains(t, r.Err, "played on held-out seeds")
	}
}

// TestSaltedRunRebuildsLostTraces: a salted run whose trace file was lost
// is resumed with its salt; the traces are rebuilt by playing the
// episodes again on the same salted worlds, which give the recorded
// results.
func TestSaltedRunRebuildsLostTraces(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	whole, lost := filepath.Join(dir, "whole"), filepath.Join(dir, "lost")
	score(t, saltedRun(whole, testSalt, 2))
	score(t, saltedRun(lost, testSalt, 2))
	require.NoError(t, os.Remove(filepath.Join(lost, results.TraceFile)))
	o := saltedRun(lost, testSalt, 2)
	o.Resume = true
	oc := score(t, o)
	assert.Equal(t, 12, oc.Replayed)
	assert.Equal(t, traceSet(t, whole), traceSet(t, lost))
	assert.Equal(t, string(readFile(t, filepath.Join(whole, results.ResultsFile))), string(readFile(t, filepath.Join(lost, results.ResultsFile))))
}

// TestSaltedSuiteFile: a suite file without a lock is not locked for a
// salted run (its salted tasks are certified at run time anyway); the run
// reproduces, and its salt checks out.
func TestSaltedSuiteFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.yaml")
	require.NoError(t, os.WriteFile(file, []byte("name: mine\nepisodes:\n  - families: [obtain, collect]\n    tiers: [easy]\n    split: eval\n    seeds: {from: 500, count: 3}\n"), 0o644))
	run := func(name string) Options {
		return Options{Suite: file, Agent: "random", Out: filepath.Join(dir, name), Traces: "all", Salt: []byte(testSalt), Config: Config{Certify: true, Workers: 2}}
	}
	score(t, run("a"))
	score(t, run("b"))
	assert.NoFileExists(t, filepath.Join(dir, "a", LockFile), "no public lock certified for nothing")
	assert.Equal(t, string(readFile(t, filepath.Join(dir, "a", results.ResultsFile))), string(readFile(t, filepath.Join(dir, "b", results.ResultsFile))))
	c, err := CheckSalt(filepath.Join(dir, "a"), []byte(testSalt), "")
	require.NoError(t, err)
	assert.Equal(t, 6, c.Checked)
}

// TestVerifySaltedRun: verify matches a salted run's traces to its lines
// by their salted ids, and a line whose salt commitment was edited (to
// another salt's, or to none, claiming public seeds) differs from its
// trace.
func TestVerifySaltedRun(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	score(t, saltedRun(out, testSalt, 2))
	v, err := Verify(out)
	require.NoError(t, err)
	require.True(t, v.OK(), "%v", v.Problems())
	assert.Equal(t, 12, v.Checked)
	path := filepath.Join(out, results.ResultsFile)
	rs, err := results.Read(path)
	require.NoError(t, err)
	rs[2].SaltCommitment = task.SaltCommitment([]byte("other"))
	rs[4].SaltCommitment = ""
	require.NoError(t, results.WriteSorted(path, rs))
	v, err = Verify(out)
	require.NoError(t, err)
	problems := strings.Join(v.Problems(), "\n")
	assert.Contains(t, problems, lineName(&rs[2])+": salt_commitment")
	assert.Contains(t, problems, lineName(&rs[4])+": salt_commitment")
}

// saltSnoop is an exec agent that tries, at every step, to read the salt:
// from the file of --salt-file and from --salt random's OUT/salt.secret
// (its arguments: it could have learnt both paths from its parent's
// command line), and says in its reason what worked.
const saltSnoop = `#!/bin/sh
file="$1"; secret="$2"
while read -r line; do
	case "$line" in
	*reset*) echo '{"type":"ready"}'; continue;;
	esac
	r=""
	[ -s "$file" ] && r="$r read_salt_file"
	[ -s "$secret" ] && r="$r read_secret"
	echo "{\"action\":\"noop\",\"reason\":\"$r\"}"
done
`

// TestExecAgentCannotReadTheSalt: sandboxed, an exec agent reads neither
// the salt file nor salt.secret; with --no-sandbox it reads both, which
// shows the test can tell.
func TestExecAgentCannotReadTheSalt(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Linux's")
	}
	for _, c := range []struct {
		name      string
		noSandbox bool
		want      []string
	}{{"sandbox", false, nil}, {"no-sandbox", true, []string{"read_salt_file", "read_secret"}}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			saltFile := filepath.Join(dir, "salt.txt")
			require.NoError(t, os.WriteFile(saltFile, []byte(testSalt+"\n"), 0o600))
			out := filepath.Join(dir, "run")
			random, secret, err := ResolveSalt("random", true, "", out)
			require.NoError(t, err)
			require.NoError(t, os.MkdirAll(out, 0o755))
			require.NoError(t, keepSaltSecret(secret, random))
			script := filepath.Join(dir, "snoop.sh")
			require.NoError(t, os.WriteFile(script, []byte(saltSnoop), 0o755))
			salt, _, err := ResolveSalt("", false, saltFile, "")
			require.NoError(t, err)
			o := Options{Suite: "default", Families: []string{task.FamilyObtain}, Tiers: []string{"easy"}, Seeds: 1,
				Agent: "exec:" + script + " " + saltFile + " " + secret, Out: out, Traces: "all", Salt: salt, SaltFile: saltFile,
				Config: Config{Workers: 1, External: agent.External{NoSandbox: c.noSandbox}}}
			require.NotEqual(t, random, salt)
			_, err = Score(context.Background(), o, nil)
			require.NoError(t, err)
			got, notes := traceReasons(t, out)
			require.Positive(t, notes, "the agent played")
			for _, a := range []string{"read_salt_file", "read_secret"} {
				assert.Equal(t, slices.Contains(c.want, a), got[a], "attack %s succeeded: %v", a, got[a])
			}
		})
	}
}
