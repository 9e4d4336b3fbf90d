package accuracy

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"playtest/reports"
	"playtest/reports/stats"
	"playtest/sim/bots"
	"playtest/variants"
)

// Schema versions accuracy.json.
const Schema = "playtest/accuracy/v1"

// Phases name the thirds of a game a decision falls in, by the plies
// played before it out of the game's length.
var Phases = [3]string{"opening", "middle", "end"}

// bootstrapResamples and bootstrapSeed make the intervals over games.
const (
	bootstrapResamples = 2000
	bootstrapSeed      = 0x616363 // "acc"
)

// Result is a study of accuracy: each player's decisions against the
// proven values.
type Result struct {
	Schema     string `json:"schema"`
	Game       string `json:"game"`
	Variant    string `json:"variant"`
	Label      string `json:"label,omitempty"`
	ConfigHash string `json:"config_hash"`
	// Games are the games judged, from index 0; Failed those a bot's
	// error ended (left unjudged).
	Games  int `json:"games"`
	Failed int `json:"failed,omitempty"`
	// MinPlies and Nodes are the options: decisions judged from MinPlies
	// plies on, each proof within Nodes positions.
	MinPlies int   `json:"min_plies,omitempty"`
	Nodes    int64 `json:"nodes"`
	// Skipped counts the seats' decisions not judged: the opening's, the
	// book's and those before MinPlies.
	Skipped int `json:"skipped"`
	// Repetition counts the different games judged (nil for a log of
	// games without fingerprints): a bot that answers alike replays one
	// line, and its decisions are then judged many times over.
	Repetition *reports.Repetition `json:"repetition,omitempty"`
	Players    [2]Player           `json:"players"`
	// All is both players' decisions together (Player −1): a self-play's
	// figure.
	All Player `json:"all"`
}

// Player is one player's accuracy, whichever seat it sat in.
type Player struct {
	Player int    `json:"player"`
	Bot    string `json:"bot"`
	// Games counts the games with a decision of its judged.
	Games int `json:"games"`
	// Decisions are its judged decisions without variety, Kept those that
	// kept the proven value; Accuracy is their share, its 95% interval
	// bootstrapped over games (one game's decisions are not independent).
	Decisions int            `json:"decisions"`
	Kept      int            `json:"kept"`
	Accuracy  float64        `json:"accuracy"`
	Interval  stats.Interval `json:"interval"`
	// Varied are its judged decisions that its variety settings (noise)
	// applied to, VariedKept those that kept the value.
	Varied     int `json:"varied,omitempty"`
	VariedKept int `json:"varied_kept,omitempty"`
	// Blunders are its decisions without variety that lost value, by
	// kind; BlundersPerGame their mean over its games, with a 95%
	// bootstrap interval.
	WinToDraw        int            `json:"win_to_draw"`
	WinToLoss        int            `json:"win_to_loss"`
	DrawToLoss       int            `json:"draw_to_loss"`
	BlundersPerGame  float64        `json:"blunders_per_game"`
	BlundersInterval stats.Interval `json:"blunders_interval"`
	// VariedBlunders are the blunders among the varied decisions.
	VariedBlunders int `json:"varied_blunders,omitempty"`
	// Phases are its judged decisions and blunders by third of the game.
	Phases [3]Phase `json:"phases"`
	// Unproven counts its decisions a proof left unjudged (its bound).
	Unproven int `json:"unproven"`

	tallies []tally // per game with a judged decision of its, for Pool
}

// Phase is a player's decisions and blunders in one third of its games.
type Phase struct {
	Name      string `json:"name"`
	Decisions int    `json:"decisions"`
	Blunders  int    `json:"blunders"`
}

// Blunders counts the player's blunders without variety.
func (p *Player) Blunders() int { return p.WinToDraw + p.WinToLoss + p.DrawToLoss }

// phase is the third of a game of plies a decision at ply falls in.
func phase(ply, plies int) int {
	if plies <= 0 {
		return 0
	}
	return min(2, ply*3/plies)
}

// summarize sums the judged games up.
func summarize(cfg *variants.Config, opts *Options, judged []*Game) *Result {
	r := &Result{Schema: Schema, Game: cfg.Definition.Name, Variant: cfg.Name, Label: cfg.Label(), ConfigHash: cfg.Hash(),
		Games: len(judged), MinPlies: opts.MinPlies, Nodes: opts.Nodes}
	for i := range r.Players {
		p := &r.Players[i]
		p.Player, p.Bot = i, cfg.Players[i].Describe()
		for k := range p.Phases {
			p.Phases[k].Name = Phases[k]
		}
	}
	r.All.Player, r.All.Bot = -1, "both players"
	for k := range r.All.Phases {
		r.All.Phases[k].Name = Phases[k]
	}
	// Per game and player (and both): judged decisions, kept, blunders.
	var per [3][]tally
	var repeats reports.RepetitionCounter
	for _, g := range judged {
		if g.Err != "" {
			r.Failed++
			continue
		}
		if cfg.Pairs {
			repeats.AddPaired(g.Deal, g.Fingerprint)
		} else {
			repeats.Add(g.Fingerprint)
		}
		r.Skipped += g.Skipped
		var t [3]tally
		var seen [3]bool
		for _, d := range g.Decisions {
			for k, p := range []*Player{&r.Players[d.Player], &r.All} {
				at := d.Player
				if k == 1 {
					at = 2
				}
				if p.add(d, g.Plies, &t[at]) {
					seen[at] = true
				}
			}
		}
		for i := range t {
			if seen[i] {
				per[i] = append(per[i], t[i])
			}
		}
	}
	for i, p := range []*Player{&r.Players[0], &r.Players[1], &r.All} {
		p.intervals(per[i], uint64(i))
	}
	r.Repetition = repeats.Summary()
	return r
}

