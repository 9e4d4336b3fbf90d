package learn

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"playtest/internal/testenv"
	"playtest/variants"
)

// TestChooseFit: a choice among fits by play fits each candidate on its own
// seed (the first the plain fit's), keeps the best rated in the round
// robin, confirms it with the head-to-head a plain fit of its seed plays,
// writes the same model at 1 and 2 workers, and is refused without games
// to choose by.
func TestChooseFit(t *testing.T) {
	testenv.SkipUnderRace(t)
	over := []variants.Override{{Path: "players.0.nodes", Value: "150"}, {Path: "players.1.nodes", Value: "150"}}
	cfg, err := variants.Load("stacktics/size2", over)
	if err != nil {
		t.Fatal(err)
	}
	opts := FitOptions{Games: 200, Tuples: 12, Length: 3, Result: DefaultFitResult, Rate: DefaultFitRate, Epochs: DefaultFitEpochs, Seed: 4, HeadToHead: 20}
	var stages []string
	opts.OnStage = func(stage, unit string, total int) { stages = append(stages, stage) }
	var files [2]string
	var chosen *FitTraining
	for i := range files {
		opts.Workers = i + 1
		m, tr, err := ChooseFit(context.Background(), cfg, opts, 3)
		if err != nil {
			t.Fatal(err)
		}
		files[i] = modelFile(t, m, tr)
		if i > 0 {
			continue
		}
		chosen = tr
		c := tr.Choice
		if c == nil || len(c.Candidates) != 3 || c.Games != 20 || tr.HeadToHead == nil || tr.HeadToHead.Games != 20 {
			t.Fatalf("choice %+v, head-to-head %+v", c, tr.HeadToHead)
		}
		for k, cand := range c.Candidates {
			if cand.Seed != opts.Seed+uint64(k) || cand.LogLoss <= 0 {
				t.Errorf("candidate %d: %+v, want seed %d", k+1, cand, opts.Seed+uint64(k))
			}
			if cand.Elo.Elo > c.Candidates[c.Chosen].Elo.Elo {
				t.Errorf("candidate %d rates %+.0f, above the chosen %d's %+.0f", k+1, cand.Elo.Elo, c.Chosen+1, c.Candidates[c.Chosen].Elo.Elo)
			}
		}
		if tr.Seed != opts.Seed+uint64(c.Chosen) {
			t.Errorf("the kept record's seed %d is not the chosen candidate's %d", tr.Seed, opts.Seed+uint64(c.Chosen))
		}
		t.Logf("stages %q; choice %+v; confirmation %+v", stages, c, tr.HeadToHead)
		// The first candidate's games are the first stage, which the
		// caller's reporter starts.
		if want := []string{"candidate 2 of 3", "candidate 3 of 3", "round robin", "confirming candidate 2"}; len(stages) != 4 || stages[0] != want[0] || stages[1] != want[1] || stages[2] != want[2] ||
			stages[3] != "confirming candidate "+fmt.Sprint(c.Chosen+1) {
			t.Errorf("stages %q: want the later candidates' games, the round robin and the confirmation", stages)
		}
		// The kept model is the plain fit of its seed, and its
		// confirmation is the head-to-head that fit plays.
		plain := opts
		plain.Seed, plain.OnStage = opts.Seed+uint64(c.Chosen), nil
		pm, ptr, err := FitNTuple(context.Background(), cfg, plain)
		if err != nil {
			t.Fatal(err)
		}
		m.Training, pm.Training = nil, nil
		if modelFile(t, m, nil) != modelFile(t, pm, nil) {
			t.Error("the kept model is not the plain fit of its seed")
		}
		if *ptr.HeadToHead != *tr.HeadToHead {
			t.Errorf("confirmation %+v, the plain fit's head-to-head %+v", tr.HeadToHead, ptr.HeadToHead)
		}
	}
	if files[0] != files[1] {
		t.Error("the same seed chose another model at 2 workers")
	}
	var text strings.Builder
	if err := chosen.WriteChoice(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "Chosen by play: candidate ") || !strings.Contains(text.String(), "played again on a seed of its own") || strings.Count(text.String(), "chosen") != 1 {
		t.Errorf("the choice as said:\n%s", text.String())
	}
	one := opts
	one.OnStage = nil
	if _, tr, err := ChooseFit(context.Background(), cfg, one, 1); err != nil || tr.Choice != nil {
		t.Errorf("one candidate: %v, choice %+v: want the plain fit", err, tr.Choice)
	}
	for _, c := range []struct {
		n, games int
		want     string
	}{{0, 20, "want 1 to 16"}, {17, 20, "want 1 to 16"}, {2, 0, "needs head-to-head games"}} {
		o := one
		o.HeadToHead = c.games
		if _, _, err := ChooseFit(context.Background(), cfg, o, c.n); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%d candidates, %d games: %v, want %q", c.n, c.games, err, c.want)
		}
	}
}

