package tournament

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"playtest/reports"
	"playtest/reports/stats"
	"playtest/runs/rundir"
	"playtest/runs/runlog"
	"playtest/sim"
	"playtest/sim/bots"
	"playtest/studies/accuracy"
	"playtest/studies/study"
	"playtest/variants"
)

// Entrant is one bot setting with the label the tables show; Text is the
// setting as given (a bot name or a YAML mapping), which a tournament kept
// in a directory records in each pairing's variant.
type Entrant struct {
	Label string    `json:"label"`
	Spec  bots.Spec `json:"spec"`
	Text  string    `json:"-"`
}

// Pairing is the record of one entrant against another.
type Pairing struct {
	A, B   int             `json:"-"`
	Labels [2]string       `json:"entrants"`
	Wins   int             `json:"wins"`
	Draws  int             `json:"draws"`
	Losses int             `json:"losses"`
	Score  stats.PairScore `json:"score"` // A's score per game over pairs
	// Repetition counts the pairing's different games: two bots that
	// always answer alike replay a few games, and the score's interval,
	// which takes the pairs as independent, is then too narrow.
	Repetition *reports.Repetition `json:"repetition,omitempty"`
}

// SchemaV1 is the schema tag of a tournament's JSON.
const SchemaV1 = "playtest/tournament/v1"

// Options tune a round robin.
type Options struct {
	// Workers is the number of worker goroutines (0: all cores).
	Workers int
	// OnGame, if set, is called after each game, from one goroutine.
	OnGame func()
	// Out, if set, keeps the tournament as a study (package study): each
	// pairing a run directory under pairings/, and study.json.
	Out string
	// Resume continues the tournament kept in Out.
	Resume bool
	// Games, with Resume, grows every pairing of the kept tournament to
	// that many games (study.Grow) before going on: the games played are
	// kept and only the new ones played. 0 keeps its games.
	Games int
	// Shard, with Out, plays that slice of every pairing's games: the
	// tournament's result comes from playtest merge.
	Shard runlog.Shard
	// Command is the command line that started the tournament, recorded
	// in Out's study manifest.
	Command string
	// Accuracy is how many games of each pairing, from index 0, are
	// judged against perfect play (package accuracy), where the variant
	// can be proven: each entrant's decisions pooled over its pairings (0:
	// none).
	Accuracy int
}

// Kind is the study kind of a tournament (study.Manifest.Kind).
const Kind = "tournament"

// design is what a tournament's study manifest records beside its units
// (one per pairing, in order): the result's header (no entrants, ratings
// or pairings) and the entrants' labels; each entrant's bot is in the
// pairings' variants.
type design struct {
	Result
	Labels []string `json:"labels"`
}

// Result is a finished round robin.
type Result struct {
	Schema  string `json:"schema"`
	Game    string `json:"game"`
	Variant string `json:"variant"`
	// Label names the variant with what --set changed in its rules.
	Label    string    `json:"label,omitempty"`
	Seed     uint64    `json:"seed"`
	Games    int       `json:"games_per_pairing"`
	Entrants []Entrant `json:"entrants"`
	// Ratings are Bradley-Terry Elo ratings, the first entrant at 0.
	Ratings  []Rating  `json:"ratings"`
	Pairings []Pairing `json:"pairings"`
	// Accuracy is each entrant's decisions judged against perfect play
	// (Options.Accuracy), in entrant order; nil without it.
	Accuracy []accuracy.Player `json:"accuracy,omitempty"`
	// AccuracyGames is how many games of each pairing were judged.
	AccuracyGames int `json:"accuracy_games,omitempty"`
}

// Validate checks that the entrants and games make a round robin: at
// least two entrants, and an even number of games per pairing (seat-swapped
// pairs).
func Validate(cfg *variants.Config, entrants []Entrant) error {
	if len(entrants) < 2 {
		return fmt.Errorf("a tournament needs at least two entrants, got %d", len(entrants))
	}
	if cfg.Games < 2 || cfg.Games%2 != 0 {
		return fmt.Errorf("--games %d: a pairing plays seat-swapped pairs, so it needs an even number of games, at least 2", cfg.Games)
	}
	return nil
}

