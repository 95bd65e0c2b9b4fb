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
	"github.com/vmihailenco/msgpack/v5/msgpcode"
)

// A .lctrace file: the magic, then one record per episode (a uvarint
// length and the episode's msgpack map), then a zero byte (a record of
// length 0: the end of the records), an index (a msgpack array of
// [offset, length, steps] arrays, one per episode) and a footer (the
// index's offset, little-endian uint64, and the index magic). A file cut
// short by a crash has no footer; readers then scan the records, keeping
// each whole one that decodes, up to the end marker or the first that
// does not. Files written before the end marker (and with the index as one
// flat array of numbers) still read.
const (
	fileMagic   = "LCTRACE\x01"
	footerMagic = "LCTIDX01"
	footerLen   = 16
	maxRecord   = 64 << 20 // bytes in one episode record
	maxEpisodes = 10_000_000
)

// ErrNoWholeRecord is a trace file with the magic but no whole record: a
// writer killed while it wrote the first episode.
var ErrNoWholeRecord = errors.New("no whole episode record")

// Writer streams episodes to a .lctrace file as they finish.
type Writer struct {
	// AfterWrite, if not nil, is called after each part reaches the file:
	// "record" after each Append, "index" (the end byte and the index) and
	// "footer" during Close. The kill tests crash the process there.
	AfterWrite func(part string)

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
// a run resumed after a crash keeps the whole episodes already written and
// drops a torn last one and any index (Close rewrites it). keep, if not
// nil, says which episodes stay (by position and content): a resumed run
// drops the traces of episodes it will play again. When any is dropped the
// file is rewritten, through a temporary file and a rename.
func OpenAppend(path string, keep func(i int, ep *Episode) bool) (*Writer, error) {
	if st, err := os.Stat(path); errors.Is(err, os.ErrNotExist) || err == nil && st.Size() <= int64(len(fileMagic)) {
		return Create(path) // nothing, or nothing but the magic, was written
	}
	tf, err := Open(path)
	if errors.Is(err, ErrNoWholeRecord) {
		// A crash while the first record was written: nothing whole to
		// keep (and no result can rest on it), so the file starts over.
		return Create(path)
	}
	if err != nil {
		return nil, err
	}
	kept := make([]bool, len(tf.Index))
	all := true
	for i := range tf.Index {
		kept[i] = true
		if keep != nil {
			ep, err := tf.Episode(i)
			if err != nil {
				tf.Close()
				return nil, err
			}
			kept[i] = keep(i, ep)
			all = all && kept[i]
		}
	}
	if !all {
		err := rewriteKept(tf, kept)
		tf.Close()
		if err != nil {
			return nil, err
		}
		return OpenAppend(path, nil)
	}
	index := tf.Index
	end := int64(len(fileMagic))
	if n := len(index); n > 0 {
		end = index[n-1].Offset + recordSize(index[n-1])
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

// recordSize is a record's size in the file: its length prefix and map.
func recordSize(e IndexEntry) int64 {
	var pre [binary.MaxVarintLen64]byte
	return int64(len(binary.AppendUvarint(pre[:0], uint64(e.Length)))) + int64(e.Length)
}

// rewriteKept rewrites tf's file with the kept records only, copied byte
// for byte, atomically: the old file stays whole until the rename.
func rewriteKept(tf *File, kept []bool) error {
	tmp := tf.Path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("rewrite trace %s: %w", tf.Path, err)
	}
	bw := bufio.NewWriter(f)
	_, err = bw.WriteString(fileMagic)
	for i, e := range tf.Index {
		if !kept[i] || err != nil {
			continue
		}
		_, err = io.Copy(bw, io.NewSectionReader(tf.r, e.Offset, recordSize(e)))
	}
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, tf.Path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("rewrite trace %s: %w", tf.Path, err)
	}
	return nil
}

// Append writes one episode and flushes it to the file, so that a crash
// loses at most the episode being played.
//
// It writes only what Open can read: strings over the reader's limit are
// cut and notes past an episode's note budget left out, with markers (see
// limits.go), and a record that would still exceed maxRecord is refused.
func (w *Writer) Append(ep *Episode) error {
	ep = fitEpisode(ep)
	w.buf.Reset()
	w.enc.ResetWriter(&w.buf) // ResetWriter keeps the encoder's flags; Reset would clear them
	if err := encodeEpisode(w.enc, ep, &w.z); err != nil {
		return fmt.Errorf("write trace %s: %w", w.path, err)
	}
	if w.buf.Len() > maxRecord {
		return fmt.Errorf("write trace %s: episode of %d steps encodes to %d bytes, over the %d-byte record limit", w.path, len(ep.Actions), w.buf.Len(), maxRecord)
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
	w.after("record")
	return nil
}

func (w *Writer) after(part string) {
	if w.AfterWrite != nil {
		w.AfterWrite(part)
	}
}

// Close writes the end marker, the index and the footer, and closes the
// file.
func (w *Writer) Close() error {
	var idx bytes.Buffer
	e := msgpack.NewEncoder(&idx)
	err := e.EncodeArrayLen(len(w.index))
	for _, x := range w.index {
		if err == nil {
			err = e.EncodeArrayLen(3)
		}
		for _, v := range []int64{x.Offset, int64(x.Length), int64(x.Steps)} {
			if err == nil {
				err = e.EncodeInt(v)
			}
		}
	}
	var footer [footerLen]byte
	binary.LittleEndian.PutUint64(footer[:], uint64(w.off+1)) // after the end marker
	copy(footer[8:], footerMagic)
	for _, part := range []struct {
		name  string
		bytes [][]byte
	}{{"index", [][]byte{{0}, idx.Bytes()}}, {"footer", [][]byte{footer[:]}}} {
		for _, b := range part.bytes {
			if err == nil {
				_, err = w.w.Write(b)
			}
		}
		if err == nil {
			err = w.w.Flush()
		}
		if err == nil {
			w.after(part.name)
		}
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
	nested := false
	if n > 0 {
		c, err := d.d.PeekCode()
		if err != nil {
			return err
		}
		nested = msgpcode.IsFixedArray(c) || c == msgpcode.Array16 || c == msgpcode.Array32
	}
	for i := 0; i < n; i++ {
		var e IndexEntry
		if nested {
			if err := d.arrayLen("index entry", 3); err != nil {
				return err
			}
		}
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

// scan walks the records of a file without a footer, keeping each whole
// one that decodes as an episode: what a crash left. It stops at the end
// marker (the writer got as far as the index) or at the first record that
// is torn or does not decode, so a cut index is never read as records.
func (tf *File) scan() error {
	off := int64(len(fileMagic))
	for off < tf.Size {
		var pre [binary.MaxVarintLen64]byte
		n, _ := tf.r.ReadAt(pre[:min(int64(len(pre)), tf.Size-off)], off)
		length, k := binary.Uvarint(pre[:n])
		if k <= 0 || length == 0 || length > maxRecord || off+int64(k)+int64(length) > tf.Size {
			break // the end marker, or a torn last record: what was whole stays readable
		}
		buf := make([]byte, length)
		if _, err := tf.r.ReadAt(buf, off+int64(k)); err != nil {
			break
		}
		ep, err := UnmarshalEpisode(buf)
		if err != nil {
			break // not a record: bytes of a cut index, or garbage
		}
		tf.Index = append(tf.Index, IndexEntry{Offset: off, Length: int(length), Steps: len(ep.Actions)})
		off += int64(k) + int64(length)
		if len(tf.Index) > maxEpisodes {
			return fmt.Errorf("trace %s at offset %d: more than %d episodes", tf.Path, off, maxEpisodes)
		}
	}
	var first [1]byte
	if len(tf.Index) == 0 && tf.Size > int64(len(fileMagic)) {
		if _, err := tf.r.ReadAt(first[:], int64(len(fileMagic))); err != nil || first[0] != 0 {
			return fmt.Errorf("trace %s at offset %d: %w", tf.Path, len(fileMagic), ErrNoWholeRecord)
		}
		// No episode: the end marker, and perhaps a cut index.
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
		if ep.Header.Task != nil && ep.Header.EpisodeID() == id {
			return i, nil
		}
	}
	return 0, fmt.Errorf("%s has no episode of task %s", tf.Path, id)
}
