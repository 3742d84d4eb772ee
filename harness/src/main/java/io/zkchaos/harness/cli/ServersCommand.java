package io.zkchaos.harness.cli;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.harness.run.ServersJudge;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.results.RunDirectory;
import io.zkchaos.results.Verdicts;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code zkchaos servers RUN_DIR...}: what the servers' own account says of finished runs, judged again from their
 * saved files (the {@code server} and {@code availability} checkers, as a run judges itself), with the run's own
 * timing and settings unless overridden. A run made before these checkers existed is judged too, with what it kept:
 * its logs (crashes need {@code servers.jsonl}, availability the probe's writes; each checker says what it missed).
 * Nothing in the run directory is written.
 */
@Command(name = "servers", mixinStandardHelpOptions = true,
        description = "Judge the servers' own account of finished runs again from their files: crashes, programming "
                + "errors in the server logs, rejoin loops (server), stalls while a majority was whole "
                + "(availability).",
        footer = {"", "Exit status: 0 every run valid, 1 one invalid, 3 one unknown (and none invalid), 2 a run "
                + "directory could not be read (the others are judged all the same)."})
public final class ServersCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "RUN_DIR", arity = "1..*", description = "run directories (store/<scenario>/<time>)")
    List<Path> runs;

    @Option(names = "--log-rules", paramLabel = "FILE", description = "server-log rules of your own, read before the "
            + "built-in ones (instead of the run's)")
    Path logRules;

    @Option(names = "--availability-bound", converter = Durations.class, paramLabel = "DURATION",
            description = "the availability checker's bound (instead of the run's)")
    Duration availabilityBound;

    @Option(names = "--verbose", description = "print each checker's findings as JSON too")
    boolean verbose;

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
            com.fasterxml.jackson.databind.json.JsonMapper.builder().findAndAddModules().build();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Validity worst = Validity.VALID;
        boolean unreadable = false;
        for (Path run : runs) {
            try {
                for (CheckResult r : judge(run)) {
                    out.println(run + ": " + r.checker() + ": " + Verdicts.word(r.validity()) + ": " + r.summary());
                    if (verbose && r.details() != null) {
                        out.println(JSON.writeValueAsString(r.details()));
                    }
                    worst = worst.merge(r.validity());
                }
            } catch (RuntimeException | com.fasterxml.jackson.core.JsonProcessingException e) {
                err.println("error: " + run + ": " + e.getMessage());
                err.flush();
                unreadable = true; // the others are judged all the same
            }
            out.flush();
        }
        return unreadable ? Verdicts.Exit.ERROR : Verdicts.exitStatus(worst);
    }

    private List<CheckResult> judge(Path run) {
        if (!Files.isRegularFile(run.resolve(RunDirectory.HISTORY))) {
            throw new IllegalArgumentException("not a run directory: no " + RunDirectory.HISTORY + " in it");
        }
        RunDirectory dir = new RunDirectory(run);
        RunConfig config = RunConfig.read(dir);
        CheckerOptions checks = config.checks();
        if (logRules != null) {
            if (!Files.isReadable(logRules)) {
                throw new IllegalArgumentException("--log-rules: cannot read " + logRules);
            }
            checks = checks.withLogRules(logRules.toAbsolutePath().toString());
        }
        if (availabilityBound != null) {
            checks = checks.withAvailabilityBound(availabilityBound);
        }
        return ServersJudge.of(config, run, checks).judge(run, HistoryFiles.read(dir.historyFile()));
    }
}
