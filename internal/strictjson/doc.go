// Package strictjson decodes JSON that a person may have edited (a model,
// a study's state) as encoding/json does, but refuses a key given twice in
// an object and data after the value, which encoding/json passes silently.
package strictjson
