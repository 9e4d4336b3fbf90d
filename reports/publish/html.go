package publish

import (
	"encoding/base64"
	"html/template"
	"io"
	"playtest/reports"
	"strings"
)

var page = template.Must(template.Must(template.New("report.html").Funcs(funcs).Funcs(template.FuncMap{
	// pngData makes the inline image's URL; the data is our own base64.
	"pngData": func(b64 string) template.URL { return template.URL("data:image/png;base64," + b64) },
	// svgData makes a drawing's image URL: an <img> runs no script, and
	// base64 leaves nothing of the drawing to escape.
	"svgData": func(svg string) template.URL {
		return template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(svg)))
	},
	"code": codeSpans,
}).Parse(viewerText)).Parse(htmlText))

// codeSpans escapes annotated text (a headline, a warning: sentences
// with `code` spans) for HTML and sets its code spans as code.
func codeSpans(text string) template.HTML {
	var b strings.Builder
	for _, span := range reports.SplitCode(text) {
		if span.Code {
			b.WriteString("<code>" + template.HTMLEscapeString(span.Text) + "</code>")
		} else {
			b.WriteString(template.HTMLEscapeString(span.Text))
		}
	}
	return template.HTML(b.String())
}

// viewerText is the board viewer, shared by report.html and the pages of
// playtest replay --html: one block per game (its frames, controls and
// move list) and the script that steps through them.
const viewerText = `{{define "viewerStyle"}}.viewer { border: 1px solid #ddd; padding: 0.7rem 1rem; margin: 1rem 0; }
.viewer:focus { outline: 2px solid #36c; }
.viewer .controls button { font-size: 1rem; min-width: 2.4rem; }
.viewer .controls input[type=range] { width: 40%; vertical-align: middle; }
.viewer .body { display: flex; gap: 1.5rem; align-items: flex-start; flex-wrap: wrap; }
.viewer .moves { max-height: 26rem; overflow-y: auto; font-family: monospace; font-size: 0.85rem; margin: 0; padding-left: 2.5rem; }
.viewer .moves li { cursor: pointer; }
.viewer .moves li.current { background: #dde8f7; font-weight: bold; }
.viewer .moves li.chance { color: #777; }
.viewer .trace { display: block; width: 100%; max-width: 40rem; height: 7rem; margin-top: 0.6rem; cursor: pointer; }
.viewer .trace .line { fill: none; stroke: #2b6cb0; stroke-width: 2; vector-effect: non-scaling-stroke; }
.viewer .trace .even { stroke: #999; stroke-dasharray: 4 3; vector-effect: non-scaling-stroke; }
.viewer .trace .turn { fill: #fff; stroke: #c53030; stroke-width: 2; vector-effect: non-scaling-stroke; }
.viewer .trace .cursor { stroke: #222; stroke-width: 1.5; vector-effect: non-scaling-stroke; }
.viewer .trace-note { font-size: 0.8rem; color: #555; margin: 0.2rem 0 0; }
{{end}}{{define "viewer"}}{{range $i, $g := .}}<div class="viewer" id="example-{{$i}}" tabindex="0" data-example="{{$i}}">
<h3>Game {{$g.Index}}: {{$g.Label}}</h3>
<p>{{if $g.Seats}}{{$g.Seats}}. {{end}}{{$g.Result}}.</p>
<div class="controls"><button type="button" data-step="first" aria-label="first position">«</button> <button type="button" data-step="prev" aria-label="previous position">◀</button> <input type="range" min="0" max="{{len $g.Moves}}" value="0" aria-label="position"> <button type="button" data-step="next" aria-label="next position">▶</button> <button type="button" data-step="last" aria-label="last position">»</button> <span class="where"></span></div>
<div class="body"><div class="frame" data-ply="0"><img alt="the position"></div>
<ol class="moves">{{range $k, $m := $g.Moves}}<li data-ply="{{inc $k}}"{{if eq (index $g.Movers $k) "chance"}} class="chance"{{end}}>{{index $g.Movers $k}}: {{$m}}</li>{{end}}</ol></div>
{{if $g.Trace}}<svg class="trace" viewBox="-5 -6 610 112" preserveAspectRatio="none" role="img" aria-label="seat 0's chance of winning after each entry"></svg>
<p class="trace-note">Seat 0's chance of winning at each position (top: 100%, the dashed line 50%); circles mark turning points, entries that moved it by 30 points or more. Click the graph to go to a position.</p>{{end}}
</div>
{{end}}
<script>
const examples = {{.}};
for (const viewer of document.querySelectorAll(".viewer")) {
  const game = examples[Number(viewer.dataset.example)];
  // Each position is shown as an image of its SVG: a drawing read back
  // from examples.json is data, and an image runs no script.
  const frame = viewer.querySelector(".frame"), picture = frame.querySelector("img"), slider = viewer.querySelector("input[type=range]");
  const where = viewer.querySelector(".where"), items = viewer.querySelectorAll(".moves li");
  const show = (k) => {
    k = Math.max(0, Math.min(game.frames.length - 1, k));
    picture.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(game.frames[k]);
    picture.alt = k === 0 ? "the start position" : "the position after " + k + " entries";
    frame.dataset.ply = k;
    slider.value = k;
    where.textContent = k === 0 ? "start" : "after " + k + " of " + game.moves.length + ": " + game.movers[k - 1] + " " + game.moves[k - 1];
    items.forEach((li) => li.classList.toggle("current", Number(li.dataset.ply) === k));
    const current = items[k - 1];
    if (current) current.scrollIntoView({block: "nearest"});
    if (cursor) { const cx = k * 600 / Number(cursor.dataset.n); cursor.setAttribute("x1", cx); cursor.setAttribute("x2", cx); }
  };
  // The win-probability trace under the board, as chess GUIs draw an
  // evaluation graph: the line, the 50% line, turning points and a cursor.
  const graph = viewer.querySelector(".trace");
  let cursor = null;
  if (graph && game.trace) {
    const ns = "http://www.w3.org/2000/svg", n = Math.max(game.trace.length - 1, 1);
    const x = (k) => k * 600 / n, y = (p) => 100 - 100 * p;
    const el = (name, attrs) => {
      const e = document.createElementNS(ns, name);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      graph.appendChild(e);
      return e;
    };
    el("line", {class: "even", x1: 0, x2: 600, y1: 50, y2: 50});
    el("polyline", {class: "line", points: game.trace.map((p, k) => x(k) + "," + y(p)).join(" ")});
    cursor = el("line", {class: "cursor", y1: 0, y2: 100});
    for (const t of game.turning || []) el("circle", {class: "turn", cx: x(t + 1), cy: y(game.trace[t + 1]), r: 3});
    graph.addEventListener("click", (e) => {
      const box = graph.getBoundingClientRect();
      show(Math.round((e.clientX - box.left) / box.width * n));
    });
    cursor.dataset.n = n;
  }
  const at = () => Number(frame.dataset.ply);
  const steps = {first: () => 0, prev: () => at() - 1, next: () => at() + 1, last: () => game.frames.length - 1};
  viewer.querySelectorAll("button").forEach((b) => b.addEventListener("click", () => show(steps[b.dataset.step]())));
  slider.addEventListener("input", () => show(Number(slider.value)));
  items.forEach((li) => li.addEventListener("click", () => show(Number(li.dataset.ply))));
  viewer.addEventListener("keydown", (e) => {
    const keys = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"};
    if (keys[e.key]) { e.preventDefault(); show(steps[keys[e.key]]()); }
  });
  // #example-N-ply-K opens example N at position K.
  const m = location.hash.match(/^#example-(\d+)-ply-(\d+)$/);
  const chosen = m && Number(m[1]) === Number(viewer.dataset.example);
  show(chosen ? Number(m[2]) : 0);
  if (chosen) { viewer.scrollIntoView(); viewer.focus(); }
}
</script>
{{end}}`

