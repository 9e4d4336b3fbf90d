package learn

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"

	"playtest/games"
	"playtest/games/pcg"
	"playtest/reports/stats"
	"playtest/sim"
	"playtest/sim/model"
)

// Data are positions with their features (rows of X), results for the
// seat to move (Y: 1 win, ½ draw, 0 loss), the hand heuristic's value and
// whether they belong to a held-out deal.
type Data struct {
	Features []string
	X        [][]float64
	Y        []float64
	Hand     []float64
	Held     []bool
	// Deal is each position's deal (the game's index, or its pair's with
	// seat-swapped pairs), which a bootstrap resamples whole.
	Deal []int
	// Games is the number of games the positions came from; Skipped the
	// positions left out as not quiet (a forcing move pending).
	Games, Skipped int
}

// HeldEvery puts every HeldEvery-th deal (both games of a seat-swapped
// pair) in the held-out set: a fifth of the games.
const HeldEvery = 5

// Collect plays the job's games (with their moves kept) and gathers the
// positions of each, in game order: at every decision of a seat, the
// features from that seat's view, its result, the hand heuristic's value
// and, for games with forcing moves, only quiet positions (none pending).
// onGame, if set, sees every finished game.
func Collect(ctx context.Context, job sim.Job, workers int, onGame func()) (*Data, error) {
	f, ok := job.Game.(games.Featurer)
	if !ok {
		return nil, fmt.Errorf("%s names no features: nothing to learn from", job.Game.Name())
	}
	d := &Data{}
	for _, x := range f.Features() {
		d.Features = append(d.Features, x.Name)
	}
	var buf []float64
	var forcing []games.Move
	err := replayDecisions(ctx, job, workers, onGame, func(r *sim.Record) decisionVisitor {
		d.Games++
		held := r.Deal%HeldEvery == HeldEvery-1
		return func(s games.State, _ int, p games.Player) {
			if forcingPending(s, &forcing) {
				d.Skipped++
				return
			}
			buf = s.(games.FeatureState).AppendFeatures(buf[:0], p)
			d.X = append(d.X, slices.Clone(buf))
			d.Y = append(d.Y, r.Result.ScoreFor(p))
			hand := 0.0
			if h, ok := s.(games.Heuristic); ok {
				hand = h.Evaluate(p)
			}
			d.Hand = append(d.Hand, hand)
			d.Held = append(d.Held, held)
			d.Deal = append(d.Deal, r.Deal)
		}
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// Scores are a predictor's figures on the held-out positions.
type Scores struct {
	LogLoss float64 `json:"log_loss"`
	Brier   float64 `json:"brier"`
}

// Bin is one decile of the reliability table: the held-out positions whose
// predicted probability fell in [Low, High), how many, the mean predicted
// and the mean result. Deals counts the held-out deals with a position in
// the bin, and GapLow and GapHigh are the 95% interval of Observed −
// Predicted: Observed's Wilson interval with its deals as clusters (a
// deal's positions share its result, so they are not independent:
// stats.ClusteredWilson) less Predicted. A table written before the
// intervals has Deals 0.
type Bin struct {
	Low       float64 `json:"low"`
	High      float64 `json:"high"`
	N         int     `json:"n"`
	Deals     int     `json:"deals,omitempty"`
	Predicted float64 `json:"predicted"`
	Observed  float64 `json:"observed"`
	GapLow    float64 `json:"gap_low,omitempty"`
	GapHigh   float64 `json:"gap_high,omitempty"`
}

// Gap is the bin's Observed − Predicted.
func (b Bin) Gap() float64 { return b.Observed - b.Predicted }

// ShownOff reports whether the bin's gap is shown to differ from 0: its
// interval leaves 0 out. A bin without an interval (Deals 0, a table
// written before them) counts as shown off, as it was judged then.
func (b Bin) ShownOff() bool { return b.Deals == 0 || b.GapLow > 0 || b.GapHigh < 0 }

// Fit is a fitted model with its calibration.
type Fit struct {
	Model *model.Model `json:"model"`
	// Train and HeldOut count the positions; L2 is the penalty.
	Train   int     `json:"train"`
	HeldOut int     `json:"held_out"`
	L2      float64 `json:"l2"`
	// Games and NotQuiet are the data's: the games the positions came
	// from and the positions left out as not quiet.
	Games    int `json:"games"`
	NotQuiet int `json:"not_quiet"`
	// Learned, Hand and Constant score the learned model, the hand
	// heuristic through its best logistic σ(K·hand + b), and the training
	// results' mean, on the held-out positions.
	Learned     Scores `json:"learned"`
	Hand        Scores `json:"hand"`
	Constant    Scores `json:"constant"`
	Reliability []Bin  `json:"reliability"`
	// VersusHand is the learned model's held-out log-loss less the hand
	// heuristic's (negative: the model predicts better), with its 95%
	// interval over the held-out deals (a deal's positions share its
	// result, so deals, not positions, are the units).
	VersusHand Difference `json:"versus_hand"`
	// Iterations is how many L-BFGS iterations the fit took.
	Iterations int `json:"iterations"`
	// Intervals are the bias's and each weight's 95% bootstrap interval,
	// in logits (none unless asked for).
	Intervals []Interval `json:"intervals,omitempty"`
}

// Difference is a mean difference with its 95% interval and the clusters
// (deals) it was measured over.
type Difference struct {
	Mean  float64 `json:"mean"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	Deals int     `json:"deals"`
}

// DefaultL2 is the penalty on the weights of standardised features.
const DefaultL2 = 1e-3

// Learn fits the model of d: the hand heuristic's scale first (K and b of
// σ(K·hand + b)), then every feature's weight, starting from the hand
// weights times K, with an L2 penalty l2 on standardised features.
// handWeights are the game's (games.Featurer).
func Learn(d *Data, handWeights []float64, l2 float64) (*Fit, error) {
	train, held := splitHeld(d.Held)
	if len(train) < 10 || len(held) < 10 {
		return nil, fmt.Errorf("%d positions to fit and %d held out: play more games", len(train), len(held))
	}
	// The hand heuristic through its best logistic.
	handX := make([][]float64, len(d.Hand))
	for i, h := range d.Hand {
		handX[i] = []float64{h}
	}
	kb, _, err := logistic(handX, d.Y, train, []float64{0, 0}, 0)
	if err != nil {
		return nil, fmt.Errorf("fitting the hand heuristic: %w", err)
	}
	k := kb[1]
	if !(k > 0) {
		k = 1 // the hand heuristic predicts nothing here: its units stay as they are
	}
	start := make([]float64, len(d.Features)+1)
	start[0] = kb[0]
	for i, w := range handWeights {
		start[i+1] = k * w
	}
	theta, iters, err := logistic(d.X, d.Y, train, start, l2)
	if err != nil {
		return nil, fmt.Errorf("fitting the features: %w", err)
	}
	m := &model.Model{Schema: model.Schema, Features: d.Features, Bias: theta[0], Weights: theta[1:], HandScale: k}
	fit := &Fit{Model: m, Train: len(train), HeldOut: len(held), L2: l2, Games: d.Games, NotQuiet: d.Skipped, Iterations: iters}
	mean := 0.0
	for _, i := range train {
		mean += d.Y[i]
	}
	mean /= float64(len(train))
	predict := func(f func(i int) float64) Scores {
		var s Scores
		for _, i := range held {
			p := min(max(f(i), 1e-12), 1-1e-12)
			y := d.Y[i]
			s.LogLoss -= y*math.Log(p) + (1-y)*math.Log(1-p)
			s.Brier += (p - y) * (p - y)
		}
		n := float64(len(held))
		s.LogLoss /= n
		s.Brier /= n
		return s
	}
	fit.Learned = predict(func(i int) float64 { return m.Probability(d.X[i]) })
	fit.Hand = predict(func(i int) float64 { return model.Sigmoid(kb[0] + kb[1]*d.Hand[i]) })
	fit.VersusHand = pairedLoss(d, held, func(i int) float64 { return m.Probability(d.X[i]) }, func(i int) float64 { return model.Sigmoid(kb[0] + kb[1]*d.Hand[i]) })
	fit.Constant = predict(func(int) float64 { return mean })
	fit.Reliability = reliability(d, held, m)
	return fit, nil
}

// logLoss is the log-loss of predicting p for result y.
func logLoss(p, y float64) float64 {
	p = min(max(p, 1e-12), 1-1e-12)
	return -(y*math.Log(p) + (1-y)*math.Log(1-p))
}

// splitHeld returns the indices of the positions to train on and of those
// held out (held[i] true).
func splitHeld(isHeld []bool) (train, held []int) {
	for i, h := range isHeld {
		if h {
			held = append(held, i)
		} else {
			train = append(train, i)
		}
	}
	return train, held
}

// pairedLoss is the mean held-out log-loss of a less b's, with a 95%
// interval that treats each deal as one unit (its positions share a
// result).
func pairedLoss(d *Data, held []int, a, b func(i int) float64) Difference {
	return clusteredMean(d.Deal, held, func(i int) float64 { return logLoss(a(i), d.Y[i]) - logLoss(b(i), d.Y[i]) })
}

// clusteredMean is the mean of v over the positions idx, with a 95%
// interval that treats each deal (deal[i]) as one unit: the
// cluster-robust variance of a ratio of sums, Σ_d S_d / Σ_d n_d.
func clusteredMean(deal []int, idx []int, v func(i int) float64) Difference {
	sums, counts := byDeal(deal, idx, v)
	total, n := 0.0, 0.0
	for d := range sums {
		total += sums[d]
		n += counts[d]
	}
	diff := Difference{Mean: total / n, Deals: len(sums)}
	if g := len(sums); g > 1 {
		ss := 0.0
		for d := range sums {
			r := sums[d] - diff.Mean*counts[d]
			ss += r * r
		}
		se := math.Sqrt(float64(g)/float64(g-1)*ss) / n
		diff.Low, diff.High = diff.Mean-1.96*se, diff.Mean+1.96*se
	} else {
		diff.Low, diff.High = diff.Mean, diff.Mean // one deal: no spread to measure (Verdict says too few)
	}
	return diff
}

// byDeal sums v over the positions idx deal by deal (deal[i]), with each
// deal's count of positions, the deals in the order of their first
// position, so that no figure depends on a map's order.
func byDeal(deal []int, idx []int, v func(i int) float64) (sums, counts []float64) {
	at := map[int]int{}
	for _, i := range idx {
		k, seen := at[deal[i]]
		if !seen {
			k = len(sums)
			at[deal[i]] = k
			sums, counts = append(sums, 0), append(counts, 0)
		}
		sums[k] += v(i)
		counts[k]++
	}
	return sums, counts
}

// forcingPending reports whether the mover of s has a forcing move (a
// capture) pending, where the game names forcing moves: such a position
// is not quiet, and the learners leave it out, since a search judges its
// leaves after its quiescence has played the exchanges out. buf is reused.
func forcingPending(s games.State, buf *[]games.Move) bool {
	fs, ok := s.(games.Forcing)
	if !ok {
		return false
	}
	*buf = fs.ForcingMoves((*buf)[:0])
	return len(*buf) > 0
}

// reliability bins the held-out positions by predicted probability into
// deciles, each with its gap's interval (reliabilityBins).
func reliability(d *Data, held []int, m *model.Model) []Bin {
	p := make([]float64, len(d.Y))
	for _, i := range held {
		p[i] = m.Probability(d.X[i])
	}
	return reliabilityBins(held, p, d.Y, d.Deal)
}

// reliabilityBins bins the positions held (indices into p, their
// predictions, y, their results, and deal, their deals) by prediction into
// deciles, each with its gap's interval: its mean result's clustered
// Wilson interval (each deal's positions share its result) less its mean
// prediction.
func reliabilityBins(held []int, p, y []float64, deal []int) []Bin {
	bins := make([]Bin, 10)
	in := make([][]int, 10)
	for _, i := range held {
		b := min(int(p[i]*10), 9)
		in[b] = append(in[b], i)
	}
	for b := range bins {
		bin := &bins[b]
		bin.Low, bin.High = float64(b)/10, float64(b+1)/10
		bin.N = len(in[b])
		if bin.N == 0 {
			continue
		}
		for _, i := range in[b] {
			bin.Predicted += p[i]
			bin.Observed += y[i]
		}
		bin.Predicted /= float64(bin.N)
		bin.Observed /= float64(bin.N)
		sums, counts := byDeal(deal, in[b], func(i int) float64 { return y[i] })
		iv := stats.ClusteredWilson(sums, counts, stats.Z95)
		bin.Deals, bin.GapLow, bin.GapHigh = len(sums), iv.Low-bin.Predicted, iv.High-bin.Predicted
	}
	return bins
}

// decisionVisitor sees a game's position before each of its seats'
// decisions: decision k of the game's history (chance outcomes counted),
// decided by seat p.
type decisionVisitor func(s games.State, k int, p games.Player)

// replayDecisions plays the job's games (with their moves kept) and
// replays each finished one, showing every position before a seat's
// decision to the visitor each gives for that game's record, games in
// order. onGame, if set, sees every game; the first game that failed, or
// whose moves do not replay, is the error.
func replayDecisions(ctx context.Context, job sim.Job, workers int, onGame func(), each func(r *sim.Record) decisionVisitor) error {
	job.Moves = true
	var failed error
	err := sim.Run(ctx, &job, sim.Options{Workers: workers}, func(r *sim.Record) {
		if onGame != nil {
			onGame()
		}
		if failed != nil {
			return
		}
		if r.Err != nil {
			failed = r.Err
			return
		}
		visit := each(r)
		s := job.Game.NewState()
		for k, text := range r.Moves {
			if p := s.CurrentPlayer(); p == games.Seat0 || p == games.Seat1 {
				visit(s, k, p)
			}
			m, err := s.ParseMove(text)
			if err != nil {
				failed = fmt.Errorf("game %d: replaying %q: %w", r.Index, text, err)
				return
			}
			s.Apply(m)
		}
	})
	if err != nil {
		return err
	}
	return failed
}

// logistic fits θ = (bias, w…) of σ(bias + w·x) to y over the rows idx by
// mean log-loss plus l2/2·|w|² on the standardised columns (L-BFGS from
// start, given in the original units), and returns θ in the original
// units and the iterations taken.
func logistic(x [][]float64, y []float64, idx []int, start []float64, l2 float64) ([]float64, int, error) {
	k := len(start) - 1
	mu, sd := make([]float64, k), make([]float64, k)
	for _, i := range idx {
		for j := range k {
			mu[j] += x[i][j]
		}
	}
	for j := range k {
		mu[j] /= float64(len(idx))
	}
	for _, i := range idx {
		for j := range k {
			d := x[i][j] - mu[j]
			sd[j] += d * d
		}
	}
	for j := range k {
		sd[j] = math.Sqrt(sd[j] / float64(len(idx)))
		if sd[j] == 0 {
			sd[j] = 1 // a constant column: its weight only moves the bias
		}
	}
	// In standardised units z = (x − μ)/σ: w'_j = w_j·σ_j, b' = b + Σ w_j·μ_j.
	init := make([]float64, k+1)
	init[0] = start[0]
	for j := range k {
		init[j+1] = start[j+1] * sd[j]
		init[0] += start[j+1] * mu[j]
	}
	n := float64(len(idx))
	z := make([]float64, k)
	loss := func(theta, grad []float64) float64 {
		if grad != nil {
			clear(grad)
		}
		total := 0.0
		for _, i := range idx {
			v := theta[0]
			for j := range k {
				z[j] = (x[i][j] - mu[j]) / sd[j]
				v += theta[j+1] * z[j]
			}
			// log(1 + e^v) − y·v, stably.
			total += softplus(v) - y[i]*v
			if grad != nil {
				g := model.Sigmoid(v) - y[i]
				grad[0] += g
				for j := range k {
					grad[j+1] += g * z[j]
				}
			}
		}
		total /= n
		for j := 1; j <= k; j++ {
			total += l2 / 2 * theta[j] * theta[j]
		}
		if grad != nil {
			for j := range grad {
				grad[j] /= n
			}
			for j := 1; j <= k; j++ {
				grad[j] += l2 * theta[j]
			}
		}
		return total
	}
	p := optimize.Problem{
		Func: func(theta []float64) float64 { return loss(theta, nil) },
		Grad: func(grad, theta []float64) { loss(theta, grad) },
	}
	res, err := optimize.Minimize(p, init, &optimize.Settings{GradientThreshold: 1e-9, MajorIterations: 1000}, &optimize.LBFGS{})
	if err != nil && res == nil {
		return nil, 0, err
	}
	theta := res.X
	out := make([]float64, k+1)
	out[0] = theta[0]
	for j := range k {
		out[j+1] = theta[j+1] / sd[j]
		out[0] -= out[j+1] * mu[j]
	}
	for _, v := range out {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, 0, fmt.Errorf("the fit diverged")
		}
	}
	return out, res.Stats.MajorIterations, nil
}

// softplus is log(1 + e^v), stable for large |v|.
func softplus(v float64) float64 {
	if v > 0 {
		return v + math.Log1p(math.Exp(-v))
	}
	return math.Log1p(math.Exp(v))
}

// Interval is a weight's bootstrap interval.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Bootstrap refits the model n times on the training deals resampled
// with replacement (whole deals, since a game's positions share its
// result), from the fitted weights, and returns each weight's 95%
// percentile interval, the bias's first. The resamples follow from seed.
// It stops with ctx's error between two refits.
func Bootstrap(ctx context.Context, d *Data, fit *Fit, l2 float64, n int, seed uint64) ([]Interval, error) {
	byDeal := map[int][]int{}
	var deals []int
	for i, h := range d.Held {
		if h {
			continue
		}
		if _, ok := byDeal[d.Deal[i]]; !ok {
			deals = append(deals, d.Deal[i])
		}
		byDeal[d.Deal[i]] = append(byDeal[d.Deal[i]], i)
	}
	start := append([]float64{fit.Model.Bias}, fit.Model.Weights...)
	samples := make([][]float64, len(start))
	rng := pcg.New(seed, 0x626f6f74) // "boot"
	var idx []int
	for range n {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		idx = idx[:0]
		for range deals {
			idx = append(idx, byDeal[deals[rng.IntN(len(deals))]]...)
		}
		theta, _, err := logistic(d.X, d.Y, idx, start, l2)
		if err != nil {
			return nil, err
		}
		for j, v := range theta {
			samples[j] = append(samples[j], v)
		}
	}
	out := make([]Interval, len(start))
	for j, s := range samples {
		slices.Sort(s)
		out[j] = Interval{Low: quantile(s, 0.025), High: quantile(s, 0.975)}
	}
	return out, nil
}

// quantile is the q-quantile of sorted s, interpolated.
func quantile(s []float64, q float64) float64 {
	x := q * float64(len(s)-1)
	i := int(x)
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (x-float64(i))*(s[i+1]-s[i])
}