// Pairings returns the number of pairings of n entrants.
func Pairings(n int) int { return n * (n - 1) / 2 }

// Run plays every pairing of the entrants on cfg's variant: cfg.Games
// games each, in seat-swapped pairs, every pairing on the same seeds. With
// a Shard it plays that slice of every pairing and returns no result
// (nil): playtest merge assembles the tournament from its shards.
func Run(ctx context.Context, cfg *variants.Config, entrants []Entrant, opts Options) (*Result, error) {
	if err := Validate(cfg, entrants); err != nil {
		return nil, err
	}
	res := &Result{Schema: SchemaV1, Game: cfg.Definition.Name, Variant: cfg.Name, Label: cfg.Label(), Seed: cfg.Seed, Games: cfg.Games, Entrants: entrants}
	if opts.Accuracy > 0 && accuracy.Check(cfg) == nil {
		res.AccuracyGames = min(opts.Accuracy, cfg.Games) // recorded in a study's design, for resume and merge
	}
	cfgs := make([]*variants.Config, 0, Pairings(len(entrants)))
	for a := range entrants {
		for b := a + 1; b < len(entrants); b++ {
			res.Pairings = append(res.Pairings, Pairing{A: a, B: b, Labels: [2]string{entrants[a].Label, entrants[b].Label}})
			pc := *cfg
			pc.Players = [2]bots.Spec{entrants[a].Spec, entrants[b].Spec}
			pc.Pairs = true
			if opts.Out != "" {
				if entrants[a].Text == "" || entrants[b].Text == "" {
					return nil, fmt.Errorf("pairing #%d vs #%d: a tournament kept in a directory records each entrant's setting as given (Entrant.Text)", a+1, b+1)
				}
				// Recorded as overrides, so the pairing's run rebuilds it.
				p, err := cfg.With(variants.Override{Path: "pairs", Value: "true", Origin: "tournament"},
					variants.Override{Path: "players.0", Value: entrants[a].Text, Origin: "--bot"},
					variants.Override{Path: "players.1", Value: entrants[b].Text, Origin: "--bot"})
				if err != nil {
					return nil, err
				}
				if p.Hash() != pc.Hash() {
					return nil, fmt.Errorf("pairing #%d vs #%d: its variant does not rebuild from its --bot texts", a+1, b+1)
				}
				pc = *p
			}
			cfgs = append(cfgs, &pc)
		}
	}
	var m *study.Manifest
	if opts.Out != "" {
		d := design{Result: *res}
		d.Entrants, d.Pairings = nil, nil
		units := make([]study.Unit, len(cfgs))
		for i, p := range res.Pairings {
			units[i] = study.NewUnit(pairingName(p), pairingDir(p), cfgs[i])
		}
		for _, e := range entrants {
			d.Labels = append(d.Labels, e.Label)
		}
		var err error
		if m, err = study.New(Kind, cmp.Or(res.Label, res.Variant), opts.Command, opts.Shard, units, d); err != nil {
			return nil, err
		}
	}
	return play(ctx, res, cfgs, m, opts)
}

// pairingName is a pairing's unit name in a tournament's study.
func pairingName(p Pairing) string { return fmt.Sprintf("#%d vs #%d", p.A+1, p.B+1) }

// pairingDir is a pairing's run directory in a tournament's.
func pairingDir(p Pairing) string { return fmt.Sprintf("pairings/%02d-vs-%02d", p.A+1, p.B+1) }

// Resume continues the tournament kept in out from its study manifest
// alone, with its shard.
func Resume(ctx context.Context, out string, opts Options) (*Result, error) {
	m, err := study.Read(out)
	if err != nil {
		return nil, err
	}
	if opts.Games > 0 {
		m, err = study.Grow(out, m, Kind, opts.Games, func(raw json.RawMessage) (any, error) {
			var d design
			if err := json.Unmarshal(raw, &d); err != nil {
				return nil, err
			}
			d.Games = opts.Games
			return d, nil
		})
		if err != nil {
			return nil, err
		}
	}
	res, cfgs, err := fromManifest(m)
	if err != nil {
		return nil, err
	}
	opts.Out, opts.Resume, opts.Shard = out, true, m.Shard
	return play(ctx, res, cfgs, m, opts)
}