// viewerPageText is a page holding only the board viewer.
const viewerPageText = pageTop + `{{template "viewerStyle"}}</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="note">Step with the buttons, the slider, a click on a move, or the keys ← → Home End when the viewer has the focus.</p>
{{template "viewer" .Games}}
</body>
</html>
`

var viewerPage = template.Must(template.Must(template.New("viewer.html").Funcs(funcs).Funcs(template.FuncMap{"code": codeSpans}).Parse(viewerText)).Parse(viewerPageText))

// WriteViewerPage writes a self-contained page of the board viewer for
// games (playtest replay --html).
func WriteViewerPage(w io.Writer, title string, games []ExampleGame) error {
	return viewerPage.Execute(w, struct {
		Title string
		Games []ExampleGame
	}{title, games})
}

// WriteHTML writes report.html: one self-contained page (styles inline,
// plots as inline PNG images); html/template escapes every string that
// comes from the run.
func (r *Report) WriteHTML(w io.Writer) error { return page.Execute(w, r) }

const htmlText = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{{with .Summary}}<title>{{oneLine .VariantLabel}} ({{oneLine .Game}}): playtest report</title>{{end}}
<style>
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border-bottom: 1px solid #ddd; padding: 0.3rem 0.7rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure { margin: 1.5rem 0; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
.note { color: #555; }
.headline { font-size: 1.1rem; background: #f4f7fb; padding: 0.7rem 1rem; border-left: 4px solid #36c; }
img.mini { width: 9rem; border: none; }
.lead { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
.lead .headline { flex: 1 1 20rem; margin: 1rem 0; }
.lead figure { flex: 1 1 26rem; margin: 1rem 0; }
.warning { background: #fff7e0; padding: 0.5rem 1rem; border-left: 4px solid #e0a000; }
details.rules { margin: 0.5rem 0; }
details.rules summary { cursor: pointer; color: #36c; }
tr.changed td { background: #fff7e0; font-weight: bold; }
{{template "viewerStyle"}}
</style>
</head>
<body>
{{with .Summary}}
<h1>{{.VariantLabel}} <small>({{.Game}})</small></h1>
<p>{{.Games}} games{{if .Pairs}} in seat-swapped pairs{{end}}, seed {{.Seed}}, config <code>{{.ConfigHash}}</code>.{{if .Opening}} Every game starts after the opening <code>{{join .Opening}}</code>.{{end}}{{with .BookBotText}} {{.}}{{end}}
Players: {{range $i, $p := .Players}}{{if $i}} vs {{end}}{{$p.Describe}}{{end}}. Seat 0 moved first.
Rates have 95% Wilson intervals{{if eq .Rates.Interval "paired-wilson"}}; the seat and draw rates' intervals are over the seat-swapped pairs, whose two games are not independent{{end}}.</p>
{{with $.Knobs}}<details class="rules"><summary>Rules: every knob{{with $.Summary.RuleChanges}} ({{len .}} changed by <code>--set</code>, marked){{end}}</summary>
<table>
<tr><th>knob</th><th>value</th><th>as written</th></tr>
{{range .}}<tr{{if .Changed}} class="changed"{{end}}><td><code>{{.Name}}</code></td><td><code>{{.Value}}</code></td><td>{{if .Changed}}<code>{{.From}}</code>{{end}}</td></tr>
{{end}}</table>
</details>{{end}}
<div class="lead">
{{if .Headline.Text}}<p class="headline"><strong>{{code .Headline.Text}}</strong></p>{{end}}
{{with $.LeadFigure}}<figure>
<img alt="{{.Caption}}" src="{{pngData .PNGBase64}}">
<figcaption>{{.Caption}} (<a href="{{.SVG}}">SVG</a>, <a href="{{.PNG}}">PNG</a>)</figcaption>
</figure>{{end}}
</div>
{{range .Warnings}}<p class="warning">⚠ <strong>{{.Code}}</strong>: {{code .Message}}</p>
{{end}}
<h2>Outcomes</h2>
<table>
<tr><th>result</th><th>games</th><th>rate</th><th>95% CI</th></tr>
<tr><td>seat 0 wins</td><td>{{.Rates.Seat0.Count}}</td><td>{{pct .Rates.Seat0.Rate}}</td><td>{{ci .Rates.Seat0.Low .Rates.Seat0.High}}</td></tr>
<tr><td>seat 1 wins</td><td>{{.Rates.Seat1.Count}}</td><td>{{pct .Rates.Seat1.Rate}}</td><td>{{ci .Rates.Seat1.Low .Rates.Seat1.High}}</td></tr>
<tr><td>draws</td><td>{{.Rates.Draw.Count}}</td><td>{{pct .Rates.Draw.Rate}}</td><td>{{ci .Rates.Draw.Low .Rates.Draw.High}}</td></tr>
{{- $s := .}}{{range keys .DrawReasons}}{{$r := $s.DrawReasonRate .}}
<tr><td>draws: {{.}}{{if stalled .}} (stalled){{end}}</td><td>{{$r.Count}}</td><td>{{pct $r.Rate}}</td><td>{{ci $r.Low $r.High}}</td></tr>{{end}}
{{- range .Sides}}
<tr><td>side {{.Name}} wins</td><td>{{.Wins.Count}}</td><td>{{pct .Wins.Rate}}</td><td>{{ci .Wins.Low .Wins.High}}</td></tr>{{end}}
{{- range $i, $p := .Players}}
<tr><td>player {{$i}} ({{$p.Bot}}) W-D-L, score</td><td>{{$p.Wins}}-{{$p.Draws}}-{{$p.Losses}}</td><td>{{pct $p.Score.Mean}}</td><td>{{ci $p.Score.Low $p.Score.High}}</td></tr>{{end}}
</table>
{{if .WinReasons}}<p>Wins by reason: {{reasons .WinReasons}}.</p>{{end}}

<h2>Balance</h2>
<table>
<tr><th>metric</th><th>value</th><th>95% CI</th><th>n</th></tr>
<tr><td>Balance: 1 − |seat 0 − seat 1 win rate|</td><td>{{num .Balance.Balance.Value}}</td><td>{{num .Balance.Balance.Low}} – {{num .Balance.Balance.High}}</td><td>{{.Games}}</td></tr>
<tr><td>AdvantageP1: seat 0's wins</td><td>{{pct .Balance.AdvantageP1.Rate}}</td><td>{{ci .Balance.AdvantageP1.Low .Balance.AdvantageP1.High}}</td><td>{{.Balance.AdvantageP1.N}}</td></tr>
<tr><td>Completion: games with a winner</td><td>{{pct .Balance.Completion.Rate}}</td><td>{{ci .Balance.Completion.Low .Balance.Completion.High}}</td><td>{{.Balance.Completion.N}}</td></tr>
<tr><td>Drawishness: draws, stalled apart</td><td>{{pct .Balance.Drawishness.Rate}}</td><td>{{ci .Balance.Drawishness.Low .Balance.Drawishness.High}}</td><td>{{.Balance.Drawishness.N}}</td></tr>
<tr><td>Timeouts: stalled games</td><td>{{pct .Balance.Timeouts.Rate}}</td><td>{{ci .Balance.Timeouts.Low .Balance.Timeouts.High}}</td><td>{{.Balance.Timeouts.N}}</td></tr>
<tr><td>DurationTurns: mean plies (bootstrap CI)</td><td>{{num .Balance.DurationTurns.Value}}</td><td>{{num .Balance.DurationTurns.Low}} – {{num .Balance.DurationTurns.High}}</td><td>{{.Games}}</td></tr>
<tr><td>DecisionMoves: decisions with a choice</td><td>{{pct .Balance.DecisionMoves}}</td><td></td><td>{{.Balance.CountedDecisions}}</td></tr>
<tr><td>BranchingFactor: legal moves per decision</td><td>{{num .Balance.BranchingFactor}}</td><td></td><td>{{.Balance.CountedDecisions}}</td></tr>
</table>
<p>Seat bias: {{biasTest .Balance}}, p = {{p .Balance.SeatBiasP}}.{{if .PairStats}} Every interval of this table but DurationTurns' is over the seat-swapped pairs (the two games of a deal are not independent).{{end}}</p>
{{with .PairStats}}
<h2>Seat-swapped pairs (pentanomial)</h2>
<table>
<tr><th>score per game</th><th>pairs</th><th>score</th><th>95% CI</th></tr>
<tr><td>seat 0 (first-move advantage)</td><td>{{.Seat0.Pairs}}</td><td>{{pct .Seat0.Score}}</td><td>{{ci .Seat0.CI.Low .Seat0.CI.High}}</td></tr>
<tr><td>player 0 (strength)</td><td>{{.Player0.Pairs}}</td><td>{{pct .Player0.Score}}</td><td>{{ci .Player0.CI.Low .Player0.CI.High}}</td></tr>
</table>
<p>Within-pair correlation of seat 0's score: {{num .Correlation}} (above 0: a deal favours the same seat in both its games, so a pair is worth less than two independent games).</p>
{{end}}
{{with .Openings}}
<h2>Openings</h2>
<p>The first decision of each game: {{.Distinct}} distinct over {{.Games}} games.</p>
<table>
{{- $boards := $.OpeningBoards}}
<tr><th>opening</th>{{if $boards}}<th>position after it</th>{{end}}<th>games</th><th>share</th><th>seat 0 wins</th><th>95% CI</th>{{if .HasSwap}}<th>swapped (pie)</th>{{end}}</tr>
{{- $swap := .HasSwap}}{{range .Rows}}
<tr><td>{{if .Others}}<em>{{.Move}}</em>{{else}}<code>{{.Move}}</code>{{end}}</td>{{if $boards}}<td>{{with index $boards .Move}}<img class="mini" alt="the position after the opening" src="{{svgData .}}">{{end}}</td>{{end}}<td>{{.Share.Count}}</td><td>{{pct .Share.Rate}}</td><td>{{pct .Seat0Wins.Rate}}</td><td>{{ci .Seat0Wins.Low .Seat0Wins.High}}</td>{{if $swap}}<td>{{with .Swap}}{{pct .Rate}}{{end}}</td>{{end}}</tr>{{end}}
</table>
{{end}}
<h2>Game length</h2>
<p>Plies: mean {{num .Plies.Mean}}, median {{.Plies.Median}}, 5% {{.Plies.P05}}, 95% {{.Plies.P95}}, min {{.Plies.Min}}, max {{.Plies.Max}}.</p>
{{range $.LengthFigures}}<figure>
<img alt="{{.Caption}}" src="{{pngData .PNGBase64}}">
<figcaption>{{.Caption}} (<a href="{{.SVG}}">SVG</a>, <a href="{{.PNG}}">PNG</a>)</figcaption>
</figure>
{{end}}{{with .HowItPlays}}<section id="how-it-plays">
<h2>How it plays</h2>
{{with .Summary}}<p class="headline">{{.}}</p>{{end}}
<p class="note">{{traceNote .}}</p>
<table class="how-it-plays">
<tr><th>figure</th><th>value</th><th>95% CI</th><th>n</th></tr>
{{- range .Figures}}
<tr><td><a href="#{{.Anchor}}">{{.Title}}</a></td><td>{{.Format .Value}}</td><td>{{.Format .Low}} – {{.Format .High}}</td><td>{{.N}}</td></tr>{{end}}
</table>
{{range $.PlayFigures}}<figure>
<img alt="{{.Caption}}" src="{{pngData .PNGBase64}}">
<figcaption>{{.Caption}} (<a href="{{.SVG}}">SVG</a>, <a href="{{.PNG}}">PNG</a>)</figcaption>
</figure>
{{end}}{{with .Reliability}}<h3>How far the chances come true</h3>
<p class="note">{{.Summary}}</p>
<table class="reliability">
<tr><th>chance</th><th>decisions</th><th>games (different)</th><th>predicted</th><th>observed</th><th>observed − predicted (95% CI, by game)</th></tr>
{{- range .Deciles}}{{if .Entries}}
<tr><td>{{pct .Low}} – {{pct .High}}</td><td>{{.Entries}}</td><td>{{.Games}}{{if ne .Games .DifferentGames}} ({{.DifferentGames}}){{end}}</td><td>{{pct .Predicted}}</td><td>{{pct .Observed}}</td><td>{{gap .Gap}} [{{gap .GapLow}}, {{gap .GapHigh}}]</td></tr>{{end}}{{end}}
</table>
{{end}}<h3>What the figures mean</h3>
<dl class="glossary">{{range .Figures}}
<dt id="{{.Anchor}}">{{.Title}} (<code>{{.Name}}</code>)</dt><dd>{{describe .Name}}</dd>{{end}}
</dl>
</section>
{{end}}{{if .Metrics}}
<h2>Game-specific figures</h2>
<table>
<tr><th>metric</th><th>n</th><th>value</th><th>95% CI</th><th>bootstrap 95% CI</th><th>min – max</th></tr>
{{- range .Metrics}}{{if .Rate}}
<tr><td>{{.Name}}</td><td>{{.Rate.N}}</td><td>{{pct .Rate.Rate}}</td><td>{{ci .Rate.Low .Rate.High}}</td><td></td><td></td></tr>{{else}}
<tr><td>{{.Name}}</td><td>{{.Mean.N}}</td><td>{{num .Mean.Mean}}</td><td>{{meanCI .Mean}}</td><td>{{with .Mean.Bootstrap}}{{num .Low}} – {{num .High}}{{end}}</td><td>{{num .Mean.Min}} – {{num .Mean.Max}}</td></tr>{{end}}{{end}}
</table>
{{if hasDocs .Metrics}}<h3>Glossary</h3>
<dl class="glossary">{{range .Metrics}}{{if .Doc}}
<dt><code>{{.Name}}</code></dt><dd>{{.Doc}}</dd>{{end}}{{end}}
</dl>{{end}}
{{end}}{{end}}
<h2>Plots</h2>
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{range .OtherFigures}}<figure>
<img alt="{{.Caption}}" src="{{pngData .PNGBase64}}">
<figcaption>{{.Caption}} (<a href="{{.SVG}}">SVG</a>, <a href="{{.PNG}}">PNG</a>)</figcaption>
</figure>
{{end}}
{{with .Examples}}{{if .Games}}
<h2>Example games</h2>
<p class="note">A few telling games of the run, every position drawn. Step with the buttons, the slider, a click on a move, or the keys ← → Home End when a viewer has the focus. <code>playtest replay DIR --game N</code> prints any game.</p>
{{template "viewer" .Games}}
{{end}}{{end}}
<p class="note">{{footer}}</p>
</body>
</html>
`
