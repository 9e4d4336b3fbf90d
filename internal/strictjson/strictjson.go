package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Unmarshal decodes data into v as json.Unmarshal does, refusing a
// duplicate key (naming it and its path) and anything after the value.
func Unmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON value")
	}
	return Check(data)
}

// Check refuses JSON that names a key twice in one object. It walks every
// token (far slower than decoding): a caller with a large input may
// decode and bound it first, then check what passed.
func Check(data []byte) error { return checkKeys(data) }

// checkKeys walks data's tokens and refuses an object that names a key
// twice.
func checkKeys(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next token of an object is a key
		path   string
		last   string
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			k, _ := tok.(string)
			if top.keys[k] {
				return fmt.Errorf("the key %q is given twice in %s", k, where(top.path))
			}
			top.keys[k] = true
			top.last, top.key = k, false
			continue
		}
		path := ""
		if top != nil {
			if top.object {
				path = top.path + "." + top.last
				top.key = true
			} else {
				path = top.path + "[]"
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, keys: map[string]bool{}, key: true, path: path})
		case json.Delim('['):
			stack = append(stack, &frame{path: path})
		case json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
}

func where(path string) string {
	if path == "" {
		return "the top object"
	}
	return path[1:]
}
