package suite

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The embedded suites and their locks (suites/NAME.yaml, NAME.lock.json).
//
//go:embed suites
var embedded embed.FS

// Embedded returns the names of the suites built into the binary.
func Embedded() []string {
	entries, _ := embedded.ReadDir("suites")
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".yaml"); ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// IsEmbedded reports whether name is an embedded suite.
func IsEmbedded(name string) bool {
	_, err := embedded.ReadFile("suites/" + name + ".yaml")
	return err == nil
}

// source is a suite's YAML and where it came from.
type source struct {
	data []byte
	file string // the name errors give it
	// Where the files its scenarios name (map_file) are read: beside
	// path, or inside the binary for an embedded suite.
	path, embeddedName string
}

// read returns the YAML of a suite: an embedded one by name, or a file.
func read(nameOrPath string) (source, error) {
	if data, err := embedded.ReadFile("suites/" + nameOrPath + ".yaml"); err == nil {
		return source{data: data, file: "suite " + nameOrPath, path: nameOrPath, embeddedName: nameOrPath}, nil
	}
	data, err := os.ReadFile(nameOrPath)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return source{}, fmt.Errorf("suite %q: not an embedded suite (%v) nor a file", nameOrPath, Embedded())
		}
		return source{}, fmt.Errorf("suite %s: %w", nameOrPath, err)
	}
	return source{data: data, file: nameOrPath, path: nameOrPath}, nil
}

// parse reads the YAML's first document.
func (src source) parse() (*yaml.Node, error) {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src.data))
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty suite", src.file)
		}
		return nil, fmt.Errorf("%s: %w", src.file, err)
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	return doc, nil
}

// readBeside reads a file named relative to the suite's own file (inside
// the binary for an embedded suite).
func (src source) readBeside(name string) ([]byte, error) {
	if src.embeddedName != "" {
		return embedded.ReadFile(path.Join("suites", path.Clean("/" + name)[1:]))
	}
	return readLimited(filepath.Join(filepath.Dir(src.path), name))
}

// maxMapFile bounds a map file: a 256×256 map is 66 KB.
const maxMapFile = 1 << 20

// readLimited reads a regular file of at most maxMapFile bytes, so that a
// suite naming /dev/zero or a huge file fails instead of hanging.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxMapFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxMapFile {
		return nil, fmt.Errorf("%s: over %d bytes", path, maxMapFile)
	}
	return data, nil
}
