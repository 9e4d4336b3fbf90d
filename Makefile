# playtest — see README.md.
GO        ?= go
BIN       := bin/playtest
BENCHSTAT := golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
BENCH_COUNT ?= 6

.PHONY: all build test demo bench bench-compare bench-cli fuzz samples models new-game clean

all: build

## build: compile bin/playtest, stamped with its commit and build date (playtest version)
build:
	$(GO) build -buildvcs=auto -ldflags "-X playtest/internal/buildinfo.buildDate=$$(date -u +%Y-%m-%dT%H:%M:%SZ)" -o $(BIN) ./cmd/playtest

## test: vet, the race-enabled suite of the packages that run goroutines,
## then the whole full-size suite without -race (slow pure-logic tests
## shrink under -race; allocation checks need it off); each stage prints its
## ten slowest tests (verbose logs in bin/)
##
## RACE lists the packages whose code starts goroutines: the signal watch
## and interruptible input (internal/interrupt), the runner and its workers
## (with the bots' stop flags and the games' shared tables) and two runs
## side by side (sim.RunPair, for compare), two logs read side by side
## (runlog.ScanPair), the progress bars, the accuracy study's judges and
## the learning fit's proofs (studies/learn, whose heavy tests skip under
## -race: testenv.SkipUnderRace). The other packages' code runs on
## one goroutine (a worker's bots and game, or the caller's, to which the
## runner hands each finished game), where the detector finds nothing; the
## runner's tests run it under -race from several goroutines. The commands
## start none, so their end-to-end tests run in the second stage only,
## sparing the race build of the plotting and command-line libraries. A
## package that starts a goroutine joins RACE (TestRaceCoversGoroutines).
RACE = ./internal/interrupt ./sim ./runs/runlog ./internal/progress ./games/script ./studies/accuracy ./studies/learn
test:
	$(GO) vet ./...
	@mkdir -p bin
	GO=$(GO) scripts/gotest bin/test-race.log -race -timeout 20m $(RACE)
	GO=$(GO) scripts/gotest bin/test.log -count=1 -timeout 15m ./...

## demo: run the embedded default variant (stacktics/size3) and print the table
demo: build
	./$(BIN) run

## bench: benchmarks (plies/s, ns/op, allocs/op), medians over BENCH_COUNT runs
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count $(BENCH_COUNT) ./games/... ./sim/... ./runs/rundir > bench.txt
	$(GO) run $(BENCHSTAT) bench.txt

## bench-compare: the benchmarks of REV and of the working tree, interleaved
## run by run on one core, compared with benchstat (REV=HEAD~1 COUNT=6)
REV ?= HEAD~1
bench-compare:
	BENCHSTAT=$(BENCHSTAT) GO=$(GO) scripts/bench-compare $(REV)

## bench-cli: time the command line end to end, CPU (user+sys) and wall, one
## worker: random games through the runner, then each game's main preset,
## then the random games again writing a run directory (--out)
BENCH_CLI = run size3 --games 20000 --set players.0=random --set players.1=random; run stacktics/size3; run capstone/capstone --games 40; run stacks/base --games 40; run capturecard/capturecard --games 40
BENCH_CLI_OUT = run size3 --games 20000 --set players.0=random --set players.1=random
bench-cli: build
	@echo "$(BENCH_CLI)" | tr ';' '\n' | while read -r args; do \
		/usr/bin/time -f "%U+%S CPU-s, %e s wall: playtest $$args --workers 1" ./$(BIN) $$args --workers 1 --quiet --format json > /dev/null || exit 1; \
	done
	@out=$$(mktemp -d) && /usr/bin/time -f "%U+%S CPU-s, %e s wall: playtest $(BENCH_CLI_OUT) --workers 1 --out DIR (the log, games.csv, reports)" \
		./$(BIN) $(BENCH_CLI_OUT) --workers 1 --quiet --out $$out/run > /dev/null; rc=$$?; rm -rf $$out; exit $$rc

