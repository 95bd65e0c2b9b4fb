//go:build js

package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"syscall/js"
	"time"

	"github.com/longcraft/longcraft/bench/task"
	"github.com/longcraft/longcraft/sim"
	"github.com/longcraft/longcraft/wasm/session"
)

// export publishes window.longcraft, the page's handle on the game. Every
// function returns an error message ("" on success) or its result.
func (g *game) export() {
	fns := map[string]func(args []js.Value) any{
		// start(family, tier, index, mode, agent): a new Play or Watch episode.
		"start": func(a []js.Value) any {
			idx, err := strconv.ParseUint(arg(a, 2), 10, 64)
			if err != nil {
				return fmt.Sprintf("seed index %q: not a number", arg(a, 2))
			}
			mode := session.Play
			if arg(a, 3) == "watch" {
				mode = session.Watch
			}
			spec := task.Spec{Family: arg(a, 0), Tier: arg(a, 1), Split: task.Eval, Index: idx}
			s, err := session.New(spec, mode, arg(a, 4))
			if err != nil {
				return err.Error()
			}
			g.set(s, mode == session.Play)
			return ""
		},
		// loadTrace(bytes, name, episode): a Replay of a .lctrace file.
		"loadTrace": func(a []js.Value) any {
			if len(a) < 1 {
				return "loadTrace(bytes, name, episode)"
			}
			data := bytesArg(a[0])
			ep, _ := strconv.Atoi(arg(a, 2))
			s, err := session.OpenReplay(arg(a, 1), data, ep)
			if err != nil {
				return err.Error()
			}
			g.set(s, true)
			return ""
		},
		// episodes(bytes): how many episodes a trace file holds (-1: not a trace).
		"episodes": func(a []js.Value) any {
			if len(a) < 1 {
				return -1
			}
			data := bytesArg(a[0])
			n, err := session.Episodes("trace", data)
			if err != nil {
				return -1
			}
			return n
		},
		// findEpisode(bytes, id): the position of task id's episode (-1: none).
		"findEpisode": func(a []js.Value) any {
			if len(a) < 2 {
				return -1
			}
			i, err := session.FindEpisode("trace", bytesArg(a[0]), arg(a, 1))
			if err != nil {
				return -1
			}
			return i
		},
		// key(KeyboardEvent.key): one step of Play; true if a step was taken.
		"key": func(a []js.Value) any {
			g.mu.Lock()
			defer g.mu.Unlock()
			if g.s == nil || g.s.Mode != session.Play {
				return false
			}
			act, ok := session.KeyAction(g.s.World.Rules(), arg(a, 0))
			if ok && g.s.Act(act) {
				g.dirty = true
				return true
			}
			return false
		},
		"pause": func(a []js.Value) any { g.mu.Lock(); g.paused = arg(a, 0) == "true"; g.mu.Unlock(); return "" },
		"speed": func(a []js.Value) any {
			n, err := strconv.Atoi(arg(a, 0))
			if err != nil || n < 1 || n > 1000 {
				return "speed: 1 to 1000 steps per tick"
			}
			g.mu.Lock()
			g.speed = n
			g.mu.Unlock()
			return ""
		},
		// step(): one step of Watch or Replay while paused.
		"step": func([]js.Value) any {
			g.mu.Lock()
			defer g.mu.Unlock()
			if g.s != nil && g.s.Tick() {
				g.dirty = true
			}
			return ""
		},
		// seek(n): a replay to just after step n.
		"seek": func(a []js.Value) any {
			n, _ := strconv.Atoi(arg(a, 0))
			g.mu.Lock()
			defer g.mu.Unlock()
			if g.s == nil {
				return "nothing to seek"
			}
			if err := g.s.Seek(n); err != nil {
				return err.Error()
			}
			g.dirty = true
			return ""
		},
		// status(): the HUD's figures, as JSON.
		"status": func([]js.Value) any {
			g.mu.Lock()
			defer g.mu.Unlock()
			if g.s == nil {
				return "{}"
			}
			st := g.s.Status()
			b, _ := json.Marshal(struct {
				session.Status
				Paused bool `json:"paused"`
			}{st, g.paused})
			return string(b)
		},
		// recording(): what was played, as a .lctrace file (Uint8Array).
		"recording": func([]js.Value) any {
			g.mu.Lock()
			defer g.mu.Unlock()
			if g.s == nil {
				return "nothing played yet"
			}
			data, err := g.s.Recording(time.Now().UnixMilli())
			if err != nil {
				return err.Error()
			}
			out := js.Global().Get("Uint8Array").New(len(data))
			js.CopyBytesToJS(out, data)
			return out
		},
		// choices(): the families, tiers and Watch agents the page offers,
		// as JSON, from the registries (task.Families, task.Tiers,
		// session.Agents): the page hard-codes none of them.
		"choices": func([]js.Value) any {
			var tiers []string
			for _, t := range task.Tiers() {
				tiers = append(tiers, t.Name)
			}
			b, _ := json.Marshal(map[string][]string{"families": task.Families(), "tiers": tiers, "agents": session.Agents()})
			return string(b)
		},
		// legend(): the Play keys, as JSON.
		"legend": func([]js.Value) any {
			b, _ := json.Marshal(session.Bindings)
			return string(b)
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

// set shows session s, paused when it waits for keys or a seek.
func (g *game) set(s *session.Session, paused bool) {
	g.mu.Lock()
	g.s, g.paused, g.dirty = s, paused, true
	g.mu.Unlock()
}

// bytesArg copies a byte array from the page. The parent page's
// Uint8Array is not an instance of this frame's, which CopyBytesToGo
// requires, so it is first copied into one of this frame's.
func bytesArg(v js.Value) []byte {
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
