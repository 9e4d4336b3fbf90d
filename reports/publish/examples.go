package publish

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"playtest/internal/bounded"
)

// ExamplesFile holds a run's example games for the board viewer of
// report.html.
const ExamplesFile = "examples.json"

// ExamplesSchema is the schema tag of examples.json.
const ExamplesSchema = "playtest/examples/v1"

// Examples are a few telling games of a run, with every position drawn.
type Examples struct {
	Schema string        `json:"schema"`
	Games  []ExampleGame `json:"games"`
	// Openings draws the position after each opening the report's
	// openings table lists, by its notation, when every game starts from
	// one position (no chance or hidden setup before the first decision):
	// report.html shows them beside the table.
	Openings map[string]string `json:"openings,omitempty"`
}

// ExampleGame is one example: why it was chosen, who sat where, how it
// ended, and its entries (moves and chance outcomes) in the game's
// notation with who made each, and Frames[k] the position after k entries
// as SVG (Frames[0] the start).
type ExampleGame struct {
	Index  int      `json:"index"`
	Label  string   `json:"label"`
	Seats  string   `json:"seats"`
	Result string   `json:"result"`
	Moves  []string `json:"moves"`
	Movers []string `json:"movers"`
	Frames []string `json:"frames"`
	// Trace is seat 0's chance of winning at each frame (before each entry,
	// then the result), Turning the entries (from 0) that moved it by
	// howplays.TurningStep or more: the viewer draws them under the board.
	// Absent when the run traced no game.
	Trace   []float64 `json:"trace,omitempty"`
	Turning []int     `json:"turning,omitempty"`
}

// MaxExamplesSize bounds examples.json as read back.
const MaxExamplesSize = 64 << 20

// readExamples reads dir's examples.json; none is no error.
func readExamples(dir string) (*Examples, error) {
	b, err := bounded.ReadFile(filepath.Join(dir, ExamplesFile), MaxExamplesSize)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ex Examples
	if err := json.Unmarshal(b, &ex); err != nil || ex.Schema != ExamplesSchema {
		return nil, fmt.Errorf("%s: not the example games of a run (schema %s)", ExamplesFile, ExamplesSchema)
	}
	for _, g := range ex.Games {
		if len(g.Frames) != len(g.Moves)+1 || len(g.Movers) != len(g.Moves) {
			return nil, fmt.Errorf("%s: game %d has %d entries but %d frames", ExamplesFile, g.Index, len(g.Moves), len(g.Frames))
		}
		if g.Trace != nil && len(g.Trace) != len(g.Frames) {
			return nil, fmt.Errorf("%s: game %d has a trace of %d for %d frames", ExamplesFile, g.Index, len(g.Trace), len(g.Frames))
		}
	}
	return &ex, nil
}
