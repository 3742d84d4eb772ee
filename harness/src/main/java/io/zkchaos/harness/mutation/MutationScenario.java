package io.zkchaos.harness.mutation;

import io.zkchaos.checkers.DurationText;
import io.zkchaos.harness.run.config.RunConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One scenario of the mutation matrix: a workload under a nemesis against 3 or 5 fle nodes, with its timing, run
 * with any bug flags and any seed — everything {@code ./zkchaos run --system fle} takes, so a row of the table is
 * reproduced by the command {@link #command} prints.
 *
 * @param workload      {@code register} or {@code set}
 * @param nemesis       the faults
 * @param nodes         the ensemble's size, 3 or 5
 * @param timeLimit     the main phase
 * @param faultFor      how long each fault is held
 * @param healFor       how long the cluster is healed between faults
 * @param recover       how long clients (and the leadership observer) go on after the final heal
 * @param failoverBound a leader again within this after every heal ({@code single-leader})
 */
public record MutationScenario(String workload, String nemesis, int nodes, Duration timeLimit, Duration faultFor,
                               Duration healFor, Duration recover, Duration failoverBound) {

    /** Clients, as many as a run's default. */
    static final int CONCURRENCY = 5;

    public MutationScenario {
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(nemesis, "nemesis");
    }

    /** {@code set × kill-all}, and the size when it is not 3: {@code set × pause-leader, 5 nodes}. */
    public String label() {
        return workload + " × " + nemesis + (nodes == 3 ? "" : ", " + nodes + " nodes");
    }

    /**
     * The run of this scenario with {@code bugs} and {@code seed}, its directory under {@code store}: a nemesis that
     * mixes families leaves out those this machine lacks (libfaketime for the clocks) explicitly, as its config.json
     * and {@link #command} say, so that the matrix runs wherever it is and the seed alone fixes each draw.
     */
    public RunConfig config(List<String> bugs, long seed, Path store) {
        return RunConfig.builder().system("fle").bugs(bugs).nodes(nodes).workload(workload).nemesis(nemesis)
                .timeLimit(timeLimit).faultFor(faultFor).healFor(healFor).recover(recover)
                .failoverBound(failoverBound).concurrency(CONCURRENCY).seed(seed).out(store).build()
                .leavingOutWhatThisMachineLacks();
    }

    /** The command line that runs it by hand. */
    public String command(List<String> bugs, long seed) {
        return "./zkchaos run --system fle" + (bugs.isEmpty() ? "" : " --bug " + String.join(",", bugs))
                + " --nodes " + nodes + " --workload " + workload + " --nemesis " + nemesis
                + " --time-limit " + text(timeLimit) + " --fault-for " + text(faultFor) + " --heal-for " + text(healFor)
                + " --recover " + text(recover) + " --failover-bound " + text(failoverBound) + " --seed " + seed
                + without(bugs, seed);
    }

    /** {@code --without clock} when this machine makes the run leave families out, else nothing. */
    private String without(List<String> bugs, long seed) {
        List<String> families = config(bugs, seed, Path.of("store")).nemesis().withoutNames();
        return families.isEmpty() ? "" : " --without " + String.join(",", families);
    }

    private static String text(Duration d) {
        return DurationText.format(d);
    }
}
