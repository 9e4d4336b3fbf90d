package publish_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image"
	"image/color"
	"image/png"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/palette/moreland"

	"playtest/games"
	"playtest/reports"
	"playtest/reports/publish"
	"playtest/runs/rundir"
	"playtest/studies/sweep"
	"playtest/variants"
)

// browser finds headless Chromium. Without it the test is skipped, unless
// PLAYTEST_REQUIRE_BROWSER is set (as .ci/run does after installing
// Debian's chromium), when it fails.
func browser(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("PLAYTEST_REQUIRE_BROWSER") != "" {
		t.Fatal("PLAYTEST_REQUIRE_BROWSER is set but no chromium is installed")
	}
	t.Skip("no chromium (apt-get install chromium); set PLAYTEST_REQUIRE_BROWSER to make this a failure")
	return ""
}

// consoleLine matches a page's console message in Chromium's log.
var consoleLine = regexp.MustCompile(`CONSOLE[:(]|Uncaught|Not allowed to load`)

// chrome runs headless Chromium on a file and returns its stdout and the
// page's console lines from its log.
func chrome(t *testing.T, bin, page string, args ...string) (stdout []byte, console []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--hide-scrollbars", "--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}
	cmd := exec.CommandContext(ctx, bin, append(append(base, args...), "file://"+page)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	for _, line := range strings.Split(errb.String(), "\n") {
		if consoleLine.MatchString(line) {
			console = append(console, line)
		}
	}
	return out.Bytes(), console
}

// runInto plays a preset with overrides into a fresh run directory.
func runInto(t *testing.T, preset string, sets ...string) (string, *variants.Config) {
	t.Helper()
	var overrides []variants.Override
	for _, kv := range sets {
		path, value, _ := strings.Cut(kv, "=")
		overrides = append(overrides, variants.Override{Path: path, Value: value, Origin: "test"})
	}
	cfg, err := variants.Load(preset, overrides)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := rundir.RunToDir(context.Background(), cfg, rundir.DirOptions{Options: rundir.Options{Workers: 1}}, dir); err != nil {
		t.Fatal(err)
	}
	return dir, cfg
}

