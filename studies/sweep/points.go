package sweep

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"playtest/variants"
)

// Point is one variant of a sweep: one value of each axis.
type Point struct {
	// Values holds the index of the point's value on each axis.
	Values []int
	// Labels holds the label of that value on each axis.
	Labels []string
}

// Label names the point: "axis=value" for each axis.
func (s *Sweep) Label(pt Point) string {
	return pointLabel(func(i int) string { return s.Axes[i].Name }, pt.Labels)
}

// PointLabel is the label of a point whose labels on each of axes are
// labels: "axis=label, …", as Label makes it.
func PointLabel(axes, labels []string) string {
	return pointLabel(func(i int) string { return axes[i] }, labels)
}

// pointLabel is "axis=label, …" for the labels of a point on each axis,
// axis(i) naming the i-th axis.
func pointLabel(axis func(int) string, labels []string) string {
	parts := make([]string, len(labels))
	for i, l := range labels {
		parts[i] = axis(i) + "=" + l
	}
	return strings.Join(parts, ", ")
}

// Count returns the number of variants the sweep crosses, the product of
// its axes' lengths (saturating at the largest int).
func (s *Sweep) Count() int {
	n := 1
	for _, a := range s.Axes {
		k := len(a.Labels)
		if k > 0 && n > math.MaxInt/k {
			return math.MaxInt
		}
		n *= k
	}
	return n
}

// Points returns every point of the sweep: the axes crossed, the first
// varying slowest.
func (s *Sweep) Points() []Point {
	points := []Point{{}}
	for _, a := range s.Axes {
		var next []Point
		for _, pt := range points {
			for i, l := range a.Labels {
				next = append(next, Point{
					Values: append(append([]int(nil), pt.Values...), i),
					Labels: append(append([]string(nil), pt.Labels...), l),
				})
			}
		}
		points = next
	}
	return points
}

// Skipped tells what a space left out: the points its exclude: list
// names, and those whose variant was refused (with invalid: skip).
type Skipped struct {
	Excluded int       `json:"excluded,omitempty"`
	Refused  []Refusal `json:"refused,omitempty"`
}

// Refusal is a point left out because its variant was refused.
type Refusal struct {
	Label  string `json:"label"`
	Reason string `json:"reason"`
}

// Count is how many points were left out.
func (s Skipped) Count() int { return s.Excluded + len(s.Refused) }

// String says what was left out in a sentence ("" when nothing was).
func (s Skipped) String() string {
	var parts []string
	if s.Excluded > 0 {
		parts = append(parts, fmt.Sprintf("%d excluded by the space", s.Excluded))
	}
	if n := len(s.Refused); n > 0 {
		parts = append(parts, fmt.Sprintf("%d refused by the rules (the first, %s: %s)", n, s.Refused[0].Label, s.Refused[0].Reason))
	}
	if parts == nil {
		return ""
	}
	return "Left out: " + strings.Join(parts, "; ") + "."
}

// Variants builds and validates the variant of every point, the sweep's
// settings first, then extra (the command line's overrides), leaving out
// the points the sweep excludes and, with invalid: skip, those whose
// variant is refused. Every variant gets the same games, seed and pairs
// (the sweep's, else the first variant's), so that all play the same
// deals. Otherwise the first bad variant is an error naming the file and
// line of the setting at fault.
func (s *Sweep) Variants(extra []variants.Override) ([]*variants.Config, []Point, Skipped, error) {
	var top []variants.Override
	var skipped Skipped
	if s.Games > 0 {
		top = append(top, variants.Override{Path: "games", Value: strconv.Itoa(s.Games), Origin: s.Source + " games"})
	}
	if s.Seed != nil {
		top = append(top, variants.Override{Path: "seed", Value: strconv.FormatUint(*s.Seed, 10), Origin: s.Source + " seed"})
	}
	var cfgs []*variants.Config
	var points []Point
	var firstErr error
points:
	for _, pt := range s.Points() {
		for _, e := range s.Exclude {
			if e.Excludes(pt) {
				skipped.Excluded++
				continue points
			}
		}
		cfg, err := s.variant(pt, top, extra)
		if err != nil {
			if !s.SkipInvalid {
				return nil, nil, skipped, err
			}
			firstErr = cmp.Or(firstErr, err)
			skipped.Refused = append(skipped.Refused, Refusal{Label: s.Label(pt), Reason: reason(err)})
			continue
		}
		if len(cfgs) > 0 {
			cfg.Games, cfg.Seed, cfg.Pairs = cfgs[0].Games, cfgs[0].Seed, cfgs[0].Pairs
		}
		cfgs, points = append(cfgs, cfg), append(points, pt)
	}
	if len(cfgs) == 0 {
		if firstErr != nil {
			return nil, nil, skipped, fmt.Errorf("every point of sweep %s is excluded or refused; the first refused: %w", s.Name, firstErr)
		}
		return nil, nil, skipped, &variants.Error{File: s.Source, Key: "exclude", Message: fmt.Sprintf("excludes every one of the sweep's %d points", skipped.Excluded)}
	}
	return cfgs, points, skipped, nil
}

// reason is a refusal's message without the sweep and variant the label
// already names.
func reason(err error) string {
	var ve *variants.Error
	if errors.As(err, &ve) {
		return ve.Message
	}
	return err.Error()
}

// variant builds the variant of one point.
func (s *Sweep) variant(pt Point, top, extra []variants.Override) (*variants.Config, error) {
	settings := append([]Setting(nil), s.Set...)
	for ax, v := range pt.Values {
		settings = append(settings, s.Axes[ax].Values[v]...)
	}
	base := s.Base
	overrides := append([]variants.Override(nil), top...)
	for _, set := range settings {
		if set.Key == BaseKey {
			if err := yaml.Unmarshal([]byte(set.Value), &base); err != nil {
				return nil, &variants.Error{File: s.Source, Override: set.Origin, Message: err.Error()}
			}
			continue
		}
		overrides = append(overrides, variants.Override{Path: set.Key, Value: set.Value, Origin: set.Origin})
	}
	overrides = append(overrides, extra...)
	cfg, err := variants.Load(s.resolve(base), overrides)
	if err != nil {
		return nil, fmt.Errorf("sweep %s, variant %s: %w", s.Name, s.Label(pt), err)
	}
	cfg.Name = s.Name + ": " + s.Label(pt)
	return cfg, nil
}

// resolve finds a base named relative to the sweep file; other names
// (presets, paths from the working directory) are left to variants.Load.
func (s *Sweep) resolve(base string) string {
	if s.dir != "" && !filepath.IsAbs(base) {
		p := filepath.Join(s.dir, base)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return base
}
