// Package knobs compares and lists the rule knobs of variants, so every
// output can say what a rule tweak changed: "stacktics/size2 + board
// {rows: 5, cols: 3}, start_columns [0, 2]". It works on a game's rules
// struct or on its JSON (a saved summary's rules), keeps the knobs in the
// game's documented order and writes values in YAML's flow style, as a
// variant file or --set would.
package knobs
