//go:build js

package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"syscall/js"
	"time"

	"github.com/longcraft/longcraft/sim"
	"github.com/longcraft/longcraft/wasm/session"
)

// export publishes window.longcraft, the page's handle on the game: one
// function per method of session.Host, which holds all their logic (and
// its tests). Here are only the conversions from the page's values. Every
// function returns an error's message ("" on success) or its result.
func export(h *session.Host) {
	fns := map[string]func(a []js.Value) any{
		// start(family, tier, index, mode, agent, feedback): Play or Watch.
		"start": func(a []js.Value) any {
			return errText(h.Start(arg(a, 0), arg(a, 1), arg(a, 2), arg(a, 3), arg(a, 4), arg(a, 5)))
		},
		// loadTrace(bytes, name, episode): a Replay of a .lctrace file.
		"loadTrace": func(a []js.Value) any { return errText(h.LoadTrace(bytesArg(a, 0), arg(a, 1), arg(a, 2))) },
		// episodes(bytes): how many episodes a trace file holds (-1: not a trace).
		"episodes": func(a []js.Value) any { return orMinusOne(session.Episodes("trace", bytesArg(a, 0))) },
		// findEpisode(bytes, id): the position of task id's episode (-1: none).
		"findEpisode": func(a []js.Value) any {
			return orMinusOne(session.FindEpisode("trace", bytesArg(a, 0), arg(a, 1)))
		},
		// key(KeyboardEvent.key): one step of Play; true if a step was taken.
		"key":   func(a []js.Value) any { return h.Key(arg(a, 0)) },
		"pause": func(a []js.Value) any { h.Pause(arg(a, 0)); return "" },
		"speed": func(a []js.Value) any { return errText(h.SetSpeed(arg(a, 0))) },
		// step(): one step of Watch or Replay while paused.
		"step": func([]js.Value) any { h.Step(); return "" },
		// seek(n): a replay to just after step n.
		"seek": func(a []js.Value) any { return errText(h.Seek(arg(a, 0))) },
		// status(): the HUD's figures, as JSON.
		"status": func([]js.Value) any { return h.Status() },
		// recording(): what was played, as a .lctrace file (Uint8Array).
		"recording": func([]js.Value) any {
			data, err := h.Recording(time.Now().UnixMilli())
			if err != nil {
				return err.Error()
			}
			out := js.Global().Get("Uint8Array").New(len(data))
			js.CopyBytesToJS(out, data)
			return out
		},
		// choices(): the families, tiers, Watch agents and feedback levels
		// the page offers, as JSON.
		"choices": func([]js.Value) any { return jsonText(h.Choices()) },
		// legend(): the Play keys of every ruleset the page offers, as JSON.
		"legend": func([]js.Value) any {
			bs, err := session.Legend()
			if err != nil {
				return err.Error()
			}
			return jsonText(bs)
		},
		// benchmark(n): steps per second of the core in this browser, as JSON:
		// Step alone, and Step with a Reset whenever an episode ends.
		"benchmark": func(a []js.Value) any {
			n, err := strconv.Atoi(arg(a, 0))
			if err != nil || n < 1 {
				return "benchmark(n): n steps, at least 1"
			}
			return fmt.Sprintf(`{"step":%.0f,"step_with_reset":%.0f}`, stepsPerSecond(n, false), stepsPerSecond(n, true))
		},
	}
	obj := js.Global().Get("Object").New()
	for name, fn := range fns {
		obj.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) (result any) {
			// A bad call from the page must not end the Go program (every
			// later call would fail): it returns the panic as an error.
			defer func() {
				if p := recover(); p != nil {
					result = fmt.Sprintf("%s: %v", name, p)
				}
			}()
			return fn(args)
		}))
	}
	js.Global().Set("longcraft", obj)
}

// errText is the page's form of an error: its message, or "".
func errText(err error) string {
	if err != nil {
		return err.Error()
	}
	return ""
}

// orMinusOne is the page's form of a count or position: -1 on error.
func orMinusOne(n int, err error) int {
	if err != nil {
		return -1
	}
	return n
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// bytesArg copies byte array argument i from the page (nil when missing).
// The parent page's Uint8Array is not an instance of this frame's, which
// CopyBytesToGo requires, so it is first copied into one of this frame's.
func bytesArg(a []js.Value, i int) []byte {
	if i >= len(a) || a[i].IsUndefined() || a[i].IsNull() {
		return nil
	}
	v := a[i]
	u8 := js.Global().Get("Uint8Array")
	if !v.InstanceOf(u8) {
		v = u8.New(v)
	}
	data := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(data, v)
	return data
}

// arg returns argument i as a string ("" when missing).
func arg(a []js.Value, i int) string {
	if i >= len(a) || a[i].IsUndefined() || a[i].IsNull() {
		return ""
	}
	if a[i].Type() == js.TypeString {
		return a[i].String()
	}
	return a[i].Call("toString").String()
}

// stepsPerSecond measures the core's speed in this browser on the workloads
// of sim's benchmarks: uniformly random actions (RNG seed 7); when an
// episode ends, either a Reset with a new seed (BenchmarkStepWithReset) or
// a copy of a world reset beforehand, so the figure is Step's alone
// (BenchmarkStep).
func stepsPerSecond(n int, reset bool) float64 {
	w, err := sim.New(sim.Config{})
	if err != nil {
		return 0
	}
	w.Reset(1)
	start := w.Clone()
	r := sim.RNG{State: 7}
	acts := make([]sim.Action, 1<<16)
	for i := range acts {
		acts[i] = sim.Action(r.Intn(len(w.Rules().Actions)))
	}
	seed := uint64(1)
	t0 := time.Now()
	for i := 0; i < n; i++ {
		if o := w.Step(acts[i&(1<<16-1)]); o.Done {
			seed++
			if reset {
				w.Reset(seed)
			} else {
				w.CopyFrom(start)
			}
		}
	}
	return float64(n) / time.Since(t0).Seconds()
}
