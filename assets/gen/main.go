// Command gen draws Longcraft's sprite sheet and writes it as a PNG.
//
// The pictures themselves (palette, sprites, font) live in package
// assets/internal/art, so that the assets tests can draw the sheet too and
// check that the committed sheet.png matches its source. Run it through
// go generate from the repository root:
//
//	go generate ./assets
//
// which runs, in the assets directory,
//
//	go run ./gen -consts sprites_gen.go
//	go tool stringer -type=Sprite -output=sprite_string.go
//	go run ./gen -out sheet.png
//
// in that order: the constants first, from the table of pictures, so that
// the sheet is drawn by a build that has them.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"os"

	"github.com/longcraft/longcraft/assets/internal/art"
)

func main() {
	out := flag.String("out", "", "write the sheet as a PNG here (sheet.png)")
	consts := flag.String("consts", "", "also write the Sprite constants' Go source here (assets/sprites_gen.go)")
	flag.Parse()
	if *consts != "" {
		if err := os.WriteFile(*consts, art.Constants(), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
	if *out == "" {
		return
	}
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, art.Sheet()); err != nil {
		return fmt.Errorf("encode sheet: %w", err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write sheet: %w", err)
	}
	return nil
}
