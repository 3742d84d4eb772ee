package io.zkchaos.workloads;

import io.zkchaos.workloads.register.RegisterWorkload.ReadMode;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings of every workload, typed; each workload uses the ones that concern it. The defaults live here and
 * nowhere else: the CLI and the run configuration read them from {@link #defaults()}.
 *
 * @param root    the znode under which the workload keeps everything (e.g. {@code /zkchaos})
 * @param keys    register: how many keys
 * @param reads   register: plain reads, or {@code sync()} before each read
 * @param holdMin election: shortest leadership before resigning
 * @param holdMax election: longest leadership before resigning
 * @param rate    register and set: operations per second over all processes (0: as fast as they go)
 * @param writeEvery fenced and unfenced writes: how long a leader prepares each entry before it writes it (the
 *                   write interval)
 * @param pinReads register: null (every client uses the whole ensemble), or the server the readers are pinned to —
 *                 a node name ({@code n1}), or {@code follower} for the lowest-named follower when the run starts —
 *                 while writers use the other servers ({@link io.zkchaos.workloads.register.PinnedReadsRegister})
 */
public record WorkloadOptions(String root, int keys, ReadMode reads, Duration holdMin, Duration holdMax,
                              double rate, Duration writeEvery, String pinReads) {

    public WorkloadOptions {
        Objects.requireNonNull(root, "root");
        if (!root.startsWith("/") || root.length() > 1 && root.endsWith("/")) {
            throw new IllegalArgumentException("root must be an absolute znode path, got " + root);
        }
        if (keys < 1 || keys > 1000) {
            throw new IllegalArgumentException("keys must be 1..1000, got " + keys);
        }
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(holdMin, "holdMin");
        Objects.requireNonNull(holdMax, "holdMax");
        if (holdMin.isNegative() || holdMax.compareTo(holdMin) < 0) {
            throw new IllegalArgumentException("leadership hold must be 0 <= min <= max, got " + holdMin + ".."
                    + holdMax);
        }
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("rate must be >= 0 operations per second, got " + rate);
        }
        Objects.requireNonNull(writeEvery, "writeEvery");
        if (writeEvery.isNegative() || writeEvery.isZero()) {
            throw new IllegalArgumentException("write-every must be a positive duration, got " + writeEvery);
        }
        if (pinReads != null && pinReads.isBlank()) {
            throw new IllegalArgumentException("pin-reads must name a server (n1 ...) or be 'follower', got '"
                    + pinReads + "'");
        }
    }

    /** With the default write interval, readers not pinned. */
    public WorkloadOptions(String root, int keys, ReadMode reads, Duration holdMin, Duration holdMax, double rate) {
        this(root, keys, reads, holdMin, holdMax, rate, DEFAULT_WRITE_EVERY, null);
    }

    /** The default write interval of the fenced-writes workloads. */
    public static final Duration DEFAULT_WRITE_EVERY = Duration.ofMillis(50);

    /** Root {@code /zkchaos}, 3 keys, plain reads, leaders hold 0.3–1.5 s, 100 operations per second, a write every 50 ms. */
    public static WorkloadOptions defaults() {
        return new WorkloadOptions("/zkchaos", 3, ReadMode.PLAIN, Duration.ofMillis(300), Duration.ofMillis(1500),
                100, DEFAULT_WRITE_EVERY, null);
    }

    public WorkloadOptions withRoot(String r) {
        return new WorkloadOptions(r, keys, reads, holdMin, holdMax, rate, writeEvery, pinReads);
    }

    public WorkloadOptions withKeys(int k) {
        return new WorkloadOptions(root, k, reads, holdMin, holdMax, rate, writeEvery, pinReads);
    }

    public WorkloadOptions withReads(ReadMode r) {
        return new WorkloadOptions(root, keys, r, holdMin, holdMax, rate, writeEvery, pinReads);
    }

    public WorkloadOptions withHold(Duration min, Duration max) {
        return new WorkloadOptions(root, keys, reads, min, max, rate, writeEvery, pinReads);
    }

    public WorkloadOptions withRate(double r) {
        return new WorkloadOptions(root, keys, reads, holdMin, holdMax, r, writeEvery, pinReads);
    }

    public WorkloadOptions withWriteEvery(Duration d) {
        return new WorkloadOptions(root, keys, reads, holdMin, holdMax, rate, d, pinReads);
    }

    /** Readers pinned to {@code server} (a node name or {@code follower}); null: not pinned. */
    public WorkloadOptions withPinReads(String server) {
        return new WorkloadOptions(root, keys, reads, holdMin, holdMax, rate, writeEvery, server);
    }

    /** The root as a prefix for child paths ({@code ""} for {@code /}). */
    String prefix() {
        return root.equals("/") ? "" : root;
    }
}
