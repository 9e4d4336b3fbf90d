package sim

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// MemoryEnv overrides the memory playtest assumes the machine gives it, in
// MiB (for machines whose limit it cannot read, and for tests).
const MemoryEnv = "PLAYTEST_MEMORY_MB"

// MemoryError refuses a run whose bots' search trees may need more memory
// than the machine has: every worker keeps one bot per player, and each
// search bot its tree.
type MemoryError struct {
	Workers int
	// PerWorker is the most the trees of one worker's bots may take; Seats
	// says how, one entry per search bot.
	PerWorker int64
	Seats     []string
	// Limit is the memory the trees may use: three quarters of Machine.
	Limit, Machine int64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("the bots' search trees may take up to %s (%d worker(s) × (%s)), more than the %s playtest lets them use (3/4 of the %s this machine allows): lower players.N.tree_mb or the iterations, or use fewer --workers",
		mib(int64(e.Workers)*e.PerWorker), e.Workers, strings.Join(e.Seats, " + "), mib(e.Limit), mib(e.Machine))
}

// BadInput marks the error as the user's settings, not a failure.
func (e *MemoryError) BadInput() bool { return true }

// Usable is the memory playtest lets one command's big structures take
// (search trees, a solver's graph, a sweep's variants): three quarters of
// what the machine allows (MachineMemory), 0 when that is unknown.
func Usable() int64 { return MachineMemory() / 4 * 3 }

// Bytes writes a size for people: "7.5 GiB", "300 MiB".
func Bytes(b int64) string { return mib(b) }

func mib(b int64) string {
	if b >= 10<<30 {
		return fmt.Sprintf("%.0f GiB", float64(b)/(1<<30))
	}
	if b >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	if b < 1<<20 {
		return fmt.Sprintf("%d KiB", (b+(1<<10)-1)>>10)
	}
	return fmt.Sprintf("%d MiB", (b+(1<<20)-1)>>20)
}

// treeBounded is implemented by the parameters of bots whose memory grows
// with their budget (mcts, ismcts).
type treeBounded interface {
	TreeBytes(maxMoves int) int64
}

// CheckMemory refuses a job whose search trees, in workers workers (0: the
// default), may not fit in the machine's memory. Trees are bounded by each
// bot's tree_mb and by what its budget can grow.
func CheckMemory(job *Job, workers int) error {
	if workers <= 0 {
		workers = DefaultWorkers()
	}
	workers = min(workers, max(job.end()-job.start(), 1))
	var perWorker int64
	var seats []string
	specs, names := job.Players[:], []string{"players.0", "players.1"}
	if bb, ok := job.Book.(*BotBook); ok {
		// The book's bots: at most one a worker is choosing at a time.
		specs, names = append(slices.Clone(specs), bb.Bot), append(names, "book_bot")
	}
	for i, spec := range specs {
		if t, ok := spec.Params.(treeBounded); ok {
			b := t.TreeBytes(job.Game.MaxLegalMoves())
			perWorker += b
			seats = append(seats, fmt.Sprintf("%s %s up to %s", names[i], spec.Bot, mib(b)))
		}
	}
	machine := MachineMemory()
	if machine <= 0 || int64(workers)*perWorker <= machine/4*3 {
		return nil
	}
	return &MemoryError{Workers: workers, PerWorker: perWorker, Seats: seats, Limit: machine / 4 * 3, Machine: machine}
}

// MachineMemory returns the memory the machine allows this process, in
// bytes: $PLAYTEST_MEMORY_MB if set, else the least of the physical memory
// and the cgroup's limit; 0 when none can be read.
func MachineMemory() int64 {
	if v := os.Getenv(MemoryEnv); v != "" {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
			return n << 20
		}
	}
	machineOnce.Do(func() { machineBytes = readMachineMemory() })
	return machineBytes
}

var (
	machineOnce  sync.Once
	machineBytes int64
)

func readMachineMemory() int64 {
	var least int64
	consider := func(n int64) {
		if n > 0 && (least == 0 || n < least) {
			least = n
		}
	}
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
				consider(kb << 10)
			}
		}
		f.Close()
	}
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(path); err == nil {
			n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64) // "max": no limit
			consider(n)
		}
	}
	return least
}