// screenshot renders page in a window of the given size and decodes it.
func screenshot(t *testing.T, bin, page, size string) image.Image {
	t.Helper()
	shot := filepath.Join(t.TempDir(), "shot.png")
	// Virtual time lets the page finish decoding its inline images however
	// loaded the machine is.
	chrome(t, bin, page, "--window-size="+size, "--virtual-time-budget=10000", "--screenshot="+shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestHTMLReportInBrowser opens a run's report.html in headless Chromium:
// the page loads without console errors, every plot is an image in the
// page, and a screenshot shows the plots' bar colour.
func TestHTMLReportInBrowser(t *testing.T) {
	bin := browser(t)
	// The console check can fail: a page that logs an error is caught.
	bad := filepath.Join(t.TempDir(), "bad.html")
	if err := os.WriteFile(bad, []byte(`<!DOCTYPE html><html><body><script>console.error("boom")</script></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, console := chrome(t, bin, bad, "--dump-dom"); len(console) == 0 {
		t.Fatal("a console.error went unnoticed: the console check cannot fail")
	}

	dir, _ := runInto(t, "stacks/base", "games=40", "players.0=greedy", "players.1=greedy")
	page := filepath.Join(dir, "report.html")

	dom, console := chrome(t, bin, page, "--dump-dom")
	if len(console) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
	}
	// Every STACKS game lasts 24 plies: a sentence, not a one-bar histogram.
	if n := len(regexp.MustCompile(`<img alt="[^"]*" src="data:image/png;base64,`).FindAllIndex(dom, -1)); n != 4 {
		t.Errorf("%d plots in the page, want 4 (outcomes, margin, and How it plays' traces and decided share)", n)
	}
	if !strings.Contains(string(dom), "every one of the 40 games had plies 24") {
		t.Error("the page lacks the note that stands in for the length histogram")
	}
	if !strings.Contains(string(dom), "stacks/base") {
		t.Error("the page lacks the variant's name")
	}

	img := screenshot(t, bin, page, "1100,3200")
	nonWhite, bars := pixels(img)
	total := img.Bounds().Dx() * img.Bounds().Dy()
	if nonWhite < total/50 {
		t.Errorf("screenshot nearly blank: %d of %d pixels not white", nonWhite, total)
	}
	if bars < 500 {
		t.Errorf("screenshot shows %d pixels of the plots' bar colour: the plots are not drawn", bars)
	}
	// The outcome chart leads with seat 0's score, in its own colour, the
	// 50% line under it (issue 43).
	if score := count(img, color.RGBA{R: 200, G: 120, B: 40}); score < 300 {
		t.Errorf("screenshot shows %d pixels of the score bar's colour: the outcome chart has no score bar", score)
	}
	keepScreenshot(t, img, "report-outcomes.png")
}

// keepScreenshot writes img to $PLAYTEST_SCREENSHOTS/name when that is
// set, for docs/screenshots.
func keepScreenshot(t *testing.T, img image.Image, name string) {
	dir := os.Getenv("PLAYTEST_SCREENSHOTS")
	if dir == "" {
		return
	}
	f, err := os.Create(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// count is the number of img's pixels within 8 of c in every channel.
func count(img image.Image, c color.Color) int {
	want := color.RGBAModel.Convert(c).(color.RGBA)
	n := 0
	b := img.Bounds()
	close := func(v uint32, w uint8) bool { return v>>8+8 >= uint32(w) && v>>8 <= uint32(w)+8 }
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if close(r, want.R) && close(g, want.G) && close(bl, want.B) {
				n++
			}
		}
	}
	return n
}

// TestSweepHeatMapColoursByScore (issue 43): a heat map of seat 0's wins
// is coloured by seat 0's score, a draw counting ½: four variants that
// each score exactly 50% (with 0%, 10%, 20% and 40% draws, so 50% down to
// 30% of wins) are all painted the scale's even colour, none the colour
// of either end.
func TestSweepHeatMapColoursByScore(t *testing.T) {
	bin := browser(t)
	row := func(label string, values []string, wins, draws int) sweep.Row {
		const n = 200
		rate := func(k int) reports.Rate { return reports.NewRate(k, n) }
		return sweep.Row{Label: label, Values: values, Games: n,
			RatesAndLength: reports.RatesAndLength{Seat0: rate(wins), Seat1: rate(wins), Draws: rate(draws)},
			Metric:         reports.MetricEstimate{Value: rate(wins).Rate, Low: rate(wins).Low, High: rate(wins).High, N: n}}
	}
	res := &sweep.Result{Schema: sweep.SchemaV1, Name: "even scores", Source: "test", Metric: "seat0_wins", MetricRate: true,
		Correction: sweep.Holm, Alpha: 0.05, Games: 200, Seed: 1, Pairs: true,
		Axes: []sweep.AxisInfo{{Name: "a", Labels: []string{"x", "y"}}, {Name: "b", Labels: []string{"u", "v"}}},
		Rows: []sweep.Row{row("a=x, b=u", []string{"x", "u"}, 100, 0), row("a=x, b=v", []string{"x", "v"}, 90, 20),
			row("a=y, b=u", []string{"y", "u"}, 80, 40), row("a=y, b=v", []string{"y", "v"}, 60, 80)}}
	dir := t.TempDir()
	if err := res.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	img := screenshot(t, bin, filepath.Join(dir, "plots", sweep.PlotName+".svg"), "1300,900")
	keepScreenshot(t, img, "sweep-heat-map-by-score.png")
	cmap := moreland.SmoothBlueRed()
	cmap.SetMin(0.45)
	cmap.SetMax(0.55)
	even, _ := cmap.At(0.5)
	blue, _ := cmap.At(0.45)
	red, _ := cmap.At(0.55)
	if n := count(img, even); n < 40000 {
		t.Errorf("%d pixels of the even colour: the four even cells are not painted even", n)
	}
	// The legend's swatches hold a few pixels of each end.
	if b, r := count(img, blue), count(img, red); b > 3000 || r > 3000 {
		t.Errorf("%d pixels of the blue end and %d of the red: an even cell is painted by its win rate", b, r)
	}
}

// TestBoardViewerInBrowser opens a run's report.html at an example game's
// position k (#example-N-ply-K) in headless Chromium and compares the
// board the viewer shows with the engine's drawing of the game after k
// entries, for every example and a few positions.
func TestBoardViewerInBrowser(t *testing.T) {
	bin := browser(t)
	dir, cfg := runInto(t, "stacktics/size3", "games=30", "players.0.nodes=200", "players.1.nodes=200")
	b, err := os.ReadFile(filepath.Join(dir, publish.ExamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	var ex publish.Examples
	if err := json.Unmarshal(b, &ex); err != nil || len(ex.Games) < 2 {
		t.Fatalf("examples: %v, %d games", err, len(ex.Games))
	}
	texts := regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)
	textsOf := func(svg string) []string {
		var out []string
		for _, m := range texts.FindAllStringSubmatch(svg, -1) {
			out = append(out, html.UnescapeString(m[1]))
		}
		return out
	}
	page := filepath.Join(dir, "report.html")
	for n, game := range ex.Games[:min(3, len(ex.Games))] {
		for _, k := range []int{len(game.Moves) / 2, len(game.Moves)} {
			dom, console := chrome(t, bin, fmt.Sprintf("%s#example-%d-ply-%d", page, n, k), "--dump-dom")
			if len(console) > 0 {
				t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
			}
			frame := regexp.MustCompile(fmt.Sprintf(`(?s)id="example-%d".*?<div class="frame" data-ply="(\d+)"><img [^>]*src="data:image/svg\+xml;charset=utf-8,([^"]*)"`, n)).FindStringSubmatch(string(dom))
			if frame == nil || frame[1] != fmt.Sprint(k) {
				t.Fatalf("example %d: the viewer did not open at position %d", n, k)
			}
			svg, err := url.PathUnescape(html.UnescapeString(frame[2]))
			if err != nil {
				t.Fatal(err)
			}
			// The engine's own position after k entries.
			s := mustGame(t, cfg).NewState()
			for _, text := range game.Moves[:k] {
				m, err := s.ParseMove(text)
				if err != nil {
					t.Fatal(err)
				}
				s.Apply(m)
			}
			want := textsOf(s.(games.Drawer).DrawSVG())
			if got := textsOf(svg); !slices.Equal(got, want) {
				t.Errorf("example %d after %d entries: the viewer shows %q, the engine %q", n, k, got, want)
			}
		}
	}
	dom, _ := chrome(t, bin, page, "--dump-dom")
	for _, want := range []string{`aria-label="next position"`, `tabindex="0"`, `type="range"`, "Example games"} {
		if !strings.Contains(string(dom), want) {
			t.Errorf("the viewer lacks %q", want)
		}
	}
}

