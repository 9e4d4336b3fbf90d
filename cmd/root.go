package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"playtest/games"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cast"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"golang.org/x/term"

	"playtest/internal/buildinfo"
	"playtest/internal/interrupt"
	"playtest/internal/printable"
	"playtest/internal/progress"
	"playtest/reports"
	"playtest/runs/rundir"
	"playtest/variants"
)

// Exit codes.
const (
	ExitOK       = 0
	ExitFailure  = 1 // the run itself failed
	ExitBadInput = 2 // a bad variant, flag or argument
	// A signal stops a command with 128 + its number: 130 (SIGINT), 143
	// (SIGTERM); a bug in playtest exits with ExitInternal (70).
)

// NewRootCommand builds the playtest command with all its subcommands.
func NewRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "playtest",
		Short: "Playtest game rule sets by playing thousands of bot-vs-bot games",
		Long: `playtest plays thousands of bot-vs-bot games of a rule set (a variant: YAML
knobs on top of a game's rules) across worker goroutines and reports balance
statistics: win rates per seat and per side with 95% intervals, draws by
reason, stalled games, game length and game-specific figures.

Variants are embedded presets (playtest games lists them) or YAML files.

Exit codes: 0 done; 1 the run failed (a failed game, a full disk), a check
bound failed, compare --sprt accepted H0 or a diff --fail-on figure moved;
2 bad input; 3 check or compare --sprt undecided; 70 a bug in playtest (the message names the file holding
the stack trace); 130 or 143 stopped by SIGINT or SIGTERM.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(
		newRunCommand(),
		newGamesCommand(),
		newPerftCommand(),
		newReportCommand(),
		newTournamentCommand(),
		newWorthCommand(),
		newCheckCommand(),
		newSweepCommand(),
		newTuneCommand(),
		newCompareCommand(),
		newMergeCommand(),
		newReplayCommand(),
		newSkillCommand(),
		newSolveCommand(),
		newAnalyseCommand(),
		newAccuracyCommand(),
		newLearnCommand(),
		newDiffCommand(),
		newPlayCommand(),
		newVersionCommand(),
	)
	// --version prints what `playtest version` does.
	root.Version = buildinfo.Get().Short()
	root.SetVersionTemplate("{{.Version}}\n")
	for _, c := range root.Commands() {
		if check := c.Args; check != nil {
			// A wrong number of arguments is bad input (exit 2).
			c.Args = func(c *cobra.Command, args []string) error {
				if err := check(c, args); err != nil {
					return usageError{err}
				}
				return nil
			}
		}
	}
	return root
}

// Execute runs the root command with args, writing to stdout and stderr,
// and returns the process exit code. The first Ctrl-C (SIGINT) or SIGTERM
// cancels the command's context: a run stops, cutting short the games in
// progress, and keeps what it has finished; the exit code is then 130 or
// 143, as shells expect. A second one exits at once. A panic is a bug in
// playtest: exit 70 with a short message, the stack trace in a file.
func Execute(args []string, stdout, stderr io.Writer) (code int) {
	ctx, signalled, stopSignals := interrupt.Watch(stderr, exitNow)
	defer stopSignals()
	defer func() {
		if p := recover(); p != nil {
			if re, ok := p.(games.RulesError); ok {
				if sig := signalled(); sig != nil && errors.Is(re, context.Canceled) {
					// A signal stopped a script in the middle of a call.
					fmt.Fprintln(stderr, "playtest: interrupted in the rules script")
					code = interrupt.ExitCode(sig)
					return
				}
				// A rules script failed outside a run (perft, solve, the
				// viewer): the user's input, not a bug.
				fmt.Fprintf(stderr, "playtest: %v\n", re)
				code = ExitBadInput
				return
			}
			code = internalError(stderr, p, debug.Stack())
		}
	}()
	// Names that came from outside reach the terminal through these:
	// their control characters shown by stand-ins (internal/printable).
	out, errOut := printable.NewWriter(stdout), printable.NewWriter(stderr)
	defer out.Flush()
	defer errOut.Flush()
	stderr = errOut
	root := buildRoot()
	root.SetArgs(args)
	root.SetOut(out)
	root.SetErr(errOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{explainFlagError(c, err)} })
	made := &madeDirs{}
	err := root.ExecuteContext(context.WithValue(ctx, madeDirsKey{}, made))
	if err != nil || signalled() != nil {
		made.removeEmpty()
	}
	if err != nil && strings.HasPrefix(err.Error(), "unknown command ") {
		err = usageError{unknownCommand(root, err)}
	}
	if err != nil && signalled() != nil && errors.Is(err, context.Canceled) {
		err = errors.New("interrupted; nothing was written") // a command that keeps nothing of unfinished work
	}
	if err != nil {
		fmt.Fprintf(stderr, "playtest: %v\n", err)
	}
	if sig := signalled(); sig != nil {
		return interrupt.ExitCode(sig)
	}
	if err != nil {
		var ve *variants.Error
		var ue usageError
		var ee exitError
		var bi interface{ BadInput() bool }
		switch {
		case errors.As(err, &ee):
			return ee.code
		case errors.As(err, &ve) || errors.As(err, &ue) || errors.As(err, &bi) && bi.BadInput():
			return ExitBadInput
		}
		return ExitFailure
	}
	return ExitOK
}

// buildRoot builds the command tree Execute runs; tests replace it.
var buildRoot = NewRootCommand

// exitNow ends the process at a second signal; tests replace it.
var exitNow = os.Exit

// ExitInternal is the exit code of a bug in playtest (EX_SOFTWARE).
const ExitInternal = 70

// TraceEnv, set to 1, prints an internal error's stack trace to stderr
// instead of a file.
const TraceEnv = "PLAYTEST_TRACEBACK"

// internalError reports a panic: one line naming it, where the stack trace
// went and where to report it, and returns ExitInternal.
func internalError(stderr io.Writer, p any, stack []byte) int {
	where := ""
	if os.Getenv(TraceEnv) == "1" {
		where = "stack trace:\n" + string(stack)
	} else if f, err := os.CreateTemp("", "playtest-crash-*.txt"); err == nil {
		fmt.Fprintf(f, "playtest %s: panic: %v\n\n%s", strings.Join(os.Args, " "), p, stack)
		f.Close()
		where = "stack trace in " + f.Name()
	} else {
		where = "set " + TraceEnv + "=1 to see the stack trace"
	}
	msg := strings.Join(strings.Fields(fmt.Sprint(p)), " ") // one line
	fmt.Fprintf(stderr, "playtest: internal error (a bug in playtest, not in your input): %s; %s; please report it with the command you ran (README.md, Reporting bugs)\n", msg, where)
	return ExitInternal
}

// usageError marks bad flags or arguments.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// usageErrorf builds a usageError.
func usageErrorf(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// settings binds a command's flags to viper with PLAYTEST_* environment
// variables: flag > environment > default.
func settings(flags *pflag.FlagSet) *viper.Viper {
	v := viper.New()
	v.SetEnvPrefix("PLAYTEST")
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_"))
	v.AutomaticEnv()
	_ = v.BindPFlags(flags)
	return v
}

// intSetting reads an integer setting, rejecting a value that is not one
// (viper would read it as 0).
func intSetting(flags *pflag.FlagSet, v *viper.Viper, key string) (int, error) {
	n, err := cast.ToIntE(v.Get(key))
	if err != nil {
		return 0, usageErrorf("%s %q: want an integer", origin(flags, key), v.GetString(key))
	}
	return n, nil
}

// tableWriter is a result that prints itself as a table.
type tableWriter interface{ WriteTable(io.Writer) error }

// writeResult prints a result as JSON or as its table (--format).
func writeResult(cmd *cobra.Command, format string, res tableWriter) error {
	if format == "json" {
		return reports.WriteJSON(cmd.OutOrStdout(), res)
	}
	return res.WriteTable(cmd.OutOrStdout())
}

// positiveSetting reads an integer setting that must be positive.
func positiveSetting(flags *pflag.FlagSet, v *viper.Viper, key string) (int, error) {
	n, err := intSetting(flags, v, key)
	if err == nil && n < 1 {
		err = usageErrorf("--%s %d: want a positive number", key, n)
	}
	return n, err
}

// origin names where a setting's value came from: its flag, or its
// environment variable when the flag was not given.
func origin(flags *pflag.FlagSet, key string) string {
	if flags.Changed(key) {
		return "--" + key
	}
	if _, ok := os.LookupEnv(envName(key)); ok {
		return envName(key) + " (environment)"
	}
	return "--" + key
}

// formatSetting reads --format (or PLAYTEST_FORMAT), refusing a value not
// among allowed with a message naming where the value came from.
func formatSetting(flags *pflag.FlagSet, v *viper.Viper, allowed ...string) (string, error) {
	format := v.GetString("format")
	if !slices.Contains(allowed, format) {
		last := len(allowed) - 1
		return "", usageErrorf("%s %q: want %s or %s (the formats of playtest %s)", origin(flags, "format"), format,
			strings.Join(allowed[:last], ", "), allowed[last], flags.Name())
	}
	return format, nil
}

// envName is the environment variable of a setting.
func envName(key string) string {
	return "PLAYTEST_" + strings.ToUpper(strings.ReplaceAll(key, "-", "_"))
}

// variantOverrides collects the overrides of a variant: the given keys when
// set by flag or environment (e.g. games, seed), then every --set.
func variantOverrides(flags *pflag.FlagSet, v *viper.Viper, keys []string, sets []string) ([]variants.Override, error) {
	var out []variants.Override
	for _, key := range keys {
		if !v.IsSet(key) {
			continue
		}
		origin := "--" + key
		if !flags.Changed(key) {
			origin = envName(key)
		}
		out = append(out, variants.Override{Path: key, Value: v.GetString(key), Origin: origin})
	}
	parsed, err := variants.ParseSets(sets)
	if err != nil {
		return nil, usageError{err}
	}
	return append(out, parsed...), nil
}

// workerCount reads --workers (or PLAYTEST_WORKERS): 0 means all cores.
func workerCount(flags *pflag.FlagSet, v *viper.Viper) (int, error) {
	workers, err := intSetting(flags, v, "workers")
	if err == nil && workers < 0 {
		err = usageErrorf("--workers %d: want a positive number, or 0 for all cores", workers)
	}
	return workers, err
}

// runVariant loads the variant a running command names, with --games,
// --seed (or their PLAYTEST_ variables) and every --set applied.
func runVariant(flags *pflag.FlagSet, v *viper.Viper, args, sets []string) (*variants.Config, error) {
	overrides, err := variantOverrides(flags, v, []string{"games", "seed"}, sets)
	if err != nil {
		return nil, err
	}
	return loadVariant(args, overrides)
}

// loadVariant loads the variant named by the command's optional argument
// (a preset or a file; the default preset without one), with overrides.
func loadVariant(args []string, overrides []variants.Override) (*variants.Config, error) {
	arg := ""
	if len(args) > 0 {
		arg = args[0]
	}
	return variants.Load(arg, overrides)
}

// writableFile refuses, as bad input before any work, an output file
// (given by flag; "" is none) that cannot be written: a directory, or a
// file in a directory that is missing or read-only. A file inside one of
// owned (the command's --out directory, already created) has its missing
// parent directories created: the command owns that tree. Elsewhere a
// missing directory is refused, since a typo there would scatter files.
func writableFile(flag, path string, owned ...string) error {
	if path == "" {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usageErrorf("%s %s is a directory: give a file", flag, path)
	}
	for _, dir := range owned {
		if dir != "" && rundir.Inside(path, dir) {
			if err := reports.MkdirBelow(dir, filepath.Dir(path)); err != nil {
				return usageErrorf("%s %s cannot be written: %v", flag, path, err)
			}
		}
	}
	if err := probeWrite(filepath.Dir(path)); err != nil {
		return usageErrorf("%s %s cannot be written: %v", flag, path, err)
	}
	return nil
}

// pointsFlag reads a flag given in percentage points (as every command's
// --tolerance is): a value above 0 but below ½ is a share typed by mistake
// (0.03 for 3 points) and refused with what was meant; the value is
// returned as a share (3 → 0.03).
func pointsFlag(flag string, points, upTo float64) (float64, error) {
	switch {
	case points > 0 && points < 0.5:
		return 0, usageErrorf("%s %g: the value is in points; did you mean %g points (--%s %g)?", flag, points, 100*points, strings.TrimPrefix(flag, "--"), 100*points)
	case !(points >= 0 && points < upTo):
		return 0, usageErrorf("%s %g: want points from 0 to below %g", flag, points, upTo)
	}
	return points / 100, nil
}

// progressMode is how a command shows its progress: none with --quiet
// (or PLAYTEST_QUIET), else a bar on a terminal and plain lines elsewhere.
func progressMode(v *viper.Viper) progress.Mode {
	if v.GetBool("quiet") {
		return progress.Quiet
	}
	return progress.Auto
}

// outputFile is an output file named by a flag ("" is none).
type outputFile struct{ flag, path string }

// writableOutputs checks, as bad input before any work, the command's
// --out directory out ("" is none) and its output files: files outside
// out first, so a refusal creates nothing; then out, which it creates;
// then the files inside out, with their directories.
func writableOutputs(ctx context.Context, out string, files ...outputFile) error {
	inside := func(f outputFile) bool { return out != "" && f.path != "" && rundir.Inside(f.path, out) }
	for _, f := range files {
		if !inside(f) {
			if err := writableFile(f.flag, f.path); err != nil {
				return err
			}
		}
	}
	if err := writableDir(ctx, "--out", out); err != nil {
		return err
	}
	for _, f := range files {
		if inside(f) {
			if err := writableFile(f.flag, f.path, out); err != nil {
				return err
			}
		}
	}
	return nil
}

// writableDir refuses an output directory ("" is none) that cannot be
// created or written, as bad input before any work. It creates the
// directory.
func writableDir(ctx context.Context, flag, dir string) error {
	if dir == "" {
		return nil
	}
	if made, ok := ctx.Value(madeDirsKey{}).(*madeDirs); ok {
		made.note(dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usageErrorf("%s %s cannot be created: %v", flag, dir, err)
	}
	if err := probeWrite(dir); err != nil {
		return usageErrorf("%s %s cannot be written: %v", flag, dir, err)
	}
	return nil
}

// madeDirs are the directories a command created for its output
// (writableDir): a command that fails or is interrupted removes those it
// left empty, so that nothing half-written stays (Execute).
type madeDirs struct {
	mu   sync.Mutex
	dirs []string // in the order they were made, parents first
}

type madeDirsKey struct{}

// note records the directories MkdirAll(dir) is about to make.
func (m *madeDirs) note(dir string) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || d == filepath.Dir(d) {
			break
		}
		missing = append(missing, d)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(missing) - 1; i >= 0; i-- {
		m.dirs = append(m.dirs, missing[i])
	}
}

// removeEmpty removes the directories made that are still empty, the
// deepest first.
func (m *madeDirs) removeEmpty() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.dirs) - 1; i >= 0; i-- {
		_ = os.Remove(m.dirs[i]) // fails, as it should, on a directory with anything in it
	}
	m.dirs = nil
}

// isTerminal reports whether w writes to a terminal; tests replace it.
var isTerminal = isTerminalDefault

func isTerminalDefault(w io.Writer) bool {
	f, ok := printable.Raw(w).(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// probeWrite creates and removes a file in dir.
func probeWrite(dir string) error {
	f, err := os.CreateTemp(dir, ".playtest-probe-*")
	if err != nil {
		if inner := errors.Unwrap(err); inner != nil {
			return inner
		}
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}
