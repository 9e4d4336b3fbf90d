package cmd

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"playtest/variants"
)

// Messages for the slips people make on the command line: a mistyped flag
// or command, a value of the wrong type.

var (
	unknownFlag     = regexp.MustCompile(`^unknown flag: --(\S+)$`)
	invalidArgument = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?--([\w-]+)" flag: `)
	unknownName     = regexp.MustCompile(`^unknown command "([^"]*)"`)
)

// explainFlagError rewrites pflag's errors for people: a mistyped flag
// gets the closest flag the command has, and a value of the wrong type
// says what the flag wants instead of strconv's internals.
func explainFlagError(c *cobra.Command, err error) error {
	msg := err.Error()
	if m := unknownFlag.FindStringSubmatch(msg); m != nil {
		var names []string
		c.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		if s := variants.Suggest(m[1], names); s != "" {
			return fmt.Errorf("unknown flag --%s (did you mean --%s?); %s --help lists the flags", m[1], s, c.CommandPath())
		}
		return fmt.Errorf("unknown flag --%s; %s --help lists the flags", m[1], c.CommandPath())
	}
	if m := invalidArgument.FindStringSubmatch(msg); m != nil {
		want := "a valid value"
		if f := c.Flags().Lookup(m[2]); f != nil {
			switch f.Value.Type() {
			case "uint64", "uint", "uint32":
				want = "a non-negative integer"
			case "int", "int64", "int32":
				want = "an integer"
			case "float64":
				want = "a number"
			case "bool":
				want = "true or false"
			case "duration":
				want = "a duration such as 90s or 10m"
			}
		}
		if m[2] == "seed" {
			return fmt.Errorf("--seed %s: a seed is a non-negative integer (0 to 18446744073709551615)", m[1])
		}
		return fmt.Errorf("--%s %s: want %s", m[2], m[1], want)
	}
	return err
}

// unknownCommand says a command does not exist, in one line, with the
// closest command and the list.
func unknownCommand(root *cobra.Command, err error) error {
	m := unknownName.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	msg := fmt.Sprintf("unknown command %q", m[1])
	if s := variants.Suggest(m[1], names); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", s)
	}
	return fmt.Errorf("%s; commands: %s", msg, strings.Join(names, ", "))
}