func mustGame(t *testing.T, cfg *variants.Config) games.Game {
	t.Helper()
	g, err := cfg.NewGame()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSweepPageInBrowser opens a sweep's sweep.html, a Markdown page with
// its heat map inlined, in headless Chromium: no console errors, the table
// and the plot are in the page, and the heat map's cells are drawn.
func TestSweepPageInBrowser(t *testing.T) {
	bin := browser(t)
	dir := t.TempDir()
	sw, err := sweep.Load("stacktics-size2")
	if err != nil {
		t.Fatal(err)
	}
	opts := sweep.Options{Workers: 1, Out: dir}
	cfgs, points, err := sweep.Prepare(sw, []variants.Override{
		{Path: "games", Value: "20", Origin: "test"},
		{Path: "players.0", Value: "greedy", Origin: "test"},
		{Path: "players.1", Value: "random", Origin: "test"},
	}, &opts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sweep.Run(context.Background(), sw, cfgs, points, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, sweep.HTMLFile)
	dom, console := chrome(t, bin, page, "--dump-dom")
	if len(console) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
	}
	for _, want := range []string{"<table>", `src="data:image/svg+xml;base64,`, "seat 0 wins (95% CI)"} {
		if !strings.Contains(string(dom), want) {
			t.Errorf("sweep.html lacks %q", want)
		}
	}
	img := screenshot(t, bin, page, "1200,2000")
	if nonWhite, _ := pixels(img); nonWhite < img.Bounds().Dx()*img.Bounds().Dy()/20 {
		t.Errorf("screenshot nearly blank (%d pixels not white): the heat map is not drawn", nonWhite)
	}
}

// pixels counts the pixels that are not white, and those of the bar colour
// (70, 120, 180) the plots fill their bars with.
func pixels(img image.Image) (nonWhite, bars int) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if r < 245 || g < 245 || bl < 245 {
				nonWhite++
			}
			if near(r, 70) && near(g, 120) && near(bl, 180) {
				bars++
			}
		}
	}
	return nonWhite, bars
}

