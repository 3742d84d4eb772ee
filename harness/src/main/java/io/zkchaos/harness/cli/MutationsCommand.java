package io.zkchaos.harness.cli;

import io.zkchaos.harness.mutation.Mutation;
import io.zkchaos.harness.mutation.MutationMatrix;
import io.zkchaos.harness.mutation.MutationRow;
import io.zkchaos.harness.mutation.MutationRunner;
import io.zkchaos.harness.mutation.MutationTable;
import io.zkchaos.harness.suite.Shard;
import io.zkchaos.results.Verdicts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code zkchaos mutations}: the mutation matrix of the fle nodes — every bug flag in the scenarios that should
 * show it, several seeds each, and the correct build in the same scenarios — printed as one table.
 */
@Command(name = "mutations", mixinStandardHelpOptions = true,
        description = "Run the mutation matrix: each fle bug flag in its scenarios (several seeds), and the correct "
                + "build in the same scenarios; print the table (bug, scenario, seeds, verdict, runs judged "
                + "invalid, how often the bug's code path ran on the nodes, what the checkers said). A bug no "
                + "checker caught is 'masked' when its code path ran in runs judged valid, 'not triggered' when it "
                + "never ran.",
        footer = {"", "Exit status: 0 when every visible bug was caught at least once, every other bug caught or "
                + "masked (its code path ran), and the correct build valid in every run; 1 otherwise (a row of "
                + "harness errors included); 2 on a usage error."})
public final class MutationsCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--runs", defaultValue = "5", description = "runs (seeds) per row (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--seed", defaultValue = "1", description = "the first seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--quick", description = "only the rows every run catches, one scenario each (the IT's)")
    boolean quick;

    @Option(names = "--bug", split = ",", paramLabel = "NAME", description = "only the rows of these bugs")
    List<String> bugs = new ArrayList<>();

    @Option(names = "--shard", paramLabel = "K/N", description = "only share K of N of the scenarios (with all "
            + "their rows), balanced by expected time; the N shares together are the matrix")
    String shard;

    @Option(names = "--out", defaultValue = "store/mutations",
            description = "run directories, and the table as mutations.md (default: ${DEFAULT-VALUE})")
    Path out;

    @Override
    public Integer call() throws Exception {
        var stdout = spec.commandLine().getOut();
        List<Mutation> rows = quick ? MutationMatrix.quick() : MutationMatrix.full();
        if (!bugs.isEmpty()) {
            List<String> wanted;
            try {
                wanted = bugs.stream().map(b -> io.zkchaos.fle.Bug.parse(b).flag()).toList();
            } catch (IllegalArgumentException e) {
                spec.commandLine().getErr().println("error: " + e.getMessage());
                return Verdicts.Exit.ERROR;
            }
            rows = rows.stream().filter(m -> m.bugs().stream().anyMatch(wanted::contains)).toList();
        }
        Shard share;
        try {
            share = Shard.parse("--shard", shard);
            rows = MutationMatrix.share(rows, share);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return Verdicts.Exit.ERROR;
        }
        if (runs < 1) {
            spec.commandLine().getErr().println("error: --runs must be at least 1, got " + runs);
            return Verdicts.Exit.ERROR;
        }
        stdout.printf("mutation matrix%s: %d row(s) x %d run(s), then the correct build in each scenario; runs in %s%n",
                share.isAll() ? "" : ", shard " + share, rows.size(), runs, out);
        List<MutationRow> result = new MutationRunner(stdout, out.resolve("runs"), runs, seed).run(rows);
        stdout.println();
        MutationTable.print(result, stdout);
        Files.createDirectories(out);
        Path md = out.resolve("mutations.md");
        Files.writeString(md, MutationTable.markdown(result), StandardCharsets.UTF_8);
        stdout.println();
        stdout.println("table with the commands that re-run each row: " + md);
        return result.stream().allMatch(MutationRow::asRequired) ? 0 : 1;
    }
}