## fuzz: run each fuzzer for FUZZTIME (default 30s; a fuzzer spends at
## most 2s minimizing a new input, so the time goes to fresh inputs)
FUZZTIME ?= 30s
FUZZ = ./games/stacktics:FuzzPlayout ./games/stacktics:FuzzParse ./games/stacks:FuzzPlayout ./games/stacks:FuzzParseMove \
	./games/capturecard:FuzzPlayout ./runs/runlog:FuzzLineJSON ./runs/runlog:FuzzParseLine ./runs/runlog:FuzzScanLog ./runs/runlog:FuzzReadManifest \
	./variants:FuzzParse ./sim/model:FuzzRead ./internal/strictjson:FuzzUnmarshal ./games/script:FuzzScriptBoundary ./reports/publish:FuzzEscapeRoundTrip ./reports/publish:FuzzReportFromSummary ./viewers/play:FuzzSaveFile ./internal/printable:FuzzString
fuzz:
	@for f in $(FUZZ); do \
		echo "== $${f%%:*} $${f##*:} for $(FUZZTIME)"; \
		$(GO) test $${f%%:*} -run '^$$' -fuzz "^$${f##*:}$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 2s || exit 1; \
	done

## samples: rewrite the example reports in docs/samples (a small run of each
## game's main preset) and docs/samples/demo.txt (what make demo prints):
## every preset figure the README and docs quote comes from these files
## (cmd's TestQuotedFiguresComeFromSamples)
SAMPLES = stacktics/size3 capstone/capstone stacks/base capturecard/capturecard
samples: build
	rm -rf docs/samples
	mkdir -p docs/samples
	./bin/playtest run --workers 1 --quiet > docs/samples/demo.txt
	for p in $(SAMPLES); do ./bin/playtest run $$p --games 200 --workers 1 --out docs/samples/$$(echo $$p | tr / -) > /dev/null || exit 1; done
	rm -f docs/samples/*/games.jsonl docs/samples/*/manifest.json   # the run log; the reports are the samples
	# The example games' drawings run to megabytes: the samples go without
	# them (docs/viewer.md shows the viewer).
	rm -f docs/samples/*/examples.json
	for d in docs/samples/*/; do ./bin/playtest report $$d > /dev/null || exit 1; done

## new-game: a new game from the template, NAME=demo: games/NAME (a
## compiling, registered package with its tests), configs/NAME/NAME.yaml,
## its line in games/catalog, then playtest built and the preset's model
## learned into configs/models/NAME/NAME.json, its line added to
## configs/models/models.log (docs/new-game.md). NAME reaches the generator
## through the environment, unexpanded: it is never pasted into a shell
## line or expanded by make, and the generator checks it before any write.
unexport NAME
NEWGAME_NAME := $(value NAME)
export NEWGAME_NAME
new-game:
	@test -n "$$NEWGAME_NAME" || { echo "make new-game NAME=yourgame" >&2; exit 2; }
	@mkdir -p bin && $(GO) build -o bin/newgame ./games/newgame && bin/newgame
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory models MODEL_PRESETS="$$NEWGAME_NAME/$$NEWGAME_NAME" MODELS_APPEND=1 MODELS_QUIET=1
	@echo "playtest embeds its presets: after editing configs/$$NEWGAME_NAME/$$NEWGAME_NAME.yaml (or the game's code), run make build again"