func near(v, want uint32) bool { return v+6 >= want && v <= want+6 }

// TestHostileExampleFramesRunNoScript (issue 31): examples.json is read
// back by playtest report, so its drawings are data: a frame holding an
// element with an event handler, or an SVG with a script, must run nothing
// when report.html opens.
func TestHostileExampleFramesRunNoScript(t *testing.T) {
	bin := browser(t)
	dir, _ := runInto(t, "stacktics/size2", "games=4", "players.0=random", "players.1=random")
	path := filepath.Join(dir, publish.ExamplesFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ex publish.Examples
	if err := json.Unmarshal(b, &ex); err != nil || len(ex.Games) == 0 {
		t.Fatalf("examples: %v", err)
	}
	frames := ex.Games[0].Frames
	frames[0] = `<img src=x onerror="document.title='pwned-img'">`
	frames[len(frames)-1] = `<svg xmlns="http://www.w3.org/2000/svg"><script>document.title='pwned-svg'</script><rect width="9" height="9" onload="document.title='pwned-load'"/></svg>`
	b, _ = json.Marshal(ex)
	os.WriteFile(path, b, 0o644)
	if err := publish.Write(dir); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	for _, k := range []int{0, len(frames) - 1} {
		dom, _ := chrome(t, bin, fmt.Sprintf("%s#example-0-ply-%d", page, k), "--dump-dom", "--virtual-time-budget=2000")
		if bytes.Contains(dom, []byte("pwned")) && !bytes.Contains(dom, []byte("data:image/svg+xml")) || regexp.MustCompile(`<title>[^<]*pwned`).Match(dom) {
			t.Errorf("position %d: a frame's script ran", k)
		}
		if bytes.Contains(dom, []byte(`<img src="x"`)) {
			t.Errorf("position %d: a frame's element entered the page", k)
		}
	}
}

// TestHowItPlaysInBrowser opens a run's report.html in headless Chromium:
// the How it plays section holds its summary, every figure with its
// interval, both pictures and the definitions under their anchors; a
// screenshot of the section shows the traces' colours and the bars.
func TestHowItPlaysInBrowser(t *testing.T) {
	bin := browser(t)
	dir, _ := runInto(t, "stacktics/size3", "games=30", "players.0.nodes=200", "players.1.nodes=200")
	page := filepath.Join(dir, "report.html")
	dom, console := chrome(t, bin, page, "--dump-dom")
	if len(console) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
	}
	section := regexp.MustCompile(`(?s)<section id="how-it-plays">.*?</section>`).Find(dom)
	if section == nil {
		t.Fatal("report.html has no How it plays section")
	}
	// The length histogram stands in its own section, not under Plots
	// (issue 53).
	length := regexp.MustCompile(`(?s)<h2>Game length</h2>.*?<h2>`).Find(dom)
	if !bytes.Contains(length, []byte(`<img alt="Game length in plies" src="data:image/png;base64,`)) {
		t.Errorf("the Game length section has no figure:\n%.600s", length)
	}
	if plotsSection := regexp.MustCompile(`(?s)<h2>Plots</h2>.*`).Find(dom); bytes.Contains(plotsSection, []byte(`alt="Game length in plies"`)) {
		t.Error("the length histogram is still under Plots")
	}
	for _, want := range []string{"A decisive game is decided", `href="#fig-lead_changes"`, `id="fig-lead_changes"`, `href="#fig-after_decided"`,
		"Board coverage", "Positional repetition", "Clarity", `alt="How games unfold`, `alt="How much of each decisive game`} {
		if !bytes.Contains(section, []byte(want)) {
			t.Errorf("How it plays lacks %q", want)
		}
	}
	// The section alone, the rest of the page hidden.
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	alone := filepath.Join(dir, "how-it-plays.html")
	b = bytes.Replace(b, []byte("</head>"), []byte("<style>body > *:not(#how-it-plays) { display: none !important; }</style></head>"), 1)
	if err := os.WriteFile(alone, b, 0o644); err != nil {
		t.Fatal(err)
	}
	img := screenshot(t, bin, alone, "1100,2600")
	// The traces' first colour (Dark2's green) and the histogram's bars.
	if green := count(img, color.RGBA{R: 27, G: 158, B: 119}); green < 200 {
		t.Errorf("screenshot shows %d pixels of the traces' first colour: the traces are not drawn", green)
	}
	if _, bars := pixels(img); bars < 500 {
		t.Errorf("screenshot shows %d pixels of the bars' colour: the decided-share histogram is not drawn", bars)
	}
	keepScreenshot(t, img, "how-it-plays.png")

	// Each histogram, as the browser draws its SVG: its tallest bar stands
	// clear of the title, not cut by the frame (issue 53).
	for _, name := range []string{publish.AfterDecidedFigure, publish.LengthFigure} {
		shot := screenshot(t, bin, filepath.Join(dir, "plots", name+".svg"), "1000,640")
		if gap, ok := barClearance(shot); !ok || gap < shot.Bounds().Dy()/40 {
			t.Errorf("%s.svg: the tallest bar stands %d pixels below the title (found %v): the frame cuts it", name, gap, ok)
		}
	}
}

