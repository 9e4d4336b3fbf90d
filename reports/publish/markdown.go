package publish

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/template"

	"playtest/games"
	"playtest/internal/printable"
	"playtest/reports"
	"playtest/reports/howplays"
	"playtest/sim"
	"playtest/sim/bots"
)

// funcs are the helpers both templates use.
var funcs = map[string]any{
	"oneLine":  printable.OneLine,
	"pct":      reports.FormatPercent,
	"ci":       reports.FormatInterval,
	"num":      func(x float64) string { return fmt.Sprintf("%.2f", x) },
	"p":        func(x float64) string { return fmt.Sprintf("%.3g", x) },
	"stalled":  games.IsStalled,
	"keys":     reports.SortedKeys,
	"md":       reports.MarkdownEscape,
	"reasons":  reports.FormatCounts,
	"biasTest": reports.SeatBiasDescription,
	"mdCode":   reports.MarkdownCode,
	"mdText":   reports.MarkdownText,
	"meanCI": func(m reports.Mean) string {
		lo, hi := max(m.Low, m.Min), min(m.High, m.Max)
		return fmt.Sprintf("%.2f – %.2f", lo, hi)
	},
	"inc":       func(k int) int { return k + 1 },
	"join":      func(entries []string) string { return strings.Join(entries, " ") },
	"footer":    reports.Footer,
	"describe":  howplays.Describe,
	"traceNote": traceNote,
	"gap":       func(x float64) string { return fmt.Sprintf("%+.1f", 100*x) },
	"hasDocs": func(ms []reports.Metric) bool {
		return slices.ContainsFunc(ms, func(m reports.Metric) bool { return m.Doc != "" })
	},
}

// traceNote says where a report's traces come from and what its
// intervals are over.
func traceNote(r *howplays.Report) string {
	source := "the variant's learned model (each seat's logit, in the heuristic's units, halved)"
	switch r.Mapping.Source {
	case howplays.MappingFitted:
		source = fmt.Sprintf("a logistic fitted to these games' outcomes, %s over them all, since the bots play no learned model", logistic(r.Mapping))
	case howplays.MappingRefit:
		source = fmt.Sprintf("a logistic fitted to these games' outcomes from the learned model's scale (the traces hold search values, whose scale the model's fit to static positions does not know), %s over them all", logistic(r.Mapping))
	}
	if r.Mapping.Folds > 0 {
		source += fmt.Sprintf(", cross-fitted: the figures read each game with the fit to the other %d folds of the games, never with a fit to its own result, and their intervals refit it in every resample", r.Mapping.Folds-1)
	}
	if r.Static {
		return fmt.Sprintf("Traced: the run's first %d games: its bots do not search, so it traces one game in %d (at least %d, at most %s), each position judged by its static evaluation, without playing its exchanges out, so that tracing costs a few percent of the run. A trace is seat 0's chance of winning before each decision, mapped to a chance by %s. Whose estimate: %s.", r.Games, sim.StaticTraceEvery, sim.MinStaticTrace, bots.Thousands(sim.DefaultTrace), source, r.View) + intervalsNote(r.Over)
	}
	return fmt.Sprintf("Traced: the run's first %d games (a run traces at most its first %s). A trace is seat 0's chance of winning before each decision: the lead the deciding alphabeta bot's search found, or else the heuristic's after the exchanges in progress are played out, mapped to a chance by %s. Whose estimate: %s.", r.Games, bots.Thousands(sim.DefaultTrace), source, r.View) + intervalsNote(r.Over)
}

// intervalsNote says how the How-it-plays figures' intervals are made.
func intervalsNote(over string) string {
	return fmt.Sprintf(" Intervals are 95%%, over the %s: percentile bootstrap (BCa for the length spread and game-tree complexity, basic for outcome uniformity: statistics of the whole sample; for the figures read from the chances, the mapping refitted in every resample and the percentile interval joined with the basic one), Wilson's for rates.", over)
}

