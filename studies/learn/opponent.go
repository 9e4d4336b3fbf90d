package learn

import (
	"context"
	"fmt"
	"math"
	"time"

	"playtest/games"
	"playtest/runs/rundir"
	"playtest/sim"
	"playtest/variants"
)

// OpponentOptions configure FitOpponent.
type OpponentOptions struct {
	Games, Workers int
	// Seed picks the games (apart from the variant's own).
	Seed   uint64
	OnGame func()
}

// OpponentSchema names the JSON of an OpponentModel (docs/json.md).
const OpponentSchema = "playtest/opponent/v1"

// DefaultOpponentGames is the games FitOpponent plays unless told.
const DefaultOpponentGames = 400

// opponentSeed sets the games apart ("oppmod").
const opponentSeed = 0x6f70706d6f64

// OpponentModel is an opponent model fitted to a variant's games: the
// strength (the bots' infer:) under which each hidden part's weight,
// exp(strength × its evidence) over the prior's (games.Inferrer), makes
// the true parts likeliest, at every seat decision of the bots' games.
type OpponentModel struct {
	Schema  string `json:"schema"`
	Variant string `json:"variant"`
	Bots    string `json:"bots"`
	Games   int    `json:"games"`
	Seed    uint64 `json:"seed"`
	// Positions are the training positions, HeldOut those of every
	// HeldEvery-th deal, which judge the fit.
	Positions int `json:"positions"`
	HeldOut   int `json:"held_out"`
	// Strength is the fitted weight: the bots' infer:.
	Strength float64 `json:"strength"`
	// Evidence and PriorEvidence are the mean evidence of the true hidden
	// parts and the prior's, over the training positions.
	Evidence      float64 `json:"evidence"`
	PriorEvidence float64 `json:"prior_evidence"`
	// Gain is the mean, over the held-out positions, of the log of the
	// true part's posterior over its prior, in nats: what the weighing
	// tells of it (0: nothing; below 0: it misleads). Late is the same
	// over the held-out positions of each game's second half.
	Gain     float64 `json:"held_out_gain_nats"`
	LateGain float64 `json:"held_out_late_gain_nats"`
	Seconds  float64 `json:"seconds"`
}

// opponentPosition is one position's evidence: of the true hidden part,
// and the prior's chance of each evidence 0, 1, ….
type opponentPosition struct {
	truth int
	prior []float64
	late  bool
}

// logLikelihood is the log of the true part's posterior over its prior at
// strength b, with its first and second derivatives in b: b·truth − log of
// the prior's mean weight, exp(b × evidence).
func (p *opponentPosition) logLikelihood(b float64) (l, d1, d2 float64) {
	most := 0.0
	for e, q := range p.prior {
		if q > 0 {
			most = float64(e)
		}
	}
	var sum, mean, sq float64
	for e, q := range p.prior {
		w := q * math.Exp(b*(float64(e)-most))
		sum += w
		mean += w * float64(e)
		sq += w * float64(e) * float64(e)
	}
	mean /= sum
	variance := sq/sum - mean*mean
	l = b*float64(p.truth) - (b*most + math.Log(sum))
	return l, float64(p.truth) - mean, -variance
}

// FitOpponent plays opts.Games games of cfg's bots (on seeds apart from
// cfg's own games) and, at every seat decision once the other seat's
// hidden part is drawn, reads the evidence of the true part from the
// mover's view and the prior's chance of each evidence; it fits
// the strength by Newton's method on the log-likelihood of the true parts
// (concave in it) over the training deals, and judges it on the held-out
// ones.
func FitOpponent(ctx context.Context, cfg *variants.Config, opts OpponentOptions) (*OpponentModel, error) {
	job, err := rundir.Job(cfg)
	if err != nil {
		return nil, err
	}
	if _, ok := job.Game.NewState().(games.Inferrer); !ok {
		return nil, fmt.Errorf("%s gives no evidence of what it hides in the seats' moves (games.Inferrer): there is no opponent model to learn", cfg.Definition.Title)
	}
	job.Games = opts.Games
	job.Seed = cfg.Seed ^ learnSeed ^ opponentSeed ^ opts.Seed*0x9e3779b97f4a7c15
	job.Trace = 0
	began := time.Now()
	var train, held []opponentPosition
	err = replayDecisions(ctx, *job, opts.Workers, opts.OnGame, func(r *sim.Record) decisionVisitor {
		isHeld := r.Deal%HeldEvery == HeldEvery-1
		half := len(r.Moves) / 2
		return func(s games.State, k int, p games.Player) {
			truth, prior, ok := s.(games.Inferrer).Evidence(p, nil)
			if !ok {
				return
			}
			pos := opponentPosition{truth: truth, prior: prior, late: k >= half}
			if isHeld {
				held = append(held, pos)
			} else {
				train = append(train, pos)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	if len(train) < 100 || len(held) < 20 {
		return nil, fmt.Errorf("%d positions to fit and %d held out: play more games", len(train), len(held))
	}
	m := &OpponentModel{Schema: OpponentSchema, Variant: cfg.Label(), Bots: cfg.Players[0].String(), Games: opts.Games, Seed: opts.Seed, Positions: len(train), HeldOut: len(held)}
	for _, p := range train {
		m.Evidence += float64(p.truth)
		for e, q := range p.prior {
			m.PriorEvidence += float64(e) * q
		}
	}
	m.Evidence /= float64(len(train))
	m.PriorEvidence /= float64(len(train))
	// Newton's method, its step halved while it would lower the
	// likelihood (concave: it converges from any start).
	total := func(b float64) (l, d1, d2 float64) {
		for i := range train {
			li, g, h := train[i].logLikelihood(b)
			l, d1, d2 = l+li, d1+g, d2+h
		}
		return l, d1, d2
	}
	b := 0.0
	for range 100 {
		l, d1, d2 := total(b)
		if d2 >= 0 {
			return nil, fmt.Errorf("the evidence is the same for every hidden part the prior allows: nothing to weigh")
		}
		step := -d1 / d2
		next := min(max(b+step, 0), MaxOpponentStrength)
		for range 30 {
			if ln, _, _ := total(next); ln >= l {
				break
			}
			step /= 2
			next = min(max(b+step, 0), MaxOpponentStrength)
		}
		done := math.Abs(next-b) < 1e-9
		b = next
		if done {
			break
		}
	}
	m.Strength = math.Round(b*1e4) / 1e4
	late := 0
	for i := range held {
		l, _, _ := held[i].logLikelihood(m.Strength)
		m.Gain += l
		if held[i].late {
			m.LateGain += l
			late++
		}
	}
	m.Gain /= float64(len(held))
	m.LateGain /= float64(max(late, 1))
	m.Seconds = time.Since(began).Seconds()
	return m, nil
}

// MaxOpponentStrength is the largest strength FitOpponent gives: the
// bots' infer: allows no more.
const MaxOpponentStrength = 20
