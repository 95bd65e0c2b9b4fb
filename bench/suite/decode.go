package suite

import (
	"fmt"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The strict decoder: a YAML node into one of the typed suite values of
// yaml.go, by their yaml tags. yaml.v3's own decoding of a node knows no
// unknown fields (KnownFields is the Decoder's, over bytes), and its
// errors name a line and a Go type; a suite's errors name the line and
// the field as the file writes it (seeds.count), and say what the field
// wants. So the walk over mappings and sequences is this file's, and
// yaml.v3 decodes the scalars.

// fault is what is wrong at one node: its line, the field whose value it
// is (dotted from the suite's top: seeds.count) and the message. The
// suite's file is added where the error leaves the package (Suite.errAt).
type fault struct {
	line  int
	field string
	msg   string
}

func (f *fault) Error() string {
	if f.field == "" {
		return fmt.Sprintf("%d: %s", f.line, f.msg)
	}
	return fmt.Sprintf("%d: field %s: %s", f.line, f.field, f.msg)
}

// faultAt is a fault at node n, of the field its caller names (within).
func faultAt(n *yaml.Node, format string, args ...any) error {
	return &fault{line: n.Line, msg: fmt.Sprintf(format, args...)}
}

// within names err's field as inside key: a fault in a value of seeds
// is one of seeds.count.
func within(key string, err error) error {
	if err == nil {
		return nil
	}
	if f, ok := err.(*fault); ok {
		g := *f
		if g.field == "" {
			g.field = key
		} else {
			g.field = key + "." + g.field
		}
		return &g
	}
	return err
}

// shaped is a mapping type that says what its value must look like when
// the YAML holds something else ("want {from: N, count: M}").
type shaped interface{ shape() string }

// decode fills v from n: by v's own UnmarshalYAML when it has one, else a
// struct from a mapping (decodeFields), a slice from a sequence, a map of
// names from a mapping, a pointer from what it points to. tag is the
// field's: its `want` is what a wrong kind of node is refused with (a
// type's shape method says it instead), and a `nonempty` list is refused
// empty with it; the entries of a `section` list (episodes, scenarios)
// name their fields on their own. Aliases are no kind of value here: a
// suite is written out, so they are refused as the wrong kind.
func decode(n *yaml.Node, v reflect.Value, tag reflect.StructTag) error {
	if u, ok := v.Addr().Interface().(yaml.Unmarshaler); ok {
		return u.UnmarshalYAML(n)
	}
	want := tag.Get("want")
	if s, ok := v.Addr().Interface().(shaped); ok {
		want = s.shape()
	}
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		return decode(n, v.Elem(), tag)
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return faultAt(n, "%s", want)
		}
		v.SetZero()
		return decodeFields(n, v)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode || (len(n.Content) == 0 && tag.Get("nonempty") != "") {
			return faultAt(n, "%s", want)
		}
		v.Set(reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content)))
		for i, c := range n.Content {
			if err := decode(c, v.Index(i), ""); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return faultAt(n, "%s", want)
		}
		if k := dupKey(n); k != nil {
			return within(k.Value, faultAt(k, "given twice"))
		}
		v.Set(reflect.MakeMapWithSize(v.Type(), len(n.Content)/2))
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			e := reflect.New(v.Type().Elem()).Elem()
			if err := decode(n.Content[i+1], e, ""); err != nil {
				return within(k.Value, err)
			}
			v.SetMapIndex(reflect.ValueOf(k.Value), e)
		}
		return nil
	}
	panic(fmt.Sprintf("suite: no decoding of %s", v.Type())) // a type of yaml.go this file does not know
}

// decodeFields fills struct v from mapping n, key by key in the file's
// order: a key given twice and a key no field's tag names are refused,
// the latter with the fields there are. A field named Line gets the
// mapping's line.
func decodeFields(n *yaml.Node, v reflect.Value) error {
	if k := dupKey(n); k != nil {
		return within(k.Value, faultAt(k, "given twice"))
	}
	t := v.Type()
	var names []string
	for i := range t.NumField() {
		if name := yamlName(t.Field(i)); name != "" {
			names = append(names, name)
		}
	}
	if f, ok := t.FieldByName("Line"); ok {
		v.FieldByIndex(f.Index).SetInt(int64(n.Line))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		f, ok := fieldNamed(t, k.Value)
		if !ok {
			return within(k.Value, faultAt(k, "unknown field (%s)", strings.Join(names, ", ")))
		}
		if err := decode(val, v.FieldByIndex(f.Index), f.Tag); err != nil {
			if fa, ok := err.(*fault); ok && fa.field != "" && f.Tag.Get("section") != "" {
				return err // an entry of a section names its fields on its own: budget, not episodes.budget
			}
			return within(k.Value, err)
		}
	}
	return nil
}

// yamlName is the key a struct field is written as, "" for none.
func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" {
		return ""
	}
	return name
}

func fieldNamed(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if f := t.Field(i); key != "" && yamlName(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// dupKey returns the first key given twice in mapping n, or nil: YAML
// keeps the last, which would hide the first.
func dupKey(n *yaml.Node) *yaml.Node {
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if seen[k.Value] {
			return k
		}
		seen[k.Value] = true
	}
	return nil
}

// scalar is one value as the file writes it and its line. Given is
// whether the field was written; Null whether as null (~ or nothing),
// which decodes as the field's default (the value it has when left out),
// as yaml.v3 leaves a value it decodes null into.
type scalar[T any] struct {
	V     T
	Line  int
	Given bool
	Null  bool
}

func (s *scalar[T]) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return faultAt(n, "want a single value")
	}
	var p *T
	if err := n.Decode(&p); err != nil {
		return faultAt(n, "%v", err)
	}
	*s = scalar[T]{Line: n.Line, Given: true, Null: p == nil}
	if p != nil {
		s.V = *p
	}
	return nil
}

// or returns the value, or def where the field is left out or null.
func (s scalar[T]) or(def T) T {
	if !s.Given || s.Null {
		return def
	}
	return s.V
}

// text is a node's text as written, whatever its kind: the goal
// language reads an item's name so.
type text struct {
	V    string
	Line int
}

func (t *text) UnmarshalYAML(n *yaml.Node) error {
	t.V, t.Line = n.Value, n.Line
	return nil
}

// point is [x, y].
type point struct {
	X, Y scalar[int]
	Line int
}

func (p *point) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.SequenceNode || len(n.Content) != 2 {
		return faultAt(n, "want [x, y]")
	}
	p.Line = n.Line
	if err := p.X.UnmarshalYAML(n.Content[0]); err != nil {
		return err
	}
	return p.Y.UnmarshalYAML(n.Content[1])
}

func (p point) xy() [2]int { return [2]int{p.X.V, p.Y.V} }

// decodeSuite decodes a suite's document into its typed file.
func decodeSuite(doc *yaml.Node) (*suiteYAML, error) {
	var y suiteYAML
	if err := decode(doc, reflect.ValueOf(&y).Elem(), ""); err != nil {
		return nil, err
	}
	return &y, nil
}
