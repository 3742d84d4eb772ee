package io.zkchaos.harness.shrink;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The log of the runs a replay or a shrink makes: every run's progress lines, appended, in their directory. */
public final class RunLog {

    public static final String FILE = "runs.log";

    private RunLog() {
    }

    /** Opens {@code dir/runs.log} for appending (creating {@code dir}). */
    public static PrintWriter open(Path dir) {
        try {
            Files.createDirectories(dir);
            return new PrintWriter(Files.newBufferedWriter(dir.resolve(FILE), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open " + dir.resolve(FILE) + ": " + e.getMessage(), e);
        }
    }
}