// fromManifest rebuilds a tournament (pairings without results) and its
// pairings' variants from its study manifest.
func fromManifest(m *study.Manifest) (*Result, []*variants.Config, error) {
	if m.Kind != Kind {
		return nil, nil, fmt.Errorf("%s is a %s, not a tournament", study.ManifestFile, m.Kind)
	}
	var d design
	n := 0
	if err := json.Unmarshal(m.Design, &d); err == nil {
		n = len(d.Labels)
	}
	if d.Schema != SchemaV1 || n < 2 || Pairings(n) != len(m.Units) {
		return nil, nil, &study.Error{Path: study.ManifestFile, Err: fmt.Errorf("its tournament design does not match its %d units", len(m.Units))}
	}
	res := &d.Result
	res.Entrants = make([]Entrant, n)
	cfgs := make([]*variants.Config, len(m.Units))
	i := 0
	for a := range n {
		for b := a + 1; b < n; b++ {
			cfg, err := m.Units[i].Config()
			if err != nil {
				return nil, nil, err
			}
			p := Pairing{A: a, B: b, Labels: [2]string{d.Labels[a], d.Labels[b]}}
			if err := m.CheckUnit(i, pairingName(p), pairingDir(p)); err != nil {
				return nil, nil, err
			}
			for seat, e := range [2]int{a, b} {
				// An entrant plays the same bot in every pairing.
				if res.Entrants[e].Label != "" && !res.Entrants[e].Spec.Same(cfg.Players[seat]) {
					return nil, nil, &study.Error{Path: study.ManifestFile, Err: fmt.Errorf("changed or damaged: entrant #%d (%s) plays another bot in unit %q", e+1, d.Labels[e], m.Units[i].Name)}
				}
				res.Entrants[e] = Entrant{Label: d.Labels[e], Spec: cfg.Players[seat]}
			}
			cfgs[i] = cfg
			res.Pairings = append(res.Pairings, p)
			i++
		}
	}
	return res, cfgs, nil
}

// play plays every pairing of res (cfgs[i] is pairing i's variant), each
// into its run directory under opts.Out (kept by the study manifest m) or
// in memory, then rates the entrants.
func play(ctx context.Context, res *Result, cfgs []*variants.Config, m *study.Manifest, opts Options) (*Result, error) {
	if opts.Out != "" {
		var err error
		if m, err = study.Begin(opts.Out, m, opts.Resume); err != nil {
			return nil, err
		}
	}
	for i, cfg := range cfgs {
		p := &res.Pairings[i]
		tally := newTally(p)
		if opts.Out == "" {
			job, err := rundir.Job(cfg)
			if err != nil {
				return nil, err
			}
			job.Trace = 0 // a tournament reports no How it plays
			err = sim.Run(ctx, job, sim.Options{Workers: opts.Workers}, func(r *sim.Record) {
				if opts.OnGame != nil {
					opts.OnGame()
				}
				tally.add(r)
			})
			if err = cmp.Or(err, tally.failed); err != nil {
				return nil, err
			}
			tally.finish()
			continue
		}
		dir := filepath.Join(opts.Out, m.Units[i].Dir)
		_, logged := runlog.ReadManifest(dir)
		dopts := rundir.DirOptions{Options: rundir.Options{Workers: opts.Workers}, Resume: opts.Resume && logged == nil, Extend: true, Replace: true, Shard: m.Shard, NoReports: true}
		if opts.OnGame != nil {
			dopts.OnRecord = func(*sim.Record) { opts.OnGame() }
		}
		if _, err := rundir.RunToDir(ctx, cfg, dopts, dir); err != nil {
			return nil, fmt.Errorf("pairing #%d vs #%d: %w", p.A+1, p.B+1, err)
		}
	}
	if opts.Out == "" {
		res.rate()
		return res, res.judgeAccuracy(ctx, cfgs, opts)
	}
	if m.Shard.Count > 0 {
		return nil, study.Finish(opts.Out, m) // a slice of every pairing: merge assembles the tournament
	}
	if err := res.tallyLogs(opts.Out, m); err != nil {
		return nil, err
	}
	return res, res.judgeAccuracy(ctx, cfgs, opts)
}

