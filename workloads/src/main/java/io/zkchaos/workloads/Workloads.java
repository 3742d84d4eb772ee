package io.zkchaos.workloads;

import io.zkchaos.workloads.election.CuratorLatch;
import io.zkchaos.workloads.election.ElectionWorkload;
import io.zkchaos.workloads.election.OwnRecipe;
import io.zkchaos.workloads.fenced.FencedWritesWorkload;
import io.zkchaos.workloads.register.RegisterWorkload;
import io.zkchaos.workloads.set.SetWorkload;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/** The workloads by the names the CLI takes. */
public final class Workloads {

    private Workloads() {
    }

    /** Every name {@link #create} accepts. */
    public static final List<String> NAMES = List.of("register", "set", "election", "election-curator",
            "election-naive", "fenced-writes", "fenced-writes-curator");

    /**
     * Options shared by the workloads; each uses the ones that concern it.
     *
     * @param root      the znode under which the workload keeps everything (e.g. {@code /zkchaos})
     * @param keys      register: how many keys
     * @param syncReads register: {@code sync-read} instead of {@code read}; set: sync before the final reads
     * @param holdMin   election: shortest leadership before resigning
     * @param holdMax   election: longest leadership before resigning
     * @param rate      register and set: operations per second over all processes (0: as fast as they go)
     */
    public record Options(String root, int keys, boolean syncReads, Duration holdMin, Duration holdMax,
                          double rate) {
        public Options {
            Objects.requireNonNull(root, "root");
            if (!root.startsWith("/") || root.length() > 1 && root.endsWith("/")) {
                throw new IllegalArgumentException("root must be an absolute znode path, got " + root);
            }
            if (keys < 1) {
                throw new IllegalArgumentException("keys must be at least 1, got " + keys);
            }
            Objects.requireNonNull(holdMin, "holdMin");
            Objects.requireNonNull(holdMax, "holdMax");
            if (rate < 0 || Double.isNaN(rate) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("rate must be >= 0 ops/s, got " + rate);
            }
        }

        /** Root {@code /zkchaos}, 5 keys, sync reads, leaders hold 0.3–1.5 s, 100 ops/s. */
        public static Options defaults() {
            return new Options("/zkchaos", 5, true, Duration.ofMillis(300), Duration.ofMillis(1500), 100);
        }
    }

    /** The workload called {@code name}; throws naming the known names for an unknown one. */
    public static Workload create(String name, Options o) {
        String root = o.root().equals("/") ? "" : o.root();
        return switch (name) {
            case "register" -> new RegisterWorkload(root + "/register", o.keys(),
                    o.syncReads() ? RegisterWorkload.ReadMode.SYNC : RegisterWorkload.ReadMode.PLAIN)
                    .withRate(o.rate());
            case "set" -> new SetWorkload(root + "/set", o.syncReads()).withRate(o.rate());
            case "election" -> new ElectionWorkload(name, root + "/election", OwnRecipe.herdFree(), null,
                    o.holdMin(), o.holdMax());
            case "election-naive" -> new ElectionWorkload(name, root + "/election", OwnRecipe.naive(), null,
                    o.holdMin(), o.holdMax());
            case "election-curator" -> new ElectionWorkload(name, root + "/election", new CuratorLatch(), null,
                    o.holdMin(), o.holdMax());
            case "fenced-writes" -> new FencedWritesWorkload(name, root + "/fenced", OwnRecipe.herdFree(), o.holdMin(),
                    o.holdMax(), Duration.ofMillis(50));
            case "fenced-writes-curator" -> new FencedWritesWorkload(name, root + "/fenced", new CuratorLatch(),
                    o.holdMin(), o.holdMax(), Duration.ofMillis(50));
            default -> throw new IllegalArgumentException("unknown workload '" + name + "'; known: "
                    + String.join(", ", NAMES));
        };
    }
}