// barClearance is the rows between the end of a plot's title (its first
// run of rows with ink) and the topmost pixel of the bars' colour.
func barClearance(img image.Image) (int, bool) {
	b := img.Bounds()
	inked := func(y int) (ink, bar bool) {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if r < 200 || g < 200 || bl < 200 {
				ink = true
			}
			if near(r, 70) && near(g, 120) && near(bl, 180) {
				bar = true
			}
		}
		return ink, bar
	}
	titleEnd, seenTitle := -1, false
	for y := b.Min.Y; y < b.Max.Y; y++ {
		ink, bar := inked(y)
		switch {
		case bar:
			if titleEnd < 0 {
				return 0, false
			}
			return y - titleEnd, true
		case ink && !seenTitle:
			seenTitle = true
		case !ink && seenTitle && titleEnd < 0:
			titleEnd = y
		}
	}
	return 0, false
}

// TestViewerTraceInBrowser: the board viewer draws an example game's
// win-probability trace under the board, a point per position, its
// turning points ringed and a cursor on the position shown.
func TestViewerTraceInBrowser(t *testing.T) {
	bin := browser(t)
	dir, _ := runInto(t, "stacktics/size3", "games=30", "players.0.nodes=200", "players.1.nodes=200")
	b, err := os.ReadFile(filepath.Join(dir, publish.ExamplesFile))
	if err != nil {
		t.Fatal(err)
	}
	var ex publish.Examples
	if err := json.Unmarshal(b, &ex); err != nil || len(ex.Games) == 0 {
		t.Fatalf("examples: %v", err)
	}
	game := ex.Games[0]
	for _, g := range ex.Games {
		if len(g.Turning) > 0 {
			game = g // one with a turning point to ring
			break
		}
	}
	if len(game.Trace) != len(game.Frames) {
		t.Fatalf("example %d: a trace of %d for %d frames", game.Index, len(game.Trace), len(game.Frames))
	}
	page := filepath.Join(dir, "viewer.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := publish.WriteViewerPage(f, "trace", []publish.ExampleGame{game}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	dom, console := chrome(t, bin, page+"#example-0-ply-3", "--dump-dom")
	if len(console) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(console, "\n"))
	}
	points := regexp.MustCompile(`<polyline class="line" points="([^"]*)"`).FindSubmatch(dom)
	if points == nil || len(strings.Fields(string(points[1]))) != len(game.Trace) {
		t.Fatalf("the trace's line: %q, want %d points", points, len(game.Trace))
	}
	if n := strings.Count(string(dom), `<circle class="turn"`); n != len(game.Turning) {
		t.Errorf("%d turning points ringed, want %d", n, len(game.Turning))
	}
	cursor := regexp.MustCompile(`<line class="cursor"[^>]* x1="([0-9.]+)"`).FindSubmatch(dom)
	want := 3 * 600 / float64(len(game.Trace)-1)
	if x, err := strconv.ParseFloat(string(cursor[1]), 64); cursor == nil || err != nil || math.Abs(x-want) > 0.01 {
		t.Errorf("the cursor %q is not at position 3 (x %.2f)", cursor, want)
	}
	img := screenshot(t, bin, page, "1100,900")
	if line := count(img, color.RGBA{R: 43, G: 108, B: 176}); line < 100 {
		t.Errorf("screenshot shows %d pixels of the trace's colour under the board", line)
	}
	keepScreenshot(t, img, "viewer-trace.png")
}
