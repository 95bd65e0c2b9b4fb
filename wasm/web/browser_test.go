//go:build browser

package web

// The end-to-end test in a real browser: headless Chromium, driven over the
// DevTools protocol with chromedp, plays, watches, replays and records in
// the demo page and checks each against the native simulation. Run by
// `make test-browser` (part of `make test`), which installs Debian's
// chromium when missing:
//
//	go test -tags browser -run Browser -v ./wasm/web
//
// Screenshots go to build/artifacts/ in the checkout.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/longcraft/longcraft/bench/report"
	"github.com/longcraft/longcraft/bench/run"
	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/bench/trace"
	"github.com/longcraft/longcraft/sim"
	"github.com/longcraft/longcraft/wasm/session"
)

// chromiumFlags are the flags every run uses: headless, sandbox off (CI
// runs as root), software WebGL for Ebiten, and nothing that reaches the
// network.
var chromiumFlags = []chromedp.ExecAllocatorOption{
	chromedp.Flag("headless", true),
	chromedp.Flag("no-sandbox", true),
	chromedp.Flag("disable-gpu", true),
	chromedp.Flag("enable-unsafe-swiftshader", true),
	chromedp.Flag("no-first-run", true),
	chromedp.Flag("disable-background-networking", true),
	chromedp.Flag("disable-component-update", true),
	chromedp.Flag("disable-sync", true),
	chromedp.WindowSize(1280, 900),
}

// status is the page's HUD state, read from window.longcraft.status().
type status struct {
	session.Status
	Paused bool `json:"paused"`
}

const lc = `document.getElementById("game").contentWindow.longcraft`

