package io.zkchaos.harness.cli;

import io.zkchaos.checkers.DurationText;
import io.zkchaos.checkers.Validity;
import io.zkchaos.harness.cluster.SyncMode;
import io.zkchaos.harness.run.Preload;
import io.zkchaos.harness.run.RunOutcome;
import io.zkchaos.harness.run.Runner;
import io.zkchaos.harness.run.config.Clients;
import io.zkchaos.harness.run.config.ClusterPart;
import io.zkchaos.harness.run.config.NemesisPart;
import io.zkchaos.harness.run.config.RunConfig;
import io.zkchaos.harness.run.config.StoragePart;
import io.zkchaos.harness.run.config.Timing;
import io.zkchaos.harness.run.config.WorkloadPart;
import io.zkchaos.nemesis.Fault;
import io.zkchaos.nemesis.schedule.FaultSchedule;
import io.zkchaos.workloads.ZnodeAcls;
import io.zkchaos.workloads.register.RegisterWorkload.ReadMode;
import io.zkchaos.results.Verdicts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code zkchaos run}: one scenario against a real ensemble. Prints progress while it runs, then the verdict and
 * the run directory; exits as {@code check} does. Every default comes from the run configuration's parts
 * ({@link RunConfig}), shown in {@code --help} from there.
 */
@Command(name = "run", mixinStandardHelpOptions = true, defaultValueProvider = RunCommand.Defaults.class,
        description = "Run a workload against a real ZooKeeper ensemble (or the project's own fle nodes, --system "
                + "fle) under a nemesis, then check the history.",
        footer = {"", "Exit status: 0 valid, 1 invalid, 3 unknown, 2 error (the run could not be done).",
                "Systems, their workloads, the fle bug flags and the nemeses: ./zkchaos scenarios"})
public final class RunCommand implements Callable<Integer> {

    /** The defaults of every option, read from the run configuration's parts. */
    public static final class Defaults implements CommandLine.IDefaultValueProvider {
        static final Map<String, String> VALUES = new LinkedHashMap<>();

        static {
            ClusterPart c = ClusterPart.defaults();
            WorkloadPart w = WorkloadPart.defaults();
            NemesisPart n = NemesisPart.defaults();
            Timing t = Timing.defaults();
            VALUES.put("--backend", c.backend().name());
            VALUES.put("--nodes", Integer.toString(c.nodes()));
            VALUES.put("--zookeeper", c.zookeeper().text());
            VALUES.put("--sync", c.sync().cliName());
            VALUES.put("--system", c.system().id());
            VALUES.put("--concurrency", Integer.toString(w.concurrency()));
            VALUES.put("--keys", Integer.toString(w.options().keys()));
            VALUES.put("--rate", formatRate(w.options().rate()));
            VALUES.put("--reads", w.options().reads().name().toLowerCase(Locale.ROOT));
            VALUES.put("--session-timeout", DurationText.format(w.sessionTimeout()));
            VALUES.put("--clients", w.clients().name().toLowerCase(Locale.ROOT));
            VALUES.put("--hold", DurationText.format(w.options().holdMin()) + ".."
                    + DurationText.format(w.options().holdMax()));
            VALUES.put("--write-every", DurationText.format(w.options().writeEvery()));
            VALUES.put("--force-sync", StoragePart.defaults().forceSync() ? "yes" : "no");
            VALUES.put("--nemesis", n.name());
            VALUES.put("--fault-for", DurationText.format(n.faultFor()));
            VALUES.put("--heal-for", DurationText.format(n.healFor()));
            VALUES.put("--compose", Integer.toString(n.compose()));
            VALUES.put("--time-limit", DurationText.format(t.timeLimit()));
            VALUES.put("--recover", DurationText.format(t.recover()));
            VALUES.put("--recovery-bound", DurationText.format(t.recoveryBound()));
            VALUES.put("--failover-bound", DurationText.format(RunConfig.defaultChecks().failoverBound()));
            VALUES.put("--out", "store");
        }

        private static String formatRate(double r) {
            return r == Math.rint(r) ? Long.toString((long) r) : Double.toString(r);
        }

