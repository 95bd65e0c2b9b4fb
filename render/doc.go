// Package render turns sim states into pixels: Crafter-style agent views
// (the 9×7 local view above a 9×2 inventory strip) at any square size, and
// full maps at any scale, in RGB or RGBA.
//
// A frame is a pure function of the state and is written into a buffer
// the caller owns, with no allocation: sprites are scaled once when a
// renderer is built, for every daylight level and for sleep, so a frame is
// a series of row copies. Everything is integer arithmetic, so a state
// renders to the same bytes natively and under WebAssembly.
package render
