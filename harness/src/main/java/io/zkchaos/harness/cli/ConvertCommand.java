package io.zkchaos.harness.cli;

import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.codec.ReadOptions;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.MalformedHistoryException;
import io.zkchaos.results.Verdicts;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code zkchaos convert IN OUT}: rewrites a history in the format OUT's name calls for ({@code .edn}/{@code .txt}
 * Jepsen EDN, anything else JSON Lines), so Knossos/Elle histories can be checked here and ours taken there.
 */
@Command(name = "convert", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Convert a history between JSON Lines and Jepsen EDN (by the output's extension).",
        footer = {"", "Exit status: 0 converted, 2 the input could not be read or the output not written."})
public final class ConvertCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--force", description = "Replace OUTPUT if it exists.")
    boolean force;

    @Option(names = "--tolerate-truncated-tail",
            description = "Drop (with a warning) a JSON Lines file's cut-off last line, as a killed run leaves it.")
    boolean tolerateTruncatedTail;

    @Parameters(index = "0", paramLabel = "INPUT", description = "The history to read (.jsonl, .json, .edn, .txt).")
    String input;

    @Parameters(index = "1", paramLabel = "OUTPUT", description = "The file to write; .edn or .txt for EDN, else"
            + " JSON Lines.")
    String output;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path target = Path.of(output);
        if (Files.exists(target) && !force) {
            err.println("error: " + output + " exists; use --force to replace it");
            return Verdicts.Exit.ERROR;
        }
        try {
            History history = HistoryFiles.read(Path.of(input), tolerateTruncatedTail
                    ? ReadOptions.tolerateTruncatedTail(w -> err.println("warning: " + w)) : ReadOptions.STRICT);
            HistoryFiles.write(target, history);
            out.println(input + " -> " + output + ": " + history.size() + " ops as "
                    + (HistoryFiles.formatOf(target) == HistoryFiles.Format.EDN ? "EDN" : "JSON Lines"));
            return 0;
        } catch (MalformedHistoryException e) {
            err.println("error: " + e.getMessage());
        } catch (UncheckedIOException e) {
            err.println("error: " + e.getMessage());
        }
        return Verdicts.Exit.ERROR;
    }
}