// logistic writes a fitted mapping: "σ(−2.11 + 0.467·lead + 0.2·asinh(lead)
// − 0.61·e^(−t/8) + 0.03·lead·e^(−t/253))", t the decision (the opening
// and fading terms only where they are not 0).
func logistic(m howplays.Mapping) string {
	a := fmt.Sprintf("%.3g", math.Abs(m.A))
	if m.A < 0 {
		a = "−" + a
	}
	extra := ""
	if m.D != 0 {
		extra = fmt.Sprintf(" %s %.3g·e^(−t/%d)", sign(m.D), math.Abs(m.D), howplays.OpeningDecay)
	}
	if m.E != 0 {
		extra += fmt.Sprintf(" %s %.3g·lead·e^(−t/%g)", sign(m.E), math.Abs(m.E), m.Span)
	}
	return fmt.Sprintf("σ(%s %s %.3g·lead %s %.3g·asinh(lead)%s)", a, sign(m.B), math.Abs(m.B), sign(m.C), math.Abs(m.C), extra)
}

// sign is the operator before a term of the given sign.
func sign(x float64) string {
	if x < 0 {
		return "−"
	}
	return "+"
}

var markdown = template.Must(template.New("report.md").Funcs(funcs).Parse(markdownText))

// WriteMarkdown writes report.md. It holds nothing that depends on the
// clock or the machine (its footer names the build of playtest), so a
// seeded run's report is reproducible.
func (r *Report) WriteMarkdown(w io.Writer) error { return markdown.Execute(w, r) }

