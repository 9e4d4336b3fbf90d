package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"playtest/internal/buildinfo"
	"playtest/reports"
)

func newVersionCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "version",
		Short: "Print playtest's version, commit, Go version and build date",
		Long: `Print the module version, the commit the binary was built from (and
whether the tree had uncommitted changes), the Go toolchain, the build date
(recorded by make build) and the platform. manifest.json and every report's
footer name the same build. playtest --version prints the same.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// "table" is every other command's text format (PLAYTEST_FORMAT=table).
			format, err := formatSetting(cmd.Flags(), settings(cmd.Flags()), "text", "table", "json")
			if err != nil {
				return err
			}
			info := buildinfo.Get()
			if format == "json" {
				return reports.WriteJSON(cmd.OutOrStdout(), struct {
					Schema string `json:"schema"`
					buildinfo.Info
				}{"playtest/version/v1", info})
			}
			_, err = fmt.Fprint(cmd.OutOrStdout(), info.Long())
			return err
		},
	}
	c.Flags().String("format", "text", "output format: text or json")
	return c
}
