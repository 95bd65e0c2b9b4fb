package trace

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/vmihailenco/msgpack/v5"
)

// A .lctrace file: the magic, then one record per episode (a uvarint
// length and the episode's msgpack map), then an index (a msgpack array of
// [offset, length, steps] per episode) and a footer (the index's offset,
// little-endian uint64, and the index magic). A file cut short by a crash
// has no footer; readers then scan the records that are whole.
const (
	fileMagic   = "LCTRACE\x01"
	footerMagic = "LCTIDX01"
	footerLen   = 16
	maxRecord   = 64 << 20 // bytes in one episode record
	maxEpisodes = 10_000_000
)

// Writer streams episodes to a .lctrace file as they finish.
type Writer struct {
	f     io.Closer // nil for a writer made by NewWriter
	w     *bufio.Writer
	path  string
	off   int64
	index []IndexEntry
	enc   *msgpack.Encoder
	buf   bytes.Buffer
	z     deflater
}

// IndexEntry locates one episode in a file.
type IndexEntry struct {
	Offset int64 // of the record's length prefix
	Length int   // of the msgpack map
	Steps  int
}

// Create creates a trace file.
func Create(path string) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create trace %s: %w", path, err)
	}
	w, err := NewWriter(path, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	w.f = f
	return w, nil
}

// NewWriter writes a trace file to dst, named name in errors: for traces
// kept in memory, like a browser's recording before it is downloaded.
// Close writes the index and footer but does not close dst.
func NewWriter(name string, dst io.Writer) (*Writer, error) {
	w := &Writer{w: bufio.NewWriter(dst), path: name}
	w.enc = msgpack.NewEncoder(&w.buf)
	if _, err := w.w.WriteString(fileMagic); err != nil {
		return nil, fmt.Errorf("write trace %s: %w", name, err)
	}
	if err := w.w.Flush(); err != nil {
		return nil, fmt.Errorf("write trace %s: %w", name, err)
	}
	w.off = int64(len(fileMagic))
	return w, nil
}

// OpenAppend opens a trace file to add episodes, creating it if missing:
// a run resumed after a crash keeps the whole episodes already written
// (and drops a torn last one and any index, rewritten by Close).
func OpenAppend(path string) (*Writer, error) {
	if st, err := os.Stat(path); errors.Is(err, os.ErrNotExist) || err == nil && st.Size() <= int64(len(fileMagic)) {
		return Create(path) // nothing, or nothing but the magic, was written
	}
	tf, err := Open(path)
	if err != nil {
		return nil, err
	}
	index := tf.Index
	end := int64(len(fileMagic))
	if n := len(index); n > 0 {
		last := index[n-1]
		var pre [binary.MaxVarintLen64]byte
		_, k := binary.Uvarint(binary.AppendUvarint(pre[:0], uint64(last.Length)))
		end = last.Offset + int64(k) + int64(last.Length)
	}
	for i := range index {
		if index[i].Steps < 0 { // scanned: count the steps
			ep, err := tf.Episode(i)
			if err != nil {
				tf.Close()
				return nil, err
			}
			index[i].Steps = len(ep.Actions)
		}
	}
	tf.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("append to trace %s: %w", path, err)
	}
	if err := f.Truncate(end); err != nil {
		f.Close()
		return nil, fmt.Errorf("append to trace %s: %w", path, err)
	}
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("append to trace %s: %w", path, err)
	}
	w := &Writer{f: f, w: bufio.NewWriter(f), path: path, off: end, index: index}
	w.enc = msgpack.NewEncoder(&w.buf)
	return w, nil
}

// Append writes one episode and flushes it to the file, so that a crash
// loses at most the episode being played.
func (w *Writer) Append(ep *Episode) error {
	w.buf.Reset()
	w.enc.ResetWriter(&w.buf) // ResetWriter keeps the encoder's flags; Reset would clear them
	if err := encodeEpisode(w.enc, ep, &w.z); err != nil {
		return fmt.Errorf("write trace %s: %w", w.path, err)
	}
	var pre [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(pre[:], uint64(w.buf.Len()))
	if _, err := w.w.Write(pre[:n]); err != nil {
		return fmt.Errorf("write trace %s: %w", w.path, err)
	}
	if _, err := w.w.Write(w.buf.Bytes()); err != nil {
		return fmt.Errorf("write trace %s: %w", w.path, err)
	}
	if err := w.w.Flush(); err != nil {
		return fmt.Errorf("write trace %s: %w", w.path, err)
	}
	w.index = append(w.index, IndexEntry{Offset: w.off, Length: w.buf.Len(), Steps: len(ep.Actions)})
	w.off += int64(n + w.buf.Len())
	return nil
}

// Close writes the index and footer and closes the file.
func (w *Writer) Close() error {
	var idx bytes.Buffer
	e := msgpack.NewEncoder(&idx)
	err := e.EncodeArrayLen(len(w.index))
	for _, x := range w.index {
		for _, v := range []int64{x.Offset, int64(x.Length), int64(x.Steps)} {
			if err == nil {
				err = e.EncodeInt(v)
			}
		}
	}
	var footer [footerLen]byte
	binary.LittleEndian.PutUint64(footer[:], uint64(w.off))
	copy(footer[8:], footerMagic)
	for _, b := range [][]byte{idx.Bytes(), footer[:]} {
		if err == nil {
			_, err = w.w.Write(b)
		}
	}
	if err == nil {
		err = w.w.Flush()
	}
	if w.f != nil {
		if cerr := w.f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("close trace %s: %w", w.path, err)
	}
	return nil
}

// File is an open trace file: its index, and episodes read on demand.
type File struct {
	Path    string
	Size    int64
	Index   []IndexEntry
	Indexed bool // false when the footer was missing and records were scanned
	r       io.ReaderAt
	c       io.Closer
}

// Open opens a trace file and reads its index (or, without a footer,
// scans its whole records). Errors name the file and the offset.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open trace %s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open trace %s: %w", path, err)
	}
	tf, err := OpenReader(path, f, st.Size())
	if err != nil {
		f.Close()
		return nil, err
	}
	tf.c = f
	return tf, nil
}

