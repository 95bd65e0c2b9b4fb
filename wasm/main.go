//go:build js

// Command wasm is Longcraft in the browser: play a task with the keyboard,
// watch a built-in agent, replay a trace, and record a human's play as a
// trace. Ebiten only shows the frames render/ produced (WritePixels), so
// the page shows exactly what a vision model sees; the game logic is in
// wasm/session and sim.
//
// The page (wasm/web/index.html) drives the game through window.longcraft,
// the functions exported in bindings.go.
package main

import (
	"fmt"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/longcraft/longcraft/render"
	"github.com/longcraft/longcraft/wasm/session"
)

// frameSize is the canvas's side in pixels: 9 tiles of 64 px.
const frameSize = 576

// game is the Ebiten game. JavaScript callbacks and Ebiten's Update and
// Draw run on different goroutines, so everything goes through mu.
type game struct {
	mu     sync.Mutex
	s      *session.Session
	view   *render.AgentView
	frame  []byte
	dirty  bool
	paused bool
	speed  int // steps per tick in Watch and Replay
	err    string
}

// Update advances Watch and Replay sessions; Play waits for keys.
func (g *game) Update() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.s == nil || g.paused || g.s.Mode == session.Play {
		return nil
	}
	for i := 0; i < g.speed; i++ {
		if !g.s.Tick() {
			g.paused = true
			break
		}
		g.dirty = true
	}
	return nil
}

// Draw copies the rendered frame to the screen; it holds no logic.
func (g *game) Draw(screen *ebiten.Image) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.s == nil {
		return
	}
	if g.dirty {
		g.view.Render(g.s.World, g.frame)
		g.dirty = false
	}
	screen.WritePixels(g.frame)
}

// Layout keeps the screen at the frame's size; the page scales the canvas.
func (g *game) Layout(_, _ int) (int, int) { return frameSize, frameSize }

func main() {
	atlas, err := render.LoadAtlas()
	if err != nil {
		panic(fmt.Sprintf("load sprites: %v", err))
	}
	view, err := render.NewAgentView(atlas, frameSize, render.RGBA)
	if err != nil {
		panic(fmt.Sprintf("agent view: %v", err))
	}
	g := &game{view: view, frame: make([]byte, view.FrameBytes()), speed: 1}
	g.export()
	ebiten.SetWindowTitle("Longcraft")
	ebiten.SetTPS(30)
	if err := ebiten.RunGame(g); err != nil {
		panic(err)
	}
}
