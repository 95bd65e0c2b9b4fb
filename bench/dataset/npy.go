// Package dataset writes image datasets for vision and world models:
// frames and actions as NumPy .npy arrays and per-step records as JSON
// lines, streamed to disk with bounded memory; and an episode's film for
// people (longcraft render): PNG frames, an animated GIF, the final map,
// of a policy's play or a trace's episode.
//
// It must not import the runner, agents' transports or hosts.
package dataset

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// NPY writes a uint8 NumPy array (format version 1.0) whose first
// dimension grows as rows are appended: the header is written with room
// for any row count and rewritten with the true shape by Close, so a
// partly written file (after Ctrl-C) is still a valid array of the rows
// that were completed.
type NPY struct {
	f     *os.File
	w     *bufio.Writer
	path  string
	shape []int // of one row
	row   int   // bytes per row
	rows  int
}

// npyHeaderLen is the fixed header length, magic included: a multiple of
// 64 as the format asks, with room for a 20-digit row count.
const npyHeaderLen = 128

// CreateNPY creates path for an array of rows of the given shape.
func CreateNPY(path string, rowShape ...int) (*NPY, error) {
	n := &NPY{path: path, shape: rowShape, row: 1}
	for _, d := range rowShape {
		if d <= 0 {
			return nil, fmt.Errorf("create %s: bad row shape %v", path, rowShape)
		}
		n.row *= d
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	n.f, n.w = f, bufio.NewWriterSize(f, 1<<20)
	if _, err := n.w.Write(n.header()); err != nil {
		f.Close()
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return n, nil
}

// header returns the .npy header for the rows written so far.
func (n *NPY) header() []byte {
	dims := []string{strconv.Itoa(n.rows)}
	for _, d := range n.shape {
		dims = append(dims, strconv.Itoa(d))
	}
	shape := strings.Join(dims, ", ")
	if len(dims) == 1 {
		shape += ","
	}
	dict := fmt.Sprintf("{'descr': '|u1', 'fortran_order': False, 'shape': (%s), }", shape)
	h := make([]byte, npyHeaderLen)
	copy(h, "\x93NUMPY\x01\x00")
	h[8], h[9] = byte(npyHeaderLen-10), byte((npyHeaderLen-10)>>8)
	copy(h[10:], dict)
	for i := 10 + len(dict); i < npyHeaderLen-1; i++ {
		h[i] = ' '
	}
	h[npyHeaderLen-1] = '\n'
	return h
}

// Append writes one row, which must hold exactly the row's bytes.
func (n *NPY) Append(row []byte) error {
	if len(row) != n.row {
		return fmt.Errorf("write %s: row of %d bytes, want %d", n.path, len(row), n.row)
	}
	if _, err := n.w.Write(row); err != nil {
		return fmt.Errorf("write %s: %w", n.path, err)
	}
	n.rows++
	return nil
}

// Rows returns the rows appended so far.
func (n *NPY) Rows() int { return n.rows }

// Close flushes the rows, rewrites the header with their count and closes
// the file.
func (n *NPY) Close() error {
	if err := n.w.Flush(); err != nil {
		n.f.Close()
		return fmt.Errorf("write %s: %w", n.path, err)
	}
	if _, err := n.f.WriteAt(n.header(), 0); err != nil {
		n.f.Close()
		return fmt.Errorf("write header of %s: %w", n.path, err)
	}
	if err := n.f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", n.path, err)
	}
	return nil
}

// ReadNPYHeader parses a uint8 .npy header from r and returns the array's
// shape and the header's length. It accepts only what NPY writes (version
// 1.0, '|u1', C order) and bounds everything it reads.
func ReadNPYHeader(r io.Reader) (shape []int, headerLen int, err error) {
	var pre [10]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return nil, 0, fmt.Errorf("npy header: %w", err)
	}
	if string(pre[:6]) != "\x93NUMPY" {
		return nil, 0, fmt.Errorf("npy header: bad magic %q", pre[:6])
	}
	if pre[6] != 1 || pre[7] != 0 {
		return nil, 0, fmt.Errorf("npy header: version %d.%d, want 1.0", pre[6], pre[7])
	}
	n := int(pre[8]) | int(pre[9])<<8
	if (10+n)%64 != 0 || n > 4096 {
		return nil, 0, fmt.Errorf("npy header: length %d not aligned or too long", n)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, 0, fmt.Errorf("npy header: %w", err)
	}
	dict := strings.TrimRight(string(buf), " \n")
	if !strings.Contains(dict, "'descr': '|u1'") || !strings.Contains(dict, "'fortran_order': False") {
		return nil, 0, fmt.Errorf("npy header: want uint8 in C order, got %s", dict)
	}
	i := strings.Index(dict, "'shape': (")
	j := strings.Index(dict[max(i, 0):], ")")
	if i < 0 || j < 0 {
		return nil, 0, fmt.Errorf("npy header: no shape in %s", dict)
	}
	for _, f := range strings.Split(dict[i+len("'shape': ("):i+j], ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		d, err := strconv.Atoi(f)
		if err != nil || d < 0 {
			return nil, 0, fmt.Errorf("npy header: bad dimension %q", f)
		}
		shape = append(shape, d)
	}
	return shape, 10 + n, nil
}
