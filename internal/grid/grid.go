// Package grid owns the searches over a width×height map of cells indexed
// y*width+x that the benchmark layer's agents and measures run: the four
// neighbours of a cell in their one order (left, right, up, down: sim.Dir's
// order, which breaks every search's ties), directions from offsets, Abs
// and Manhattan distance, and breadth-first search, flood fill and a
// bucket-queue Dijkstra with reusable state, which allocate nothing per
// search once warm (the planner and the explorer search every step).
//
// It imports sim only, for sim.Dir; it must not import the benchmark layer
// (the searches know cells, passability and costs, not worlds or agents).
package grid

import "github.com/longcraft/longcraft/sim"

// Grid is the shape of a map: its width and height and, per cell, its
// column and row (tables, so that no search divides). Its tables are never
// written once built, so copies of a Grid may share them.
type Grid struct {
	W, H int
	col  []uint16
	row  []uint16
}

// Init shapes g as a w×h map (each at most 65536). It keeps the tables
// when the shape is the same and builds new ones otherwise.
func (g *Grid) Init(w, h int) {
	if g.W == w && g.H == h && len(g.col) == w*h {
		return
	}
	g.W, g.H = w, h
	g.col, g.row = make([]uint16, w*h), make([]uint16, w*h)
	for i := range g.col {
		g.col[i], g.row[i] = uint16(i%w), uint16(i/w)
	}
}

// New returns a w×h grid.
func New(w, h int) *Grid {
	g := &Grid{}
	g.Init(w, h)
	return g
}

// Len is the number of cells.
func (g *Grid) Len() int { return len(g.col) }

// Col is the column of cell i.
func (g *Grid) Col(i int) int { return int(g.col[i]) }

// XY returns the column and row of cell i.
func (g *Grid) XY(i int) (x, y int) { return int(g.col[i]), int(g.row[i]) }

// Index is the cell at column x, row y.
func (g *Grid) Index(x, y int) int { return y*g.W + x }

// Inside reports whether (x, y) is on the map.
func (g *Grid) Inside(x, y int) bool { return x >= 0 && y >= 0 && x < g.W && y < g.H }

// Neighbour returns the cell next to i in direction d, or -1 off the map;
// i itself for DirNone. A negative i (no cell) is taken as its column and
// row by division, as callers that pass one expect.
func (g *Grid) Neighbour(i int, d sim.Dir) int {
	W, H := g.W, g.H
	if i >= 0 { // the same as below, without dividing
		switch d {
		case sim.DirLeft:
			if g.col[i] == 0 {
				return -1
			}
			return i - 1
		case sim.DirRight:
			if int(g.col[i]) == W-1 {
				return -1
			}
			return i + 1
		case sim.DirUp:
			if i < W {
				return -1
			}
			return i - W
		case sim.DirDown:
			if i >= W*H-W {
				return -1
			}
			return i + W
		}
	}
	x, y := i%W, i/W
	dx, dy := d.Offset()
	x, y = x+dx, y+dy
	if x < 0 || y < 0 || x >= W || y >= H {
		return -1
	}
	return y*W + x
}

// DirTo returns the direction from cell a to its neighbour b, DirNone if b
// is not one.
func (g *Grid) DirTo(a, b int) sim.Dir {
	switch b - a {
	case -1:
		return sim.DirLeft
	case 1:
		return sim.DirRight
	case -g.W:
		return sim.DirUp
	case g.W:
		return sim.DirDown
	}
	return sim.DirNone
}