// TestConfirmationWords: the confirmation's interval decides its words.
func TestConfirmationWords(t *testing.T) {
	for _, c := range []struct {
		low, high float64
		want      string
	}{{0.51, 0.6, "shown stronger"}, {0.5, 0.6, "not shown stronger"}, {0.45, 0.55, "not shown stronger"}, {0.4, 0.49, "shown weaker"}, {0.4, 0.5, "not shown stronger"}} {
		if got := confirmationWords(&HeadToHead{Low: c.low, High: c.high}); !strings.HasPrefix(got, c.want) {
			t.Errorf("[%v, %v]: %q, want %q", c.low, c.high, got, c.want)
		}
	}
}

// TestChooseLogistic: a choice among logistic models learns each on its
// own seed, keeps the best rated against the hand heuristic's bots,
// records its confirmation as generation 1's head-to-head (which the
// verdict reads) and the choice in model.json, the same at 1 and 2
// workers; it learns one generation of each, in one go.
func TestChooseLogistic(t *testing.T) {
	testenv.SkipUnderRace(t)
	over := []variants.Override{{Path: "players.0.nodes", Value: "200"}, {Path: "players.1.nodes", Value: "200"}, {Path: "games", Value: "120"}}
	cfg, err := variants.Load("stacktics/size2-3x5", over)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{L2: DefaultL2, HeadToHead: 20}
	var files [2]string
	for i := range files {
		opts.Workers = i + 1
		fit, tr, err := ChooseLogistic(context.Background(), cfg, opts, 2)
		if err != nil {
			t.Fatal(err)
		}
		kept := *fit.Model
		files[i] = modelFile(t, &kept, tr)
		if i > 0 {
			continue
		}
		c := tr.Choice
		if c == nil || len(c.Candidates) != 2 || c.Candidates[0].Seed != cfg.Seed || c.Candidates[1].Seed != cfg.Seed+1 || c.Anchor != "the hand heuristic's bots" {
			t.Fatalf("choice %+v", c)
		}
		if other := 1 - c.Chosen; c.Candidates[other].Elo.Elo > c.Candidates[c.Chosen].Elo.Elo {
			t.Errorf("candidate %d rates above the chosen one: %+v", other+1, c.Candidates)
		}
		if h := handHeadToHead(tr); h == nil || h.Games != 20 || !strings.Contains(Verdict(tr), "Head to head, generation 1's bots score") {
			t.Errorf("the confirmation is not generation 1's head-to-head: %+v; %s", h, Verdict(tr))
		}
		if tr.Seed != cfg.Seed+uint64(c.Chosen) || !strings.Contains(string(fit.Model.Training), `"choice":{`) {
			t.Errorf("record: seed %d (want %d), training %.300s", tr.Seed, cfg.Seed+uint64(c.Chosen), fit.Model.Training)
		}
		plain := *cfg
		plain.Seed = cfg.Seed + uint64(c.Chosen)
		pfit, _, err := Run(context.Background(), &plain, Options{L2: DefaultL2, Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(pfit.Model.Weights, fit.Model.Weights) {
			t.Errorf("the kept model's weights %v are not the plain run's of its seed %v", fit.Model.Weights, pfit.Model.Weights)
		}
		var text strings.Builder
		if err := WriteText(&text, fit.Model, tr); err != nil {
			t.Fatal(err)
		}
		var md strings.Builder
		if err := WriteMarkdown(&md, fit.Model, tr, false); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text.String(), "Chosen by play: candidate ") || !strings.Contains(md.String(), "## Chosen by play") || !strings.Contains(md.String(), "Elo over the hand heuristic's bots") {
			t.Errorf("the choice is not said:\n%s\n%s", text.String(), md.String())
		}
	}
	if files[0] != files[1] {
		t.Error("the same seed chose another model at 2 workers")
	}
	for _, o := range []Options{{Generations: 2}, {Out: t.TempDir()}, {Budget: 1000}} {
		o.HeadToHead = 20
		if _, _, err := ChooseLogistic(context.Background(), cfg, o, 2); err == nil || !strings.Contains(err.Error(), "one generation of each") {
			t.Errorf("%+v: %v", o, err)
		}
	}
}

// TestChoiceWords: the choice's sentence names the kept candidate and its
// confirmation, and carries the round robin's repeated-games warning
// when its pairings repeat, not otherwise.
func TestChoiceWords(t *testing.T) {
	c := &Choice{Games: 400, Anchor: "the bots' own model", Candidates: make([]Candidate, 3), Chosen: 1, Different: 395}
	h := &HeadToHead{Games: 400, Score: 0.63, Low: 0.586, High: 0.672}
	said := choiceWords(c, h)
	if !strings.Contains(said, "Chosen by play: candidate 2") || !strings.Contains(said, "63.0% [58.6, 67.2] over 400 games against the bots' own model, shown stronger") || strings.Contains(said, "repeated-games") {
		t.Errorf("varied games: %s", said)
	}
	c.Different, c.Repeated = 288, "#1 vs #3: 288 different games of 400. These bots repeat themselves"
	if said := choiceWords(c, h); !strings.Contains(said, "Warning (repeated-games) in the round robin, where #1 is the bots' own model and #k+1 candidate k: #1 vs #3: 288 different") {
		t.Errorf("repeated games: %s", said)
	}
}