// tallyLogs fills every pairing from the games logged in its run directory
// under dir (the whole run) and rates the entrants.
func (r *Result) tallyLogs(dir string, m *study.Manifest) error {
	for i := range r.Pairings {
		p := &r.Pairings[i]
		tally := newTally(p)
		d := filepath.Join(dir, m.Units[i].Dir)
		if _, err := runlog.Scan(d, 0, r.Games, nil, func(rec *sim.Record) error { tally.add(rec); return nil }); err != nil {
			return err
		}
		if tally.failed != nil {
			return fmt.Errorf("pairing #%d vs #%d: %w (its games are in %s)", p.A+1, p.B+1, tally.failed, filepath.Join(d, runlog.ErrorsFile))
		}
		tally.finish()
	}
	r.rate()
	return nil
}

// Merge assembles the tournament whose shard directories are dirs into
// out (study.Merge) and returns it: the same result as one process
// playing the whole tournament.
func Merge(ctx context.Context, dirs []string, out string) (*Result, error) {
	m, _, err := study.Merge(ctx, dirs, out)
	if err != nil {
		return nil, err
	}
	res, cfgs, err := fromManifest(m)
	if err != nil {
		return nil, err
	}
	if err := res.tallyLogs(out, m); err != nil {
		return nil, err
	}
	return res, res.judgeAccuracy(ctx, cfgs, Options{})
}

// tally counts a pairing's games as they come: entrant A is player 0.
type tally struct {
	p       *Pairing
	pairs   stats.PairSeries
	repeats reports.RepetitionCounter
	failed  error
}

func newTally(p *Pairing) *tally {
	p.Wins, p.Draws, p.Losses = 0, 0, 0
	return &tally{p: p}
}

func (t *tally) add(r *sim.Record) {
	if r.Err != nil {
		t.failed = cmp.Or(t.failed, error(r.Err))
		return
	}
	s := r.Result.ScoreFor(r.SeatOf(0))
	switch s {
	case 1:
		t.p.Wins++
	case 0.5:
		t.p.Draws++
	default:
		t.p.Losses++
	}
	t.pairs.Add(r.Index, s)
	t.repeats.Add(r.Fingerprint)
}

func (t *tally) finish() {
	t.p.Score = t.pairs.Score(stats.Z95)
	t.p.Repetition = t.repeats.Summary()
}

// rate fits the entrants' Elo ratings to the pairings' scores.
func (r *Result) rate() {
	n := len(r.Entrants)
	score, played := square(n), square(n)
	for _, p := range r.Pairings {
		games := float64(p.Wins + p.Draws + p.Losses)
		s := float64(p.Wins) + 0.5*float64(p.Draws)
		score[p.A][p.B] += s
		score[p.B][p.A] += games - s
		played[p.A][p.B] += games
		played[p.B][p.A] += games
	}
	r.Ratings = fitElo(score, played)
}

func square(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}

// Ranking returns the entrants' indices from the highest Elo down (ties
// in entrant order).
func (r *Result) Ranking() []int {
	order := make([]int, len(r.Entrants))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(r.Ratings[b].Elo, r.Ratings[a].Elo) })
	return order
}

// rows gives the ratings table's rows and the pairwise table's, both in
// the order of Ranking; entrants keep their number (#) from the command
// line.
func (r *Result) rows() (ratings, scores [][]string, header []string) {
	order := r.Ranking()
	header = []string{"#"}
	for _, j := range order {
		header = append(header, fmt.Sprintf("vs #%d", j+1))
	}
	for rank, i := range order {
		ci := "anchor"
		if i > 0 {
			ci = fmt.Sprintf("%+.0f – %+.0f", r.Ratings[i].Low, r.Ratings[i].High)
		}
		rating := []string{fmt.Sprint(rank + 1), fmt.Sprint(i + 1), r.Entrants[i].Label, fmt.Sprintf("%+.0f", r.Ratings[i].Elo), ci}
		if r.Accuracy != nil {
			rating = append(rating, r.accuracyCells(i)...)
		}
		ratings = append(ratings, rating)
		row := []string{fmt.Sprint(i + 1)}
		for _, j := range order {
			row = append(row, r.cell(i, j))
		}
		scores = append(scores, row)
	}
	return ratings, scores, header
}

