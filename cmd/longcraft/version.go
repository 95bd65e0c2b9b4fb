package main

import (
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/longcraft/longcraft/internal/buildinfo"
)

// newVersionCmd prints b, the build results, summaries, traces and
// reports record (buildinfo).
func newVersionCmd(b buildinfo.Build) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the build: module version, VCS revision and whether the checkout was modified",
		Long: `version prints the code this binary was built from, as results lines,
summary.json, trace headers, report.html and invocations.jsonl record it:
the module version, the VCS revision, whether the checkout had local
changes, and the revision's commit time. go build (or go install) in a git
checkout records the revision; go run and go test do not.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			goVersion := runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH
			if asJSON {
				return json.NewEncoder(out).Encode(struct {
					buildinfo.Build
					Go string `json:"go"`
				}{b, goVersion})
			}
			fmt.Fprintf(out, "longcraft %s\n", b.Version)
			if b.Revision == "" {
				fmt.Fprintln(out, "revision  unknown: built without VCS stamping (go run, go test, -buildvcs=false, or outside a git checkout)")
			} else {
				fmt.Fprintf(out, "revision  %s\nmodified  %v\n", b.Revision, b.Modified)
				if b.Time != "" {
					fmt.Fprintf(out, "committed %s\n", b.Time)
				}
			}
			fmt.Fprintf(out, "go        %s\n", goVersion)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the build as JSON")
	return cmd
}