// tally is one player's judged decisions in one game.
type tally struct{ n, kept, blunders int }

// add counts decision d of a game of plies, and in t its game's tally;
// it reports whether d was judged (proven).
func (p *Player) add(d Decision, plies int, t *tally) bool {
	if d.Unproven != "" {
		p.Unproven++
		return false
	}
	lost := d.After < d.Value
	if d.Varied {
		p.Varied++
		if lost {
			p.VariedBlunders++
		} else {
			p.VariedKept++
		}
		return true
	}
	p.Decisions++
	t.n++
	ph := &p.Phases[phase(d.Ply, plies)]
	ph.Decisions++
	if !lost {
		p.Kept++
		t.kept++
		return true
	}
	ph.Blunders++
	t.blunders++
	switch {
	case d.Value > 0 && d.After == 0:
		p.WinToDraw++
	case d.Value > 0:
		p.WinToLoss++
	default:
		p.DrawToLoss++
	}
	return true
}

// intervals sets the player's figures over its games ts: accuracy and
// blunders a game, with percentile bootstrap intervals over the games.
func (p *Player) intervals(ts []tally, stream uint64) {
	p.tallies = ts
	p.Games = len(ts)
	if p.Decisions > 0 {
		p.Accuracy = float64(p.Kept) / float64(p.Decisions)
	}
	p.Interval = stats.BootstrapStatistic(len(ts), bootstrapResamples, 0.05, bootstrapSeed+2*stream, func(sample []int) float64 {
		n, kept := 0, 0
		for _, k := range sample {
			n, kept = n+ts[k].n, kept+ts[k].kept
		}
		if n == 0 {
			return 0
		}
		return float64(kept) / float64(n)
	})
	mean := func(sample []int) float64 {
		if len(sample) == 0 {
			return 0
		}
		sum := 0
		for _, k := range sample {
			sum += ts[k].blunders
		}
		return float64(sum) / float64(len(sample))
	}
	all := make([]int, len(ts))
	for k := range all {
		all[k] = k
	}
	p.BlundersPerGame = mean(all)
	p.BlundersInterval = stats.BootstrapStatistic(len(ts), bootstrapResamples, 0.05, bootstrapSeed+2*stream+1, mean)
}

// Pool sums the figures of one bot's players in several studies (a
// tournament's pairings) into one, its intervals over all their games.
func Pool(bot string, ps ...*Player) Player {
	out := Player{Player: -1, Bot: bot}
	for k := range out.Phases {
		out.Phases[k].Name = Phases[k]
	}
	var ts []tally
	for _, p := range ps {
		out.Decisions += p.Decisions
		out.Kept += p.Kept
		out.Varied += p.Varied
		out.VariedKept += p.VariedKept
		out.WinToDraw += p.WinToDraw
		out.WinToLoss += p.WinToLoss
		out.DrawToLoss += p.DrawToLoss
		out.VariedBlunders += p.VariedBlunders
		out.Unproven += p.Unproven
		for k := range out.Phases {
			out.Phases[k].Decisions += p.Phases[k].Decisions
			out.Phases[k].Blunders += p.Phases[k].Blunders
		}
		ts = append(ts, p.tallies...)
	}
	out.intervals(ts, 7)
	return out
}

// Unproven counts the decisions left unjudged by a proof's bound.
func (r *Result) Unproven() int { return r.All.Unproven }