## models: learn every preset's model into configs/models/GAME/PRESET.json
## (playtest learn PRESET --games MODEL_GAMES --seed 1; for STACKS match
## play, MODEL_GAMES matches; for MODEL_OWN_VARIETY_PRESETS
## MODEL_OWN_VARIETY_GAMES games of the preset's own bots, at the hand
## heuristic; for MODEL_NETWORK_PRESETS an n-tuple network
## is then fitted on top of it, for MODEL_NETWORK_GEN2_PRESETS in two
## generations, and shipped in its place, the logistic model of
## MODEL_KEEP_LINEAR_PRESETS kept beside it as PRESET-linear.json), logging each
## command with its CPU time and peak memory in
## configs/models/models.log; a preset's bots play it with model: preset
## Every preset: configs/GAME/PRESET.yaml, the directories of sweeps, tune
## spaces, worth studies, models and scripted rules aside (a game added by make new-game
## is among them without a line here).
MODEL_PRESETS ?= $(sort $(patsubst configs/%.yaml,%,$(filter-out configs/sweeps/% configs/tunes/% configs/worth/% configs/models/% configs/scripts/%,$(wildcard configs/*/*.yaml))))
MODEL_GAMES ?= 1000
# The Stacktics models learn from the hand heuristic's alphabeta at the
# variety the presets played before they played their models (the
# presets' own bots now choose over 14 decisions at temperature 0.25).
MODEL_STACKTICS_BOT = {bot: alphabeta, nodes: 2000, noise: 0.5, noise_moves: 10, temperature: 0.15}
# Stacktics 3 × 5's model learns from 2,000 games at its preset's own
# variety (the hand heuristic's alphabeta choosing over 14 decisions at
# temperature 0.25): it beats the model learned from 1,000 games at the
# variety above by +87 Elo at equal nodes, and its traces' deciles hold
# within ±5 points on three held-out seeds where that one's did not
# (docs/how-it-plays.md). On the other Stacktics boards the same change
# played 35% to 50% against their models (docs/learn.md): not taken.
MODEL_OWN_VARIETY_PRESETS = stacktics/size2-3x5
MODEL_OWN_VARIETY_GAMES = 2000
# Capstone's model learns from the ismcts its preset played before it
# played alphabeta over eight worlds (docs/bots.md); no preset plays it.
# ThreeStone's from the same ismcts, its preset's before the opponent
# model (infer:, issue 57).
MODEL_CAPSTONE_BOT = {bot: ismcts, iterations: 1000, rollout_cap: 3, eval_scale: 3}
# Capture the Card's model takes a stronger penalty: at the default 0.001
# its held-out deciles stray up to 6 points from the diagonal, at 0.05
# within 3 (and its held-out log-loss is lower), docs/learn.md. It learns
# from the mcts its preset played before its rollouts were cut at 4.
MODEL_CAPTURECARD_L2 = 0.05
MODEL_CAPTURECARD_BOT = {bot: mcts, iterations: 200, rollout_cap: 20, eval_scale: 10}
# STACKS base's and 4-cards' logistic models learn from the ismcts their
# presets played before they played their networks; match play's from its
# own preset's before it played its network.
MODEL_STACKS_BOT = {bot: ismcts, iterations: 1200}
MODEL_STACKS_MATCH_BOT = {bot: ismcts, iterations: 300, rollout_cap: 24, eval_scale: 10}
# Connect Four 6 × 5's and 5 × 4's models learn from the alphabeta their
# presets played before they proved their positions (prove:, docs/bots.md).
MODEL_CONNECT4_6X5_BOT = {bot: alphabeta, nodes: 128000}
MODEL_CONNECT4_5X4_BOT = {bot: alphabeta, nodes: 2000, noise: 1, noise_moves: 4}
# STACKS base and 4-cards ship an n-tuple network (snakes of 3 cells) fitted
# on top of the logistic model just learned, to the games of alphabeta over
# eight worlds on that model; for base a second generation is fitted to the
# games of the preset's own ismcts judged by the first (on 4-cards it did
# not beat the first). Match play's first generation is fitted to the games
# of the ismcts (MODEL_NETWORK_ISMCTS_PRESETS) on its logistic model. Their
# presets' ismcts judges its cut rollouts with the last (docs/learn.md,
# docs/bots.md).
# Stacktics size 3 ships an n-tuple network (40 tuples of 4 cells) fitted
# on top of its logistic model to 8,000 games of the bots its preset
# played on that model (14 decisions at temperature 0.25), their quiet
# positions and six of each one's search horizon (MODEL_LEAFY_*); its
# preset plays it with lazy: 0.25, which beats the logistic model by +107
# Elo [+89, +125] at equal CPU and settings, +82 [+65, +99] at the
# preset's own wider variety (docs/learn.md). The logistic model stays
# shipped beside it as stacktics/size3-linear.json (model:
# preset:stacktics/size3-linear; MODEL_KEEP_LINEAR_PRESETS).
MODEL_NETWORK_PRESETS = stacks/base stacks/fourcards stacks/match stacktics/size3
MODEL_NETWORK_GEN2_PRESETS = stacks/base
MODEL_NETWORK_ISMCTS_PRESETS = stacks/match
MODEL_NETWORK_LEAFY_PRESETS = stacktics/size3
MODEL_KEEP_LINEAR_PRESETS = stacktics/size3
MODEL_NETWORK_BOT = alphabeta, nodes: 40000, worlds: 8, eval: learned
MODEL_NETWORK_BOT_2 = ismcts, iterations: 1000, rollout_cap: 4, exploration: 0.7, eval: learned
MODEL_NETWORK_ARGS = --kind ntuple --method fit --games 3000 --tuple-length 3 --seed 1 --quiet
MODEL_LEAFY_BOT = alphabeta, nodes: 2000, noise: 0.5, noise_moves: 14, temperature: 0.25, eval: learned
MODEL_LEAFY_ARGS = --kind ntuple --method fit --games 8000 --quiet-positions --leaf-positions 6 --seed 1 --quiet
models: build
	@if [ -z "$(MODELS_APPEND)" ]; then rm -f configs/models/models.log; fi
	@for p in $(MODEL_PRESETS); do \
		out=$$(mktemp -d); mkdir -p configs/models/$$(dirname $$p); \
		case $$p in stacktics/*) bot='$(MODEL_STACKTICS_BOT)';; capstone/capstone|capstone/threestone) bot='$(MODEL_CAPSTONE_BOT)';; capturecard/capturecard) bot='$(MODEL_CAPTURECARD_BOT)';; stacks/base|stacks/fourcards) bot='$(MODEL_STACKS_BOT)';; stacks/match) bot='$(MODEL_STACKS_MATCH_BOT)';; connect4/6x5) bot='$(MODEL_CONNECT4_6X5_BOT)';; connect4/5x4) bot='$(MODEL_CONNECT4_5X4_BOT)';; *) bot='';; esac; \
		case $$p in capturecard/*) l2='$(MODEL_CAPTURECARD_L2)';; *) l2='';; esac; \
		games=$(MODEL_GAMES); case " $(MODEL_OWN_VARIETY_PRESETS) " in *" $$p "*) bot=''; games=$(MODEL_OWN_VARIETY_GAMES);; esac; \
		set -- learn $$p --games $$games --seed 1 --quiet; \
		if [ -n "$$bot" ]; then set -- "$$@" --set "players.0=$$bot" --set "players.1=$$bot"; fi; \
		if [ -n "$$l2" ]; then set -- "$$@" --l2 "$$l2"; fi; \
		cmd="playtest learn $$p --games $$games --seed 1 --quiet$${bot:+ --set 'players.0=$$bot' --set 'players.1=$$bot'}$${l2:+ --l2 $$l2} --out DIR"; \
		/usr/bin/time -o $$out/time -f "%U+%S CPU-s, %e s wall, %M KB peak" ./$(BIN) "$$@" --out $$out/m > /dev/null || exit 1; \
		cp $$out/m/model.json configs/models/$$p.json; \
		case " $(MODEL_KEEP_LINEAR_PRESETS) " in *" $$p "*) cp $$out/m/model.json configs/models/$$p-linear.json;; esac; \
		echo "$$cmd: $$(cat $$out/time) ($$(go version | cut -d' ' -f3), $$(nproc) cores)" >> configs/models/models.log; \
		case " $(MODEL_NETWORK_PRESETS) " in *" $$p "*) \
			gens=1; case " $(MODEL_NETWORK_GEN2_PRESETS) " in *" $$p "*) gens="1 2";; esac; \
			for gen in $$gens; do \
				args='$(MODEL_NETWORK_ARGS)'; \
				if [ $$gen = 1 ]; then b='$(MODEL_NETWORK_BOT)'; from=m; h=200; else b='$(MODEL_NETWORK_BOT_2)'; from=n1; h=400; fi; \
				case " $(MODEL_NETWORK_ISMCTS_PRESETS) " in *" $$p "*) b='$(MODEL_NETWORK_BOT_2)';; esac; \
				case " $(MODEL_NETWORK_LEAFY_PRESETS) " in *" $$p "*) b='$(MODEL_LEAFY_BOT)'; args='$(MODEL_LEAFY_ARGS)'; h=0;; esac; \
				nb="{bot: $$b, model: $$out/$$from/model.json}"; \
				cmd="playtest learn $$p $$args --head-to-head $$h --set 'players.0={bot: $$b, model: the model above}' --set 'players.1=…' --out DIR"; \
				/usr/bin/time -o $$out/time -f "%U+%S CPU-s, %e s wall, %M KB peak" ./$(BIN) learn $$p $$args --head-to-head $$h --set "players.0=$$nb" --set "players.1=$$nb" --out $$out/n$$gen > /dev/null || exit 1; \
				cp $$out/n$$gen/model.json configs/models/$$p.json; \
				echo "$$cmd: $$(cat $$out/time) ($$(go version | cut -d' ' -f3), $$(nproc) cores)" >> configs/models/models.log; \
			done;; \
		esac; \
		rm -rf $$out; \
	done
	@if [ -n "$(MODELS_QUIET)" ]; then tail -n 1 configs/models/models.log; else cat configs/models/models.log; fi

clean:
	rm -rf bin bench.txt