// OpenReader reads a trace from r of the given size; name is used in
// errors.
func OpenReader(name string, r io.ReaderAt, size int64) (*File, error) {
	tf := &File{Path: name, Size: size, r: r}
	magic := make([]byte, len(fileMagic))
	if _, err := r.ReadAt(magic, 0); err != nil || string(magic) != fileMagic {
		if err == nil && string(magic[:7]) == fileMagic[:7] && magic[7] > fileMagic[7] {
			return nil, fmt.Errorf("trace %s: %w: file format %d, this reader knows %d", name, ErrVersion, magic[7], fileMagic[7])
		}
		return nil, fmt.Errorf("trace %s at offset 0: not a Longcraft trace (bad magic)", name)
	}
	if err := tf.readIndex(); err == nil {
		tf.Indexed = true
		return tf, nil
	}
	if err := tf.scan(); err != nil {
		return nil, err
	}
	return tf, nil
}

// readIndex reads the footer and the index it points at.
func (tf *File) readIndex() error {
	if tf.Size < int64(len(fileMagic)+footerLen) {
		return errors.New("no footer")
	}
	var footer [footerLen]byte
	if _, err := tf.r.ReadAt(footer[:], tf.Size-footerLen); err != nil {
		return err
	}
	if string(footer[8:]) != footerMagic {
		return errors.New("no footer")
	}
	off := int64(binary.LittleEndian.Uint64(footer[:]))
	if off < int64(len(fileMagic)) || off > tf.Size-footerLen {
		return fmt.Errorf("index offset %d outside the file", off)
	}
	buf := make([]byte, tf.Size-footerLen-off)
	if _, err := tf.r.ReadAt(buf, off); err != nil {
		return err
	}
	d := decoder{r: bytes.NewReader(buf)}
	d.d = msgpack.NewDecoder(d.r)
	n, err := d.d.DecodeArrayLen()
	if n, err = d.check("index", n, maxEpisodes, err); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		var e IndexEntry
		o, err1 := d.int("index.offset")
		l, err2 := d.smallInt("index.length", 0, maxRecord)
		s, err3 := d.smallInt("index.steps", 0, maxSteps)
		if err := errors.Join(err1, err2, err3); err != nil {
			return err
		}
		if o < int64(len(fileMagic)) || o+int64(l) > off {
			return fmt.Errorf("index entry %d: record at %d+%d outside the records", i, o, l)
		}
		e.Offset, e.Length, e.Steps = o, l, s
		tf.Index = append(tf.Index, e)
	}
	return nil
}

// scan walks the records of a file without a footer, keeping the whole
// ones: what a crash left.
func (tf *File) scan() error {
	off := int64(len(fileMagic))
	for off < tf.Size {
		var pre [binary.MaxVarintLen64]byte
		n, _ := tf.r.ReadAt(pre[:min(int64(len(pre)), tf.Size-off)], off)
		length, k := binary.Uvarint(pre[:n])
		if k <= 0 || length > maxRecord || off+int64(k)+int64(length) > tf.Size {
			break // a torn last record: what was whole stays readable
		}
		tf.Index = append(tf.Index, IndexEntry{Offset: off, Length: int(length), Steps: -1})
		off += int64(k) + int64(length)
		if len(tf.Index) > maxEpisodes {
			return fmt.Errorf("trace %s at offset %d: more than %d episodes", tf.Path, off, maxEpisodes)
		}
	}
	if len(tf.Index) == 0 && tf.Size > int64(len(fileMagic)) {
		return fmt.Errorf("trace %s at offset %d: no whole episode record", tf.Path, len(fileMagic))
	}
	return nil
}

// Episode reads and decodes episode i.
func (tf *File) Episode(i int) (*Episode, error) {
	if i < 0 || i >= len(tf.Index) {
		return nil, fmt.Errorf("trace %s: episode %d of %d", tf.Path, i, len(tf.Index))
	}
	e := tf.Index[i]
	var pre [binary.MaxVarintLen64]byte
	n, _ := tf.r.ReadAt(pre[:min(int64(len(pre)), tf.Size-e.Offset)], e.Offset)
	length, k := binary.Uvarint(pre[:n])
	if k <= 0 || int(length) != e.Length && e.Steps >= 0 || length > maxRecord {
		return nil, fmt.Errorf("trace %s at offset %d: episode %d: bad record length", tf.Path, e.Offset, i)
	}
	buf := make([]byte, length)
	if _, err := tf.r.ReadAt(buf, e.Offset+int64(k)); err != nil {
		return nil, fmt.Errorf("trace %s at offset %d: episode %d: %w", tf.Path, e.Offset, i, err)
	}
	ep, err := UnmarshalEpisode(buf)
	if err != nil {
		return nil, fmt.Errorf("trace %s at offset %d: episode %d: %w", tf.Path, e.Offset, i, err)
	}
	return ep, nil
}

// Close closes the file.
func (tf *File) Close() error {
	if tf.c != nil {
		return tf.c.Close()
	}
	return nil
}

// FindEpisode returns the position of the first episode played on the
// task with ID id (as reports name them).
func (tf *File) FindEpisode(id string) (int, error) {
	for i := range tf.Index {
		ep, err := tf.Episode(i)
		if err != nil {
			return 0, err
		}
		if ep.Header.Task != nil && ep.Header.Task.ID() == id {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%s has no episode of task %s", tf.Path, id)
}