const markdownText = `{{with .Summary}}# {{md .VariantLabel}} ({{md .Game}})

{{.Games}} games{{if .Pairs}} in seat-swapped pairs{{end}}, seed {{.Seed}}, config {{md .ConfigHash}}.{{if .Opening}} Every game starts after the opening {{mdCode (join .Opening)}}.{{end}}{{with .BookBotText}} {{md .}}{{end}}
Players: {{range $i, $p := .Players}}{{if $i}} vs {{end}}{{md $p.Describe}}{{end}}.
Seat 0 moved first. Rates have 95% Wilson intervals{{if eq .Rates.Interval "paired-wilson"}}; the seat and draw rates' intervals are over the seat-swapped pairs, whose two games are not independent{{end}}.
{{if .Headline.Text}}
**{{mdText .Headline.Text}}**
{{end}}{{range .Warnings}}
> ⚠ **{{md .Code}}**: {{mdText .Message}}
{{end}}
## Outcomes

| result | games | rate | 95% CI |
|---|---:|---:|---:|
| seat 0 wins | {{.Rates.Seat0.Count}} | {{pct .Rates.Seat0.Rate}} | {{ci .Rates.Seat0.Low .Rates.Seat0.High}} |
| seat 1 wins | {{.Rates.Seat1.Count}} | {{pct .Rates.Seat1.Rate}} | {{ci .Rates.Seat1.Low .Rates.Seat1.High}} |
| draws | {{.Rates.Draw.Count}} | {{pct .Rates.Draw.Rate}} | {{ci .Rates.Draw.Low .Rates.Draw.High}} |
{{- $s := .}}{{range keys .DrawReasons}}{{$r := $s.DrawReasonRate .}}
| draws: {{md .}}{{if stalled .}} (stalled){{end}} | {{$r.Count}} | {{pct $r.Rate}} | {{ci $r.Low $r.High}} |{{end}}
{{- range .Sides}}
| side {{md .Name}} wins | {{.Wins.Count}} | {{pct .Wins.Rate}} | {{ci .Wins.Low .Wins.High}} |{{end}}
{{- range $i, $p := .Players}}
| player {{$i}} ({{md $p.Bot}}) W-D-L, score | {{$p.Wins}}-{{$p.Draws}}-{{$p.Losses}} | {{pct $p.Score.Mean}} | {{ci $p.Score.Low $p.Score.High}} |{{end}}
{{if .WinReasons}}
Wins by reason: {{md (reasons .WinReasons)}}.
{{end}}
## Balance (Ludii's metrics)

| metric | value | 95% CI | n |
|---|---:|---:|---:|
| Balance: 1 − abs(seat 0 − seat 1 win rate) | {{num .Balance.Balance.Value}} | {{num .Balance.Balance.Low}} – {{num .Balance.Balance.High}} | {{.Games}} |
| AdvantageP1: seat 0's wins | {{pct .Balance.AdvantageP1.Rate}} | {{ci .Balance.AdvantageP1.Low .Balance.AdvantageP1.High}} | {{.Balance.AdvantageP1.N}} |
| Completion: games with a winner | {{pct .Balance.Completion.Rate}} | {{ci .Balance.Completion.Low .Balance.Completion.High}} | {{.Balance.Completion.N}} |
| Drawishness: draws, stalled games apart | {{pct .Balance.Drawishness.Rate}} | {{ci .Balance.Drawishness.Low .Balance.Drawishness.High}} | {{.Balance.Drawishness.N}} |
| Timeouts: stalled games | {{pct .Balance.Timeouts.Rate}} | {{ci .Balance.Timeouts.Low .Balance.Timeouts.High}} | {{.Balance.Timeouts.N}} |
| DurationTurns: mean plies (bootstrap CI) | {{num .Balance.DurationTurns.Value}} | {{num .Balance.DurationTurns.Low}} – {{num .Balance.DurationTurns.High}} | {{.Games}} |
| DecisionMoves: decisions with a choice | {{pct .Balance.DecisionMoves}} | | {{.Balance.CountedDecisions}} |
| BranchingFactor: legal moves per decision | {{num .Balance.BranchingFactor}} | | {{.Balance.CountedDecisions}} |

Seat bias: {{md (biasTest .Balance)}}, p = {{p .Balance.SeatBiasP}}.{{if .PairStats}} Every interval of this table but DurationTurns' is over the seat-swapped pairs (the two games of a deal are not independent).{{end}}
{{with .PairStats}}
## Seat-swapped pairs (pentanomial)

| score per game | pairs | score | 95% CI | pairs scoring 0 / ½ / 1 / 1½ / 2 |
|---|---:|---:|---:|---:|
| seat 0 (first-move advantage, players cancelled) | {{.Seat0.Pairs}} | {{pct .Seat0.Score}} | {{ci .Seat0.CI.Low .Seat0.CI.High}} | {{range $i, $c := .Seat0.Counts}}{{if $i}} / {{end}}{{$c}}{{end}} |
| player 0 (strength, seats cancelled) | {{.Player0.Pairs}} | {{pct .Player0.Score}} | {{ci .Player0.CI.Low .Player0.CI.High}} | {{range $i, $c := .Player0.Counts}}{{if $i}} / {{end}}{{$c}}{{end}} |

Within-pair correlation of seat 0's score: {{num .Correlation}} (above 0: a deal favours the same seat in both its games, so a pair is worth less than two independent games).
{{end}}{{with .Openings}}
## Openings

The first decision of each game: {{.Distinct}} distinct over {{.Games}} games.

| opening | games | share | seat 0 wins | 95% CI |{{if .HasSwap}} swapped (pie) |{{end}}
|---|---:|---:|---:|---:|{{if .HasSwap}}---:|{{end}}
{{- $swap := .HasSwap}}{{range .Rows}}
| {{if .Others}}*{{md .Move}}*{{else}}{{md .Move}}{{end}} | {{.Share.Count}} | {{pct .Share.Rate}} | {{pct .Seat0Wins.Rate}} | {{ci .Seat0Wins.Low .Seat0Wins.High}} |{{if $swap}} {{with .Swap}}{{pct .Rate}}{{end}} |{{end}}{{end}}
{{end}}
## Game length

Plies: mean {{num .Plies.Mean}}, median {{.Plies.Median}}, 5% {{.Plies.P05}}, 95% {{.Plies.P95}}, min {{.Plies.Min}}, max {{.Plies.Max}}.
{{range $.LengthFigures}}
![{{md .Caption}}]({{.SVG}})
{{end}}{{with .HowItPlays}}
## How it plays
{{with .Summary}}
{{mdText .}}
{{end}}
{{mdText (traceNote .)}}

| figure | value | 95% CI | n |
|---|---:|---:|---:|
{{- range .Figures}}
| [{{md .Title}}](#{{.Anchor}}) | {{.Format .Value}} | {{.Format .Low}} – {{.Format .High}} | {{.N}} |{{end}}
{{range $.PlayFigures}}
![{{md .Caption}}]({{.SVG}})
{{end}}{{with .Reliability}}
### How far the chances come true

{{mdText .Summary}}

| chance | decisions | games (different) | predicted | observed | observed − predicted (95% CI, by game) |
|---|---:|---:|---:|---:|---:|
{{- range .Deciles}}{{if .Entries}}
| {{pct .Low}} – {{pct .High}} | {{.Entries}} | {{.Games}}{{if ne .Games .DifferentGames}} ({{.DifferentGames}}){{end}} | {{pct .Predicted}} | {{pct .Observed}} | {{gap .Gap}} [{{gap .GapLow}}, {{gap .GapHigh}}] |{{end}}{{end}}
{{end}}
### What the figures mean
{{range .Figures}}
- <a id="{{.Anchor}}"></a>**{{md .Title}}** ({{mdCode .Name}}): {{md (describe .Name)}}{{end}}
{{end}}{{if .Metrics}}
## Game-specific figures

Rates have Wilson intervals; means a normal interval (clamped to the range
of the values seen, so a count's never goes below zero) and, for
whole-number figures (scores, margins, counts), a percentile bootstrap one.

| metric | n | value | 95% CI | bootstrap 95% CI | min – max |
|---|---:|---:|---:|---:|---:|
{{- range .Metrics}}{{if .Rate}}
| {{md .Name}} | {{.Rate.N}} | {{pct .Rate.Rate}} | {{ci .Rate.Low .Rate.High}} | | |{{else}}
| {{md .Name}} | {{.Mean.N}} | {{num .Mean.Mean}} | {{meanCI .Mean}} | {{with .Mean.Bootstrap}}{{num .Low}} – {{num .High}}{{end}} | {{num .Mean.Min}} – {{num .Mean.Max}} |{{end}}{{end}}
{{if hasDocs .Metrics}}
### Glossary
{{range .Metrics}}{{if .Doc}}
- {{mdCode .Name}}: {{md .Doc}}{{end}}{{end}}
{{end}}{{end}}{{end}}
{{with .Knobs}}## Rules

{{with $.Summary.RuleChanges}}Changed by {{mdCode "--set"}} from the variant as written: {{range $i, $c := .}}{{if $i}}; {{end}}{{md $c.Knob}} {{md $c.From}} → {{md $c.To}}{{end}}.

{{end}}| knob | value |
|---|---|
{{range .}}| {{md .Name}} | {{md .Value}}{{if .Changed}} (set; was {{md .From}}){{end}} |
{{end}}
{{end}}## Plots
{{range .Notes}}
{{md .}}
{{end}}{{range .OtherFigures}}
![{{md .Caption}}]({{.SVG}})
{{end}}
{{with .Examples}}{{if .Games}}## Example games

Every position of these games is drawn in report.html's board viewer;
{{mdCode "playtest replay DIR --game N"}} prints any game of the run.
{{range .Games}}
- game {{.Index}}: {{md .Label}}. {{md .Result}}.{{end}}

{{end}}{{end}}
{{mdText footer}}
`
