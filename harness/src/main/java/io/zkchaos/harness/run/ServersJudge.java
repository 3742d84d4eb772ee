package io.zkchaos.harness.run;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.CheckerOptions;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.servers.AvailabilityChecker;
import io.zkchaos.checkers.servers.FaultExcuses;
import io.zkchaos.checkers.servers.FaultWindow;
import io.zkchaos.checkers.servers.FaultWindows;
import io.zkchaos.checkers.servers.LogRules;
import io.zkchaos.checkers.servers.ServerAccount;
import io.zkchaos.checkers.servers.ServerAccountChecker;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.nemesis.ServerExcuses;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * The servers' own account of a finished run, judged: the {@code server} checker (crashes, programming errors in the
 * logs, rejoin loops) over the run directory's {@code servers.jsonl} and {@code nodes/<n>/server.log}, and the
 * {@code availability} checker over the probe's writes; both with the faults of the history as windows whose
 * excuses the faults declare ({@link ServerExcuses}). It reads only the run directory and the history, so a run of
 * any age can be judged again ({@code ./zkchaos servers DIR}).
 *
 * @param sessionTimeout the clients' session timeout in the run
 * @param electionBound  the servers' election bound ({@code initLimit × tickTime})
 * @param checks         the run's checker settings ({@code --log-rules}, {@code --availability-bound})
 */
public record ServersJudge(Duration sessionTimeout, Duration electionBound, CheckerOptions checks) {

    /**
     * The judge of a run of {@code config} whose directory is {@code runDirectory}: its session timeout, its servers'
     * election bound ({@code initLimit × tickTime} of the cluster it configures) and {@code checks}.
     */
    public static ServersJudge of(RunConfig config, Path runDirectory, CheckerOptions checks) {
        io.zkchaos.harness.cluster.ClusterConfig cluster = config.clusterConfig(
                runDirectory.resolve(io.zkchaos.results.RunDirectory.NODES));
        return new ServersJudge(config.workload().sessionTimeout(),
                cluster.tickTime().multipliedBy(cluster.initLimit()), checks);
    }

    /** What the faults of a run excuse. */
    public Function<String, FaultExcuses> excuses() {
        return ServerExcuses.forRun(sessionTimeout, electionBound);
    }

    /** The availability bound: the run's {@code --availability-bound}, else the default for its timing. */
    public Duration availabilityBound() {
        return checks.availabilityBound() != null ? checks.availabilityBound()
                : AvailabilityChecker.defaultBound(sessionTimeout, electionBound);
    }

    /**
     * Both checkers' verdicts on the run in {@code runDirectory}, whose history is {@code history}: the server
     * checker's first. A checker that cannot judge (a history whose faults it cannot place, a rules file that went
     * away) gives {@code unknown} with the reason, never an exception.
     */
    public List<CheckResult> judge(Path runDirectory, History history) {
        List<FaultWindow> windows;
        try {
            windows = FaultWindows.from(history, excuses());
        } catch (RuntimeException e) {
            String why = "the faults of the history could not be placed: " + e.getMessage();
            return List.of(CheckResult.of(ServerAccountChecker.NAME, Validity.UNKNOWN, why, null),
                    CheckResult.of(AvailabilityChecker.NAME, Validity.UNKNOWN, why, null));
        }
        return List.of(server(runDirectory, history, windows), availability(runDirectory, history));
    }

    private CheckResult server(Path runDirectory, History history, List<FaultWindow> windows) {
        try {
            ServerAccountChecker.Settings settings = ServerAccountChecker.Settings.defaults();
            if (checks.logRules() != null) {
                settings = settings.withRules(LogRules.withUserFile(Path.of(checks.logRules())));
            }
            ServerAccount account = ServerAccount.fromRunDirectory(runDirectory, windows, end(history));
            return new ServerAccountChecker(settings).check(account);
        } catch (RuntimeException e) {
            return CheckResult.crashed(ServerAccountChecker.NAME, e);
        }
    }

    private CheckResult availability(Path runDirectory, History history) {
        try {
            List<io.zkchaos.checkers.servers.ServerEvent> events = ServerAccount.readEvents(
                    runDirectory.resolve(ServerAccount.EVENTS_FILE));
            return new AvailabilityChecker(availabilityBound(), excuses(), events).check(history);
        } catch (RuntimeException e) {
            return CheckResult.crashed(AvailabilityChecker.NAME, e);
        }
    }

    /** The history's last time, or 0 for an empty one. */
    private static long end(History history) {
        return history.ops().stream().mapToLong(io.zkchaos.checkers.history.Op::time).max().orElse(0);
    }
}
