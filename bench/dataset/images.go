package dataset

import (
	"bufio"
	"fmt"
	"image"
	"image/gif"
	"image/png"
	"io"
	"os"
)

func writePNG(path string, img image.Image) error {
	return writeFile(path, func(w io.Writer) error { return png.Encode(w, img) })
}

func writeGIF(path string, g *gif.GIF) error {
	return writeFile(path, func(w io.Writer) error { return gif.EncodeAll(w, g) })
}

// writeFile creates path and writes it with encode, buffered.
func writeFile(path string, encode func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	if err := encode(bw); err != nil {
		f.Close()
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}
