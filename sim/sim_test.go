package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"playtest/games"
	"playtest/games/stacktics"
	"playtest/internal/testenv"
	"playtest/sim/bots"
)

func job(t testing.TB, n int, players ...string) *Job {
	t.Helper()
	r := stacktics.DefaultRules()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	j := &Job{Game: stacktics.New(*r), Games: n, Seed: 42, Pairs: true}
	for i, name := range players {
		d, err := bots.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		j.Players[i] = bots.Spec{Bot: name, Params: d.NewParams()}
	}
	return j
}

func collect(t *testing.T, j *Job, workers int) []Record {
	t.Helper()
	var out []Record
	err := Run(context.Background(), j, Options{Workers: workers}, func(r *Record) {
		if r.Index != len(out) {
			t.Fatalf("record %d delivered at position %d", r.Index, len(out))
		}
		out = append(out, *r)
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWorkerCountDoesNotMatter plays the same job with 1, 2 and 7 workers
// and a tiny reorder window: the records must be identical.
func TestWorkerCountDoesNotMatter(t *testing.T) {
	j := job(t, 60, "greedy", "random")
	one := collect(t, j, 1)
	for _, w := range []int{2, 7} {
		if got := collect(t, j, w); !reflect.DeepEqual(got, one) {
			t.Fatalf("%d workers gave different records than 1", w)
		}
	}
	var narrow []Record
	_ = Run(context.Background(), j, Options{Workers: 3, Window: 1}, func(r *Record) { narrow = append(narrow, *r) })
	if !reflect.DeepEqual(narrow, one) {
		t.Fatal("a window of 1 gave different records")
	}
}

// TestBatchesDoNotMatter plays a run long enough for workers to take
// batches of games: the records must be those of one worker.
func TestBatchesDoNotMatter(t *testing.T) {
	j := job(t, 3000, "random", "random")
	if batchSize(j.Games, 2) < 2 {
		t.Fatalf("batch of %d with 2 workers: the test checks nothing", batchSize(j.Games, 2))
	}
	one := collect(t, j, 1)
	for _, w := range []int{2, 3} {
		if got := collect(t, j, w); !reflect.DeepEqual(got, one) {
			t.Fatalf("%d workers (batches of %d) gave different records than 1", w, batchSize(j.Games, w))
		}
	}
	for _, c := range []struct{ games, workers, want int }{{1000, 2, 1}, {3000, 2, 5}, {100000, 2, 64}, {100000, 1000, 1}} {
		if got := batchSize(c.games, c.workers); got != c.want {
			t.Errorf("batchSize(%d, %d) = %d, want %d", c.games, c.workers, got, c.want)
		}
	}
}

func TestPairsSwapSeats(t *testing.T) {
	j := job(t, 6, "greedy", "random")
	for i, r := range collect(t, j, 2) {
		if r.Deal != i/2 || r.Swapped != (i%2 == 1) {
			t.Errorf("game %d: deal %d swapped %v", i, r.Deal, r.Swapped)
		}
		if got := r.PlayerOf(games.Seat0); got != i%2 {
			t.Errorf("game %d: player %d in seat 0", i, got)
		}
	}
	j.Pairs = false
	for i, r := range collect(t, j, 2) {
		if r.Deal != i || r.Swapped {
			t.Errorf("without pairs, game %d: deal %d swapped %v", i, r.Deal, r.Swapped)
		}
	}
}

// TestSeedsMatter checks that different seeds give different games and
// that the streams of different games, seats and domains differ.
func TestSeedsMatter(t *testing.T) {
	j := job(t, 20, "random", "random")
	a := collect(t, j, 2)
	j.Seed++
	b := collect(t, j, 2)
	if reflect.DeepEqual(a, b) {
		t.Error("seeds 42 and 43 gave the same games")
	}
	seen := map[uint64]string{}
	for game := range 50 {
		for seat := range 2 {
			v := BotStream(1, game, seat).Uint64()
			if prev, dup := seen[v]; dup {
				t.Fatalf("bot stream (%d, %d) repeats %s", game, seat, prev)
			}
			seen[v] = "bot"
		}
		if v := ChanceStream(1, game).Uint64(); seen[v] != "" {
			t.Fatalf("chance stream %d repeats another stream", game)
		} else {
			seen[v] = "chance"
		}
	}
	if ChanceStream(1, 3).Uint64() != ChanceStream(1, 3).Uint64() {
		t.Error("a stream is not reproducible")
	}
}

func TestCancel(t *testing.T) {
	j := job(t, 100000, "random", "random")
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err := Run(ctx, j, Options{Workers: 2}, func(r *Record) {
		if r.Index != n {
			t.Fatalf("record %d delivered at position %d", r.Index, n)
		}
		n++
		if n == 10 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || n >= 100000 {
		t.Fatalf("err %v after %d games", err, n)
	}
}

// TestGreedyBeatsRandom is a sanity check of the bots: over seat-swapped
// pairs the one-ply greedy bot must score far above random.
func TestGreedyBeatsRandom(t *testing.T) {
	j := job(t, 200, "greedy", "random")
	score := 0.0
	for _, r := range collect(t, j, 2) {
		switch {
		case r.Result.IsDraw():
			score += 0.5
		case r.PlayerOf(r.Result.Winner) == 0:
			score++
		}
	}
	if rate := score / 200; rate < 0.8 {
		t.Errorf("greedy scored %.2f against random, want ≥ 0.8", rate)
	}
}

// TestSlices plays slices of a run: each game is the whole run's, and an
// empty slice plays nothing (it once played the whole run).
func TestSlices(t *testing.T) {
	whole := map[int]string{}
	j := job(t, 10, "random", "random")
	if err := Run(context.Background(), j, Options{Workers: 2}, func(r *Record) { whole[r.Index] = fmt.Sprint(r.Result, r.Plies) }); err != nil {
		t.Fatal(err)
	}
	for _, s := range [][2]int{{0, 0}, {4, 4}, {10, 10}, {2, 7}, {0, 10}} {
		j := job(t, 10, "random", "random")
		j.Sliced, j.From, j.To = true, s[0], s[1]
		var got []int
		err := Run(context.Background(), j, Options{Workers: 2}, func(r *Record) {
			got = append(got, r.Index)
			if fmt.Sprint(r.Result, r.Plies) != whole[r.Index] {
				t.Errorf("slice %v: game %d differs from the whole run's", s, r.Index)
			}
		})
		if err != nil || len(got) != s[1]-s[0] || (len(got) > 0 && got[0] != s[0]) {
			t.Errorf("slice %v played %v (%v)", s, got, err)
		}
	}
	j.Sliced, j.From, j.To = true, 3, 11
	if err := Run(context.Background(), j, Options{}, func(*Record) {}); err == nil {
		t.Error("a slice past the run's games was accepted")
	}
}

// withBudget gives both players of j mcts (or alphabeta) at a budget.
func withBudget(j *Job, bot string, budget int) *Job {
	d, _ := bots.Lookup(bot)
	spec := bots.Spec{Bot: bot, Params: d.NewParams()}.WithBudget(budget)
	if p, ok := spec.Params.(*bots.MCTSParams); ok {
		p.RolloutCap = 6
	}
	j.Players = [games.NumSeats]bots.Spec{spec, spec}
	return j
}

// TestCancelCutsSearchesShort cancels runs whose decisions would each take
// minutes: Run must return at once, and keep no game it cut short.
func TestCancelCutsSearchesShort(t *testing.T) {
	for _, bot := range []struct {
		name   string
		budget int
	}{{"mcts", 10000000}, {"alphabeta", 100000000}} {
		for _, workers := range []int{1, 2} { // one worker plays inline
			t.Run(fmt.Sprintf("%s/%d", bot.name, workers), func(t *testing.T) {
				j := withBudget(job(t, 4, "random", "random"), bot.name, bot.budget)
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(200*time.Millisecond, cancel)
				start := time.Now()
				sunk := 0
				err := Run(ctx, j, Options{Workers: workers}, func(*Record) { sunk++ })
				if !errors.Is(err, context.Canceled) || sunk != 0 {
					t.Fatalf("err %v, %d games kept", err, sunk)
				}
				if d := time.Since(start); d > time.Minute {
					t.Fatalf("Run returned %v after the cancel", d)
				}
			})
		}
	}
}

// TestCancelKeepsOnlyWholeGames cancels a run when its first game is
// saved, while the second is being played: the games it hands over must be
// exactly the first ones of an uninterrupted run (a game whose searches
// were cut short would differ).
func TestCancelKeepsOnlyWholeGames(t *testing.T) {
	// Searches long enough that the second worker's game is in progress
	// when the first is delivered (shorter under the race detector, which
	// slows them about tenfold).
	iterations := 3000
	if testenv.RaceEnabled {
		iterations = 600
	}
	whole := collect(t, withBudget(job(t, 6, "random", "random"), "mcts", iterations), 1)
	ctx, cancel := context.WithCancel(context.Background())
	var got []Record
	err := Run(ctx, withBudget(job(t, 6, "random", "random"), "mcts", iterations), Options{Workers: 2, Window: 2}, func(r *Record) {
		got = append(got, *r)
		cancel()
	})
	if !errors.Is(err, context.Canceled) || len(got) == 0 || len(got) == len(whole) {
		t.Fatalf("err %v after %d of %d games", err, len(got), len(whole))
	}
	if !reflect.DeepEqual(got, whole[:len(got)]) {
		t.Errorf("the games kept after the cancel differ from the uninterrupted run's")
	}
}

// listOnly hides every optional interface of its game's states, so the
// runner takes its general path: the legal-move list and Choose.
type listOnly struct{ games.Game }

func (g listOnly) NewState() games.State { return listState{g.Game.NewState()} }

type listState struct{ games.State }

// pickOnly hides its game's games.RandomMover, so that random bots pick by
// index through games.MovePicker.
type pickOnly struct{ games.Game }

func (g pickOnly) NewState() games.State {
	s := g.Game.NewState()
	return struct {
		games.State
		games.MovePicker
	}{s, s.(games.MovePicker)}
}

// TestPickMovePathMatchesTheList checks that random bots play the same
// games whether the state hands out their pick (games.MovePicker) or the
// runner lists the moves, and that the runner takes the picking path.
func TestPickMovePathMatchesTheList(t *testing.T) {
	picked := job(t, 40, "random", "random")
	picked.Game = pickOnly{picked.Game}
	s := picked.Game.NewState()
	if _, ok := s.(games.RandomMover); ok {
		t.Fatal("the state still samples: the test checks nothing")
	}
	if _, ok := s.(games.MovePicker); !ok {
		t.Fatal("stacktics states are not MovePickers: the test checks nothing")
	}
	listed := *picked
	listed.Game = listOnly{picked.Game}
	a, b := collect(t, picked, 1), collect(t, &listed, 2)
	for i := range a {
		x, y := a[i], b[i]
		if x.Result != y.Result || x.Plies != y.Plies || x.Decisions != y.Decisions || x.Choices != y.Choices ||
			x.LegalMoves != y.LegalMoves || x.PlayerDecisions != y.PlayerDecisions || x.Opening != y.Opening {
			t.Fatalf("game %d differs: picked %+v, listed %+v", i, x, y)
		}
	}
}

// TestSamplingRunsCountEveryNthDecision checks the runner's path for bots
// that draw through the game's sampler (bots.Sampler, games.RandomMover):
// every drawn move is legal; the legal moves are counted at exactly the
// decisions d of game i with d + i + 1 a multiple of CountEvery, and
// LegalMoves, Choices and Uncounted are those decisions' figures; over
// the games both seats' decisions are counted; a seat whose bot does not
// sample has every decision counted.
func TestSamplingRunsCountEveryNthDecision(t *testing.T) {
	j := job(t, 64, "random", "random")
	recs := collect(t, j, 3)
	var counted [games.NumSeats]int
	all, sampled := 0.0, 0.0 // the branching factor over every decision, and as sampled
	decisions, uncounted := 0, 0
	for i := range recs {
		var want Record
		d := 0
		r, err := Replay(context.Background(), j, i, func(s games.State, who games.Player, m games.Move) {
			legal := s.LegalMoves(nil)
			if !slices.Contains(legal, m) {
				t.Fatalf("game %d, decision %d: move %d is not legal", i, d, m)
			}
			all += float64(len(legal))
			if (d+i+1)%CountEvery == 0 {
				counted[who]++
				want.LegalMoves += len(legal)
				if len(legal) > 1 {
					want.Choices++
				}
			} else {
				want.Uncounted++
			}
			d++
		})
		if err != nil || !reflect.DeepEqual(*r, recs[i]) {
			t.Fatalf("game %d: replay %+v (%v), run %+v", i, r, err, recs[i])
		}
		if r.Uncounted != want.Uncounted || r.LegalMoves != want.LegalMoves || r.Choices != want.Choices || r.PlayerDecisions != d {
			t.Errorf("game %d: uncounted %d, legal moves %d, choices %d over %d decisions; want %d, %d, %d over %d",
				i, r.Uncounted, r.LegalMoves, r.Choices, r.PlayerDecisions, want.Uncounted, want.LegalMoves, want.Choices, d)
		}
		sampled += float64(r.LegalMoves)
		decisions += d
		uncounted += r.Uncounted
	}
	n := decisions - uncounted
	if counted[0] < n/3 || counted[1] < n/3 {
		t.Errorf("counted decisions by seat: %v, want both seats alike", counted)
	}
	all, sampled = all/float64(decisions), sampled/float64(n)
	if math.Abs(sampled/all-1) > 0.1 {
		t.Errorf("branching factor %.2f from %d counted decisions, %.2f over all %d", sampled, n, all, decisions)
	}
	t.Logf("branching factor %.2f from %d counted decisions (by seat %v), %.2f over all %d", sampled, n, counted, all, decisions)

	for _, r := range collect(t, job(t, 8, "random", "greedy"), 2) {
		if r.Uncounted != 0 {
			t.Errorf("game %d: %d decisions uncounted with a greedy seat", r.Index, r.Uncounted)
		}
	}
}

// TestFingerprints: a game's fingerprint follows its moves — equal for the
// games that played the same moves, different for the others — and
// greedy (which always answers alike) replays one game per seat order.
func TestFingerprints(t *testing.T) {
	if Fingerprint(nil) == 0 || Fingerprint([]games.Move{1, 2}) == Fingerprint([]games.Move{2, 1}) ||
		Fingerprint([]games.Move{7}) != Fingerprint([]games.Move{7}) || Fingerprint([]games.Move{1 << 20}) == Fingerprint([]games.Move{1 << 21}) {
		t.Error("Fingerprint does not follow the sequence")
	}
	j := job(t, 200, "random", "random")
	j.Moves = true
	seen := map[uint64]string{}
	for _, r := range collect(t, j, 2) {
		moves := strings.Join(r.Moves, " ")
		if prev, ok := seen[r.Fingerprint]; ok && prev != moves || r.Fingerprint == 0 {
			t.Fatalf("game %d: fingerprint %x for %q, and for %q", r.Index, r.Fingerprint, moves, prev)
		}
		seen[r.Fingerprint] = moves
	}
	greedy := map[uint64]bool{}
	for _, r := range collect(t, job(t, 20, "greedy", "greedy"), 2) {
		greedy[r.Fingerprint] = true
	}
	if len(greedy) > 2 {
		t.Errorf("two greedy bots played %d different games in 20", len(greedy))
	}
}