// WriteJSON writes the result as indented JSON.
func (r *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// label names the variant as shown.
func (r *Result) label() string {
	if r.Label != "" {
		return r.Label
	}
	return r.Variant
}

// WriteTable writes each player's accuracy, blunders by kind and by
// phase, and what was left unjudged.
func (r *Result) WriteTable(w io.Writer) error {
	from := ""
	if r.MinPlies > 0 {
		from = fmt.Sprintf(", decisions from ply %d on", r.MinPlies)
	}
	fmt.Fprintf(w, "%s: %s — accuracy against perfect play, games 0 to %d%s (each proof within %s positions)\n\n",
		r.Game, r.label(), r.Games-1, from, bots.Thousands(int(r.Nodes)))
	t := reports.NewTable(w, "player", "games", "decisions", "keep the value", "95% CI", "blunders a game", "95% CI", "win→draw", "win→loss", "draw→loss", "varied: kept", "unproven")
	for _, p := range r.Players {
		varied := "–"
		if p.Varied > 0 {
			varied = fmt.Sprintf("%d of %d", p.VariedKept, p.Varied)
		}
		_ = t.Append(fmt.Sprintf("%d: %s", p.Player, p.Bot), fmt.Sprint(p.Games), bots.Thousands(p.Decisions),
			reports.FormatPercent(p.Accuracy), reports.FormatInterval(p.Interval.Low, p.Interval.High),
			fmt.Sprintf("%.2f", p.BlundersPerGame), fmt.Sprintf("%.2f – %.2f", p.BlundersInterval.Low, p.BlundersInterval.High),
			fmt.Sprint(p.WinToDraw), fmt.Sprint(p.WinToLoss), fmt.Sprint(p.DrawToLoss), varied, fmt.Sprint(p.Unproven))
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	t = reports.NewTable(w, "player", "opening: blunders / decisions", "middle", "end")
	for _, p := range r.Players {
		row := []any{fmt.Sprintf("%d: %s", p.Player, p.Bot)}
		for _, ph := range p.Phases {
			row = append(row, fmt.Sprintf("%d / %s", ph.Blunders, bots.Thousands(ph.Decisions)))
		}
		_ = t.Append(row...)
	}
	if err := t.Render(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", r.Verdict())
	_, err := fmt.Fprintln(w, r.Notes())
	return err
}

// Verdict says each player's accuracy in a sentence.
func (r *Result) Verdict() string {
	var parts []string
	for _, p := range r.Players {
		if p.Decisions == 0 {
			parts = append(parts, fmt.Sprintf("Player %d (%s): no decision judged.", p.Player, p.Bot))
			continue
		}
		s := fmt.Sprintf("Player %d (%s) keeps the proven value at %s [%s] of its %s decisions in %d games",
			p.Player, p.Bot, reports.FormatPercent(p.Accuracy), reports.FormatInterval(p.Interval.Low, p.Interval.High), bots.Thousands(p.Decisions), p.Games)
		if b := p.Blunders(); b > 0 {
			worst := 0
			for k, ph := range p.Phases {
				if ph.Blunders > p.Phases[worst].Blunders {
					worst = k
				}
			}
			s += fmt.Sprintf("; %.2f blunders a game [%.2f, %.2f], most in the %s", p.BlundersPerGame, p.BlundersInterval.Low, p.BlundersInterval.High, Phases[worst])
		} else {
			s += "; no blunder"
		}
		if p.VariedBlunders > 0 {
			s += fmt.Sprintf(" outside its noise moves, which gave value away %d times in %s decisions", p.VariedBlunders, bots.Thousands(p.Varied))
		}
		parts = append(parts, s+".")
	}
	if rep, n := r.Repetition, r.Games-r.Failed; rep.Repeated(n) {
		parts = append(parts, fmt.Sprintf("The games repeat (%s): a repeated game's decisions are judged again, so these figures lean toward its lines of play.", rep.Describe(n)))
	}
	return strings.Join(parts, " ")
}

// Notes say what the figures count and what was left out.
func (r *Result) Notes() string {
	notes := []string{"A blunder gives a proven win away or turns a draw into a loss; intervals are over games (percentile bootstrap), since one game's decisions are not independent."}
	if varied := r.Players[0].Varied + r.Players[1].Varied; varied > 0 {
		notes = append(notes, fmt.Sprintf("%s decisions made under the bots' variety settings (noise) are shown apart, not in the accuracy.", bots.Thousands(varied)))
	}
	if rep, n := r.Repetition, r.Games-r.Failed; rep.Repeated(n) {
		notes = append(notes, fmt.Sprintf("Warning: %s. The repeated games' decisions are counted again, and the intervals, which take the games as independent, are too narrow: give the bots more variety (a book: or noise) before reading the figures as the bots' accuracy.", rep.Describe(n)))
	} else if rep != nil {
		notes = append(notes, fmt.Sprintf("%d of the %d games were different.", rep.Distinct, n))
	}
	if r.Skipped > 0 {
		notes = append(notes, fmt.Sprintf("%s decisions of the opening, the book or before the first judged ply were not judged.", bots.Thousands(r.Skipped)))
	}
	if u := r.Unproven(); u > 0 {
		notes = append(notes, fmt.Sprintf("%s decisions were left unproven: a proof passed its bound of %s positions (raise --nodes, or judge later positions with --min-plies).", bots.Thousands(u), bots.Thousands(int(r.Nodes))))
	} else {
		notes = append(notes, "Every judged decision was proven.")
	}
	if r.Failed > 0 {
		notes = append(notes, fmt.Sprintf("%d games failed (a bot's error) and were not judged.", r.Failed))
	}
	return strings.Join(notes, " ")
}