func readStatus(ctx context.Context, t *testing.T) status {
	// Until the game has loaded, its frame has no window.longcraft.
	js, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(l => l ? l.status() : "{}")(`+lc+`)`))
	require.NoError(t, err)
	var st status
	require.NoError(t, json.Unmarshal([]byte(js), &st), js)
	return st
}

// waitFor polls the page's status until cond holds.
func waitFor(ctx context.Context, t *testing.T, what string, cond func(status) bool) status {
	deadline := time.Now().Add(90 * time.Second)
	for {
		st := readStatus(ctx, t)
		if cond(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: last status %+v", what, st)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestBrowser(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	require.NoError(t, err, "the browser test needs Debian's chromium (make test installs it)")
	root, err := filepath.Abs("../..") // go test runs in the package's directory
	require.NoError(t, err)
	app := t.TempDir()
	require.NoError(t, Build(context.Background(), root, app))
	artifacts := filepath.Join(root, "build", "artifacts")
	require.NoError(t, os.MkdirAll(artifacts, 0o755))

	// A trace recorded natively: the planner solving a hard task (334
	// steps under classic v2: long enough for replay snapshots every 256
	// steps; index 0 now takes 77).
	traces := t.TempDir()
	spec := task.Spec{Family: "obtain", Tier: "hard", Split: task.Eval, Index: 6}
	native, err := session.New(spec, session.Watch, "planner")
	require.NoError(t, err)
	for native.Tick() {
	}
	require.Equal(t, "goal", native.Ended())
	rec, err := native.Recording(0)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(traces, "native.lctrace"), rec, 0o644))

	srv := httptest.NewServer(Handler(app, traces))
	defer srv.Close()

	opts := append(append([]chromedp.ExecAllocatorOption{}, chromiumFlags...),
		chromedp.ExecPath(chromium), chromedp.UserDataDir(t.TempDir()))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	// The page's console and uncaught exceptions go to the test log: a Go
	// panic in the app shows up there.
	var pageErrors atomic.Int64 // console errors and uncaught exceptions
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithLogf(t.Logf), chromedp.WithListener(func(ev any) {
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				pageErrors.Add(1)
			}
			var line []string
			for _, a := range ev.Args {
				line = append(line, strings.Trim(string(a.Value), `"`)+a.Description)
			}
			t.Logf("console.%s: %s", ev.Type, strings.Join(line, " "))
		case *runtime.EventExceptionThrown:
			pageErrors.Add(1)
			t.Logf("exception: %s %+v", ev.ExceptionDetails.Text, ev.ExceptionDetails.Exception)
		}
	}))
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")))
	version, err := chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.userAgent`))
	require.NoError(t, err)
	t.Logf("browser: %s", version)

	t.Run("play", func(t *testing.T) {
		// The page starts a Play episode of the default task once loaded.
		st := waitFor(ctx, t, "the game to load", func(s status) bool { return s.Mode == "play" })
		require.Equal(t, 0, st.Step)
		before := screenshot(ctx, t)
		// Real key presses, sent to the focused game frame.
		keys := []string{kb.ArrowLeft, kb.ArrowLeft, "w", " ", " ", "d", "d", kb.ArrowDown, " ", "t", "1", "s", "a", " "}
		want := []sim.Action{sim.ActMoveLeft, sim.ActMoveLeft, sim.ActMoveUp, sim.ActDo, sim.ActDo, sim.ActMoveRight,
			sim.ActMoveRight, sim.ActMoveDown, sim.ActDo, sim.ActPlaceTable, sim.ActMakeWoodPickaxe, sim.ActMoveDown,
			sim.ActMoveLeft, sim.ActDo}
		require.NoError(t, chromedp.Do(ctx, chromedp.Focus(chromedp.ID("game"))))
		for _, k := range keys {
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(k)))
		}
		st = waitFor(ctx, t, "the key presses to be played", func(s status) bool { return s.Step == len(keys) })
		after := screenshot(ctx, t)
		require.NoError(t, os.WriteFile(filepath.Join(artifacts, "play-start.png"), before, 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(artifacts, "play-after-keys.png"), after, 0o644))
		require.False(t, bytes.Equal(before, after), "the canvas did not change after the key presses")

		// The same actions natively reach the same state.
		first := task.Spec{Family: "obtain", Tier: "easy", Split: task.Eval, Index: 0}
		s, err := session.New(first, session.Play, "")
		require.NoError(t, err)
		for _, a := range want {
			s.Act(a)
		}
		require.Equal(t, fmt.Sprintf("%016x", s.Hash()), st.Hash, "browser and native states differ")

		// Record: the download's bytes replay natively to the same state.
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`Array.from(`+lc+`.recording())`))
		require.NoError(t, err)
		data := make([]byte, len(got))
		for i, b := range got {
			data[i] = byte(b)
		}
		tf, err := trace.OpenReader("browser recording", bytes.NewReader(data), int64(len(data)))
		require.NoError(t, err)
		ep, err := tf.Episode(0)
		require.NoError(t, err)
		r, err := trace.Run(ep)
		require.NoError(t, err)
		require.Equal(t, len(keys), r.Steps)
		require.Equal(t, s.Hash(), ep.Final)
		require.Equal(t, "human", ep.Header.Agent)
		require.NoError(t, os.WriteFile(filepath.Join(artifacts, "human.lctrace"), data, 0o644))
	})

	t.Run("play extended", func(t *testing.T) {
		// A person wins a hard (extended-rules) task by keys alone: the
		// planner's actions, each pressed as its row's key, make a torch.
		spec := task.Spec{Family: "obtain", Tier: "hard", Split: task.Eval, Index: 1}
		planned, err := session.New(spec, session.Watch, "planner")
		require.NoError(t, err)
		for planned.Tick() {
		}
		require.Equal(t, "goal", planned.Ended())
		rec, err := planned.Recording(0)
		require.NoError(t, err)
		acts := episodeOf(t, rec).Actions
		r := planned.World.Rules()
		torch, ok := r.ActionByName("make_torch")
		require.True(t, ok)
		require.Contains(t, acts, byte(torch), "the plan makes a torch")

		waitFor(ctx, t, "the game to load", func(s status) bool { return s.Mode != "" })
		require.NoError(t, chromedp.Do(ctx,
			chromedp.SetValue(chromedp.ID("tier"), "hard"),
			chromedp.SetValue(chromedp.ID("index"), "1"),
			chromedp.Click(chromedp.ID("play"))))
		waitFor(ctx, t, "the hard task", func(s status) bool {
			return s.Mode == "play" && s.TaskID == planned.Status().TaskID && s.Step == 0
		})
		require.NoError(t, chromedp.Do(ctx, chromedp.Focus(chromedp.ID("game"))))
		for _, a := range acts {
			require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(r.Actions[a].Key)), r.Actions[a].Name)
		}
		st := waitFor(ctx, t, "the key presses to be played", func(s status) bool { return s.Ended != "" })
		require.Equal(t, "goal", st.Ended, "%+v", st)
		require.Equal(t, len(acts), st.Step)
		require.Equal(t, fmt.Sprintf("%016x", planned.Hash()), st.Hash, "browser and native states differ")
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`Array.from(`+lc+`.recording())`))
		require.NoError(t, err)
		data := make([]byte, len(got))
		for i, b := range got {
			data[i] = byte(b)
		}
		require.Equal(t, acts, episodeOf(t, data).Actions, "the recording holds the planned actions")

		// The page's key list shows every key of every ruleset it offers.
		legend, err := session.Legend()
		require.NoError(t, err)
		shown, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("keys").innerText`))
		require.NoError(t, err)
		for _, b := range legend {
			require.Contains(t, shown, b.Label+" "+b.Action)
		}
		savePage(ctx, t, filepath.Join(artifacts, "play-extended-page.png"))
	})

	t.Run("watch", func(t *testing.T) {
		require.NoError(t, chromedp.Do(ctx,
			chromedp.SetValue(chromedp.ID("tier"), "hard"),
			chromedp.SetValue(chromedp.ID("index"), "6"),
			chromedp.Click(chromedp.ID("watch"))))
		eval(ctx, t, lc+`.speed("64")`)
		eval(ctx, t, lc+`.pause("false")`)
		st := waitFor(ctx, t, "the planner to finish", func(s status) bool { return s.Mode == "watch" && s.Ended != "" })
		require.Equal(t, "goal", st.Ended)
		require.Equal(t, native.Steps(), st.Step)
		require.Equal(t, fmt.Sprintf("%016x", native.Hash()), st.Hash)
		savePage(ctx, t, filepath.Join(artifacts, "watch-page.png"))
	})

	t.Run("replay", func(t *testing.T) {
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/?trace=traces/native.lctrace&id="+native.Status().TaskID)))
		st := waitFor(ctx, t, "the trace to load", func(s status) bool { return s.Mode == "replay" })
		require.Equal(t, native.Steps(), st.Budget)
		require.Equal(t, "planner", st.Agent)
		eval(ctx, t, lc+`.speed("16")`)
		eval(ctx, t, lc+`.pause("false")`)
		st = waitFor(ctx, t, "the replay to end", func(s status) bool { return s.Step == s.Budget })
		require.Equal(t, fmt.Sprintf("%016x", native.Hash()), st.Hash, "the replay's final state differs from the native run's")
		// Step back and forth through the timeline, across a snapshot.
		require.Empty(t, eval(ctx, t, lc+`.seek("300")`))
		require.Equal(t, 300, readStatus(ctx, t).Step)
		require.Empty(t, eval(ctx, t, lc+`.seek("5")`))
		st = readStatus(ctx, t)
		require.Equal(t, 5, st.Step, "%+v", st)
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("fwd"))))
		waitFor(ctx, t, "a step forward", func(s status) bool { return s.Step == 6 })
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("back")), chromedp.Click(chromedp.ID("back"))))
		waitFor(ctx, t, "two steps back", func(s status) bool { return s.Step == 4 })
		require.Empty(t, eval(ctx, t, lc+`.seek("1000000")`))
		require.Equal(t, fmt.Sprintf("%016x", native.Hash()), readStatus(ctx, t).Hash)
		savePage(ctx, t, filepath.Join(artifacts, "replay-page.png"))
	})

	t.Run("speed", func(t *testing.T) {
		// A figure for the notes, not a pass/fail criterion.
		js := eval(ctx, t, lc+`.benchmark("2000000")`)
		var sps struct {
			Step          float64 `json:"step"`
			StepWithReset float64 `json:"step_with_reset"`
		}
		require.NoError(t, json.Unmarshal([]byte(js), &sps), js)
		t.Logf("in-browser core: %.0f steps/s (Step alone), %.0f steps/s (random agent, Reset on episode end)",
			sps.Step, sps.StepWithReset)
		require.Positive(t, sps.Step)
	})
	t.Run("reports", func(t *testing.T) {
		// Three agents on the default suite, their reports and the
		// comparison page, each opened as a file would be: no console
		// error, and every chart has data.
		dir := t.TempDir()
		var runs []string
		for _, agent := range []string{"random", "explorer", "planner"} {
			o := run.Options{Suite: "default", Agent: agent, Out: filepath.Join(dir, agent), Traces: "none", Config: run.Config{Certify: true}}
			_, err := run.Score(context.Background(), o, nil)
			require.NoError(t, err, agent)
			runs = append(runs, o.Out)
		}
		c, err := report.Compare(runs, report.CompareOptions{})
		require.NoError(t, err)
		require.NoError(t, report.WriteComparison(filepath.Join(dir, "compare.html"), c))
		pages := httptest.NewServer(http.FileServer(http.Dir(dir)))
		defer pages.Close()
		for _, page := range []struct{ path, shot string }{
			{"explorer/report.html", "report-page.png"}, {"compare.html", "compare-page.png"},
		} {
			before := pageErrors.Load()
			require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(pages.URL+"/"+page.path)))
			charts, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("svg[role=img]").length`))
			require.NoError(t, err)
			require.Positive(t, charts, "%s has charts", page.path)
			empty, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("svg[role=img]")].filter(s =>
				![...s.querySelectorAll("rect")].some(r => +r.getAttribute("height") > 0 && r.getAttribute("width") !== "10") &&
				![...s.querySelectorAll("polyline")].some(p => p.getAttribute("points").trim().split(" ").length > 1)).map(s => s.getAttribute("aria-label"))`))
			require.NoError(t, err)
			require.Empty(t, empty, "%s: charts without data", page.path)
			require.Equal(t, before, pageErrors.Load(), "%s: console errors", page.path)
			savePage(ctx, t, filepath.Join(artifacts, page.shot))
			t.Logf("%s: %d charts, each with data", page.path, charts)
		}
		for _, p := range c.Pairs {
			if p.Scope == "all tiers" {
				t.Logf("%s", p.Sentence)
			}
		}
	})
}

// episodeOf decodes the one episode of a .lctrace file.
func episodeOf(t *testing.T, data []byte) *trace.Episode {
	t.Helper()
	tf, err := trace.OpenReader("recording", bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	ep, err := tf.Episode(0)
	require.NoError(t, err)
	return ep
}

// eval runs a page function that returns an error message ("" on success).
func eval(ctx context.Context, t *testing.T, expr string) string {
	msg, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	require.NoError(t, err, expr)
	return msg
}

// screenshot captures the game frame once Ebiten has drawn the latest state.
func screenshot(ctx context.Context, t *testing.T) []byte {
	require.NoError(t, chromedp.Do(ctx, chromedp.Sleep(500*time.Millisecond)))
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID("game")))
	require.NoError(t, err)
	return png
}

// savePage saves a screenshot of the whole page, controls and HUD included.
func savePage(ctx context.Context, t *testing.T, path string) {
	require.NoError(t, chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)))
	img, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, img, 0o644))
}