        @Override
        public String defaultValue(CommandLine.Model.ArgSpec arg) {
            return arg instanceof CommandLine.Model.OptionSpec o ? VALUES.get(o.longestName()) : null;
        }
    }

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--workload", required = true, completionCandidates = WorkloadNames.class,
            description = "one of ${COMPLETION-CANDIDATES} (fle: those the fle nodes offer; ./zkchaos scenarios)")
    String workload;

    /** The workloads' names, from their registry (not written out by hand). */
    static final class WorkloadNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return io.zkchaos.workloads.Workloads.NAMES.iterator();
        }
    }

    @Option(names = "--clients", converter = ClientsConverter.class, description = "thread: every client a thread "
            + "of the harness; process: every client a JVM of its own, which the client nemeses (pause-leader-client "
            + "...) freeze and kill; sessions, election and fenced-writes workloads only "
            + "(default: ${DEFAULT-VALUE})")
    Clients clients;

    /** {@code thread} or {@code process}, any case. */
    static final class ClientsConverter implements CommandLine.ITypeConverter<Clients> {
        @Override
        public Clients convert(String value) {
            try {
                return Clients.valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("--clients must be thread or process, got '" + value
                        + "'");
            }
        }
    }

    @Option(names = "--hold", paramLabel = "MIN[..MAX]", description = "election workloads: how long a leader "
            + "holds before it resigns, drawn from the seed (default: ${DEFAULT-VALUE})")
    String hold;

    @Option(names = "--write-every", converter = Durations.class, description = "fenced- and unfenced-writes: "
            + "how long a leader prepares each entry before it writes it (default: ${DEFAULT-VALUE})")
    Duration writeEvery;

    @Option(names = "--max-overlap", paramLabel = "DURATION", converter = Durations.class,
            description = "election workloads: fail when two leaders overlap longer than this while the stale one "
                    + "runs (the time the nemesis held it frozen is reported, not judged); default: overlaps are "
                    + "reported, never failed")
    Duration maxOverlap;

    @Option(names = "--system", description = "what runs on the nodes: zookeeper or fle, the project's own FLE + ZAB "
            + "nodes (default: ${DEFAULT-VALUE})")
    String system;

    @Option(names = "--bug", split = ",", paramLabel = "NAME", description = "fle only: switch on a known bug "
            + "(repeatable; ./zkchaos scenarios lists them); default: none, the correct build")
    List<String> bugs = new ArrayList<>();

    @Option(names = "--nemesis", description = "the faults (default: ${DEFAULT-VALUE})")
    String nemesis;

    @Option(names = "--backend", description = "what runs the ensemble: local, docker or ssh (on the hosts of "
            + "--hosts FILE) (default: ${DEFAULT-VALUE})")
    String backend;

    @CommandLine.Mixin
    SshOptions ssh = new SshOptions();

    @Option(names = "--nodes", description = "ensemble size: 3 or 5 (default: ${DEFAULT-VALUE})")
    int nodes;

    @Option(names = "--time-limit", converter = Durations.class,
            description = "length of the main phase (default: ${DEFAULT-VALUE})")
    Duration timeLimit;

    @Option(names = "--concurrency", description = "client processes (default: ${DEFAULT-VALUE})")
    int concurrency;

    @Option(names = "--seed", description = "seed of every random choice (default: the current time, printed)")
    Long seed;

    @Option(names = "--out", description = "parent of the run directories (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--fault-for", converter = Durations.class,
            description = "how long each fault is held (default: ${DEFAULT-VALUE})")
    Duration faultFor;

    @Option(names = "--heal-for", converter = Durations.class,
            description = "healed time between faults (default: ${DEFAULT-VALUE})")
    Duration healFor;

    @Option(names = "--compose", paramLabel = "K", description = "up to K faults in force at once, each of another "
            + "family (network, crash, pause, clock, client), in seeded overlapping windows; 1: one at a time "
            + "(default: ${DEFAULT-VALUE})")
    int compose;

    @Option(names = "--without", split = ",", paramLabel = "FAMILY", description = "leave these fault families out "
            + "of the nemesis (network, crash, pause, clock, disk, client), e.g. --without clock,disk: the seed alone "
            + "fixes the faults mixed draws, so a run whose draw needs what this machine lacks (libfaketime, FUSE) is "
            + "refused rather than drawn again; recorded in config.json")
    List<String> without = new ArrayList<>();

    @Option(names = "--recover", converter = Durations.class,
            description = "once a quorum serves after the final heal, clients keep working this long before the "
                    + "final reads "
                    + "(default: ${DEFAULT-VALUE})")
    Duration recover;

    @Option(names = "--recovery-bound", converter = Durations.class,
            description = "after the final heal, writes must be acknowledged and every server serve again within "
                    + "this, else the run is invalid (the recovery checker; default: ${DEFAULT-VALUE})")
    Duration recoveryBound;

    @Option(names = "--reads", description = "register reads: plain or sync (default: ${DEFAULT-VALUE})")
    String reads;

    @Option(names = "--keys", description = "register: registers; watches: znodes the writers change "
            + "(default: ${DEFAULT-VALUE})")
    int keys;

    @Option(names = "--pin-reads", description = "register: readers use this server alone (n1 ..., or 'follower': "
            + "the lowest-named follower at the start, the one isolate-follower cuts off), writers the others")
    String pinReads;

    @Option(names = "--failover-bound", converter = Durations.class,
            description = "election workloads: a leader must exist again this long after every heal that lasts "
                    + "that long (default: ${DEFAULT-VALUE})")
    Duration failoverBound;

    @Option(names = "--rate", description = "register, set, watches, sessions, sequential and multi: operations per "
            + "second over all clients, 0 for as fast as they go (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--strict", description = "count ZooKeeper's documented stale plain reads as violations "
            + "(register; multi: hold reads to real time)")
    boolean strict;

    @Option(names = "--zookeeper", description = "ZooKeeper version under test, resolved from Maven Central "
            + "(default: ${DEFAULT-VALUE})")
    String zookeeper;

    @Option(names = "--sync", description = "how followers sync with their leader: auto (ZooKeeper's choice), "
            + "diff, snap, trunc or snap-on-lag, steered with ZooKeeper's system properties (default: ${DEFAULT-VALUE})")
    String sync;

    @Option(names = "--lazyfs", description = "put every server's data directory on the lazy file system, which "
            + "holds writes until fsync and fails on command (FUSE, root; needed, and implied, by the *-unfsynced "
            + "and disk-* nemeses)")
    boolean lazyfs;

    @Option(names = "--force-sync", description = "ZooKeeper's forceSync: yes (fsync the transaction log before "
            + "acknowledging) or no (default: ${DEFAULT-VALUE})")
    String forceSync;

    @Option(names = "--snap-count", paramLabel = "N", description = "ZooKeeper's snapCount: every server "
            + "snapshots its data tree and rolls its transaction log after a random N/2..N transactions (at least 2; "
            + "default: ZooKeeper's 100000); not for the fle nodes")
    Integer snapCount;

    @Option(names = "--preload", paramLabel = "COUNTxBYTES", description = "before the main phase, create COUNT "
            + "znodes of BYTES bytes each under " + Preload.PATH + " (e.g. 2000x4096: "
            + "snapshots of megabytes); not recorded in the history, read by the final-state reads; at most "
            + "32 MiB in all; default: none")
    String preload;

    @Option(names = "--acl", paramLabel = "open|per-client", description = "the ACLs on the workload's znodes: "
            + "open (world:anyone, ZooKeeper's OPEN_ACL_UNSAFE) or per-client (every client session authenticates "
            + "with a digest identity of its own and creates its znodes under an ACL of that identity and the "
            + "harness's auditor: the servers' data trees, and so their snapshots, hold many distinct ACLs; the "
            + "final-state check then also compares each znode's ACL and holds it to the one it was created with); "
            + "not for the fle nodes; default: ${DEFAULT-VALUE}")
    String acl = "open";
    @Option(names = "--churn", paramLabel = "N", defaultValue = "0", description = "session churn: N lanes beside the "
            + "workload, each opening short sessions through the main phase that create 1-5 ephemerals under "
            + "/zkchaos-churn and end by close, expiry or a client crash (seeded), judged by the churn-ephemerals "
            + "checker; 0..64, default: ${DEFAULT-VALUE} (none); not for the fle nodes")
    int churn;

    @Option(names = "--relax", split = ",", paramLabel = "ID", description = "do not hold the run to this evidence "
            + "requirement (repeatable; 'all' for none): a run that exercised less than its workload and nemesis ask "
            + "is unknown, never valid; the ids are listed in the run's evidence.json and docs/evidence.md")
    List<String> relax = new java.util.ArrayList<>();

    @Option(names = "--log-rules", paramLabel = "FILE", description = "server-log rules of your own, read before the "
            + "built-in ones: a line each, tab-separated pattern, exception class, verdict (error, expected, excused, "
            + "other, sync, serving) and why, as the server checker's built-in file (docs/servers.md)")
    Path logRules;

    @Option(names = "--availability-bound", converter = Durations.class, paramLabel = "DURATION",
            description = "while a majority of servers is whole (no fault on them or their links), writes through a "
                    + "whole server must be acknowledged within this (the availability checker; default: twice the "
                    + "session timeout plus the election limits)")
    Duration availabilityBound;

    @Option(names = "--schedule", paramLabel = "FILE", description = "execute the faults this file lists, at its "
            + "times and on its nodes (by role or by name, as it says), instead of drawing them from the seed: a run's "
            + "schedule.json, shrunk or edited (docs/shrink.md); --nemesis defaults to the file's")
    Path schedule;

    @Option(names = "--session-timeout", converter = Durations.class,
            description = "client session timeout (default: ${DEFAULT-VALUE})")
    Duration sessionTimeout;

    private ZnodeAcls acls() {
        try {
            return ZnodeAcls.parse(acl);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--acl must be open or per-client, got '" + acl + "'", e);
        }
    }

    private List<Fault.Family> families() {
        try {
            return without.stream().map(Fault.Family::parse).toList();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--without: " + e.getMessage(), e);
        }
    }

    /**
     * The run configuration these options name.
     *
     * @throws IllegalArgumentException naming the option that is wrong
     */
    RunConfig config() {
        ReadMode readMode;
        try {
            readMode = ReadMode.valueOf(reads.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--reads must be plain or sync, got '" + reads + "'", e);
        }
        if (!forceSync.equals("yes") && !forceSync.equals("no")) {
            throw new IllegalArgumentException("--force-sync must be yes or no, got '" + forceSync + "'");
        }
        FaultSchedule given = schedule == null ? null : readSchedule(schedule);
        String nemesisName = given != null && !spec.commandLine().getParseResult().hasMatchedOption("--nemesis")
                ? given.nemesis() : nemesis;
        String[] holds = hold.split("\\.\\.", -1);
        if (holds.length > 2) {
            throw new IllegalArgumentException("--hold must be MIN or MIN..MAX, got '" + hold + "'");
        }
        Duration holdMin = Durations.parse(holds[0]);
        Duration holdMax = holds.length == 2 ? Durations.parse(holds[1]) : holdMin;
        return RunConfig.builder().system(system).bugs(bugs)
                .workloadOptions(WorkloadPart.defaults().options().withHold(holdMin, holdMax)
                        .withWriteEvery(writeEvery))
                .clients(clients).maxOverlap(maxOverlap)
                .workload(workload).nemesis(nemesisName).schedule(given).backend(ssh.backend(backend))
                .nodes(nodes)
                .sync(SyncMode.parse(sync))
                .timeLimit(timeLimit).concurrency(concurrency)
                .seed(seed != null ? seed : System.currentTimeMillis()).out(this.out)
                .faultFor(faultFor).healFor(healFor).compose(compose).without(families()).recover(recover).recoveryBound(recoveryBound)
                .reads(readMode)
                .keys(keys).pinReads(pinReads).rate(rate).strict(strict).zookeeper(zookeeper)
                .sessionTimeout(sessionTimeout).lazyfs(lazyfs).forceSync(forceSync.equals("yes"))
                .snapCount(snapCount).preload(preload == null ? null : Preload.parse(preload)).churn(churn)
                .acls(acls())
                .failoverBound(failoverBound).relax(relax).logRules(logRules).availabilityBound(availabilityBound)
                .build();
    }

    /**
     * The run configuration of a {@code run} command line (without the word {@code run}), as {@code ./zkchaos run}
     * would build it; for commands that run many configurations ({@code bench hunt}).
     *
     * @throws IllegalArgumentException naming what is wrong in {@code args}
     */
    public static RunConfig configOf(List<String> args) {
        RunCommand c = new RunCommand();
        try {
            new CommandLine(c).parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return c.config();
    }

    @Override
    public Integer call() throws Exception {
        var stdout = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        RunConfig config;
        try {
            config = config();
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return Verdicts.Exit.ERROR;
        }
        RunOutcome outcome;
        try {
            outcome = new Runner(stdout, Duration.ofSeconds(5)).run(config);
        } catch (RuntimeException e) {
            err.println("error: " + e.getMessage());
            return Verdicts.Exit.ERROR;
        }
        Validity v = outcome.result().validity();
        stdout.println(Verdicts.line(config.scenario(), v, String.format(java.util.Locale.ROOT,
                "%d history entries, %.1f s", outcome.operations(), outcome.millis() / 1000.0), null));
        stdout.println("  " + outcome.result().summary());
        // what the nemesis did, who led, how the operations ended: the report's header, in words
        outcome.whatHappened().forEach(line -> stdout.println("  " + line));
        stdout.println("  run directory: " + outcome.directory().path());
        if (java.nio.file.Files.isRegularFile(outcome.directory().reportFile())) {
            stdout.println("  report: " + outcome.directory().reportFile());
        }
        return Verdicts.exitStatus(v);
    }

    /** A schedule file ({@code schedule.json}); a bad one is an {@link IllegalArgumentException} naming it. */
    static FaultSchedule readSchedule(Path file) {
        return io.zkchaos.results.Json.readInput(file, FaultSchedule.class, "a fault schedule");
    }
}