// ratingsHeader heads the ratings table, with the accuracy columns when
// the entrants were judged.
func (r *Result) ratingsHeader() []string {
	h := []string{"rank", "#", "entrant", "Elo", "95% CI"}
	if r.Accuracy != nil {
		h = append(h, "accuracy (95% CI)", "blunders a game")
	}
	return h
}

const scoresNote = "score of the row entrant against the column entrant, per game over pairs (95% CI):"

// WriteTable prints the ratings, highest Elo first, and the pairwise score
// table in the same order.
func (r *Result) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s: %s\nround robin of %d entrants, %d games per pairing in seat-swapped pairs, seed %d\n\n",
		r.Game, cmp.Or(r.Label, r.Variant), len(r.Entrants), r.Games, r.Seed)
	ratings, scores, header := r.rows()
	t := reports.NewTable(w, reports.Cells(r.ratingsHeader())...)
	for _, row := range ratings {
		_ = t.Append(reports.Cells(row)...)
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\n"+scoresNote)
	pt := reports.NewTable(w, reports.Cells(header)...)
	for _, row := range scores {
		_ = pt.Append(reports.Cells(row)...)
	}
	if err := pt.Render(); err != nil {
		return err
	}
	if note := r.accuracyNote(); note != "" {
		fmt.Fprintf(w, "\n%s\n", note)
	}
	if note := r.RepetitionNote(); note != "" {
		_, err := fmt.Fprintf(w, "\nwarning (repeated-games): %s\n", note)
		return err
	}
	return nil
}

// WriteMarkdown writes the same tables in Markdown.
func (r *Result) WriteMarkdown(w io.Writer) error {
	fmt.Fprintf(w, "### playtest tournament: %s (%s)\n\nRound robin of %d entrants, %d games per pairing in seat-swapped pairs, seed %d. Elo is a Bradley-Terry fit with 95%% intervals, entrant #1 anchored at 0.\n\n",
		reports.MarkdownEscape(cmp.Or(r.Label, r.Variant)), reports.MarkdownEscape(r.Game), len(r.Entrants), r.Games, r.Seed)
	ratings, scores, header := r.rows()
	reports.WriteMarkdownTable(w, r.ratingsHeader(), ratings)
	fmt.Fprint(w, "\n"+scoresNote+"\n\n")
	if err := reports.WriteMarkdownTable(w, header, scores); err != nil {
		return err
	}
	if note := r.accuracyNote(); note != "" {
		fmt.Fprintf(w, "\n%s\n", reports.MarkdownText(note))
	}
	if note := r.RepetitionNote(); note != "" {
		fmt.Fprintf(w, "\n> ⚠ **repeated-games**: %s\n", reports.MarkdownText(note))
	}
	return reports.WriteMarkdownFooter(w)
}

// RepetitionNote names the pairings whose games repeat (fewer than 90%
// different), or "" when none does.
func (r *Result) RepetitionNote() string {
	var parts []string
	for _, p := range r.Pairings {
		if rep := p.Repetition; rep.Repeated(r.Games) {
			parts = append(parts, fmt.Sprintf("#%d vs #%d: %d different games of %d", p.A+1, p.B+1, rep.Distinct, r.Games))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + ". These bots repeat themselves: their scores describe a few lines of play, and the intervals, which take the pairs as independent, are too narrow; give deterministic bots variety (alphabeta: noise with noise_moves) or play a stochastic one."
}

// cell writes i's score against j.
func (r *Result) cell(i, j int) string {
	for _, p := range r.Pairings {
		s := p.Score
		switch {
		case p.A == i && p.B == j:
		case p.A == j && p.B == i:
			s.Score, s.CI.Low, s.CI.High = 1-s.Score, 1-s.CI.High, 1-s.CI.Low
		default:
			continue
		}
		return fmt.Sprintf("%.0f%% (%.0f–%.0f)", 100*s.Score, 100*s.CI.Low, 100*s.CI.High)
	}
	return "—"
}

// Label makes an entrant's label from the text that set it: the text
// itself, without braces and "bot:".
func Label(text string) string {
	t := strings.TrimSpace(text)
	t = strings.TrimPrefix(strings.TrimSuffix(t, "}"), "{")
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), "bot:"))
	return t
}
