//go:build js

// Command wasm is Longcraft in the browser: play a task with the keyboard,
// watch a built-in agent, replay a trace, and record a human's play as a
// trace. Ebiten only shows the frames render/ produced (WritePixels), so
// the page shows exactly what a vision model sees; the game logic is in
// wasm/session and sim.
//
// The page (wasm/web/index.html) drives the game through window.longcraft,
// the methods of session.Host exported in bindings.go.
package main

import (
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/longcraft/longcraft/render"
	"github.com/longcraft/longcraft/sim"
	"github.com/longcraft/longcraft/wasm/session"
)

// frameSize is the canvas's side in pixels: 9 tiles of 64 px.
const frameSize = 576

// game is the Ebiten game: it shows what the Host has on show and holds
// no logic of its own.
type game struct {
	host  *session.Host
	view  *render.AgentView
	frame []byte
}

// Update advances Watch and Replay sessions; Play waits for keys.
func (g *game) Update() error {
	g.host.Tick()
	return nil
}

// Draw renders the world on show when it changed and copies the frame to
// the screen.
func (g *game) Draw(screen *ebiten.Image) {
	if g.host.Draw(func(w *sim.World) { g.view.Render(w, g.frame) }) {
		screen.WritePixels(g.frame)
	}
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
	g := &game{host: session.NewHost(), view: view, frame: make([]byte, view.FrameBytes())}
	export(g.host)
	ebiten.SetWindowTitle("Longcraft")
	ebiten.SetTPS(30)
	if err := ebiten.RunGame(g); err != nil {
		panic(err)
	}
}
