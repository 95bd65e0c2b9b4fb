// Package web holds the browser demo's pages, embedded so that `longcraft
// demo` serves them with the WebAssembly build and Go's wasm_exec.js.
package web

import "embed"

// Pages holds index.html (controls and HUD) and game.html (the frame that
// runs longcraft.wasm).
//
//go:embed index.html game.html
var Pages embed.FS
