package cli

import (
	"fmt"
	"path/filepath"

	"github.com/babelqueue/bqgen/internal/outdir"
)

// syncDir makes the directory out hold files through outdir.Sync and reports the result:
// with opts.DryRun (--check) it lists what is out of date on stderr and returns
// ExitFindings when anything would change; otherwise it prints a one-line summary. cmd
// names the command in messages; regPath is the registry, quoted in the fix.
func syncDir(e env, cmd, regPath, out string, files []outdir.File, opts outdir.Options) int {
	return syncSource(e, cmd, regPath, out, filesSource(files), opts)
}

// filesSource is the outdir.Source of files held in memory.
func filesSource(files []outdir.File) outdir.Source {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	return outdir.Source{Names: names, Content: func(i int) ([]byte, error) { return files[i].Content, nil }}
}

// syncSource is syncDir for files produced on demand (outdir.SyncSource).
func syncSource(e env, cmd, regPath, out string, src outdir.Source, opts outdir.Options) int {
	plan, err := outdir.SyncSource(e.ctx, out, src, opts)
	if err != nil {
		fmt.Fprintf(e.stderr, "bqgen %s: %s\n", cmd, errLine(err))
		return ExitError
	}
	return reportPlan(e, cmd, regPath, out, plan, opts.DryRun)
}

// fixLine returns the command a stale --check of cmd tells the user to run: the command
// line as given less --check (e.rerun, which keeps --import-path, --title and the like),
// else `bqgen CMD -r REGPATH -o OUT` with both paths shell-quoted where they need it.
func fixLine(e env, cmd, regPath, out string) string {
	if e.rerun != "" {
		return e.rerun
	}
	return fmt.Sprintf("bqgen %s -r %s -o %s", cmd, shellWord(regPath), shellWord(out))
}

// reportPlan prints what syncSource reports of plan, the result of outdir.SyncSource
// (a dry run's for --check, dryRun), and returns the exit code.
func reportPlan(e env, cmd, regPath, out string, plan outdir.Plan, dryRun bool) int {
	if dryRun {
		if !plan.Changed() {
			return ExitOK
		}
		for _, n := range plan.Write {
			fmt.Fprintf(e.stderr, "%s: out of date\n", filepath.Join(out, n))
		}
		for _, n := range plan.Remove {
			fmt.Fprintf(e.stderr, "%s: stale, would be removed\n", filepath.Join(out, n))
		}
		for _, n := range plan.RemoveDirs {
			fmt.Fprintf(e.stderr, "%s: stale directory, would be removed\n", filepath.Join(out, n))
		}
		for _, n := range plan.Leftovers {
			fmt.Fprintf(e.stderr, "%s: stale, left by a bqgen run that was killed; would be removed\n", filepath.Join(out, n))
		}
		fmt.Fprintf(e.stderr, "bqgen %s --check: %s is stale; run %s\n", cmd, out, fixLine(e, cmd, regPath, out))
		return ExitFindings
	}
	for _, n := range plan.KeptDirs {
		fmt.Fprintf(e.stderr, "bqgen %s: warning: %s: kept: it no longer holds generated files, but other files are in it\n", cmd, filepath.Join(out, n))
	}
	fmt.Fprintf(e.stdout, "%s: %d written, %d removed, %d unchanged\n", out, len(plan.Write), len(plan.Remove)+len(plan.RemoveDirs)+len(plan.Leftovers), len(plan.Unchanged))
	return ExitOK
}
