package io.zkchaos.harness.cli;

import io.zkchaos.harness.shrink.RecordedRun;
import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** What the commands that start from a finished run (replay, shrink) take: the run, and where their runs go. */
final class FinishedRunArgs {

    @Parameters(paramLabel = "RUN_DIR", description = "the run directory (store/<scenario>/<time>, or a latest link)")
    Path runDir;

    @Option(names = "--out", paramLabel = "DIR", description = "where its runs and files go (default: RUN_DIR/replays "
            + "for replay, RUN_DIR/shrink for shrink)")
    Path out;

    /** @throws IllegalArgumentException naming what the run directory lacks */
    RecordedRun read() {
        return RecordedRun.read(runDir);
    }

    /** {@code --out}, or {@code name} in the run's directory. */
    Path dir(RecordedRun run, String name) {
        return out != null ? out : run.directory().path().resolve(name);
    }
}
