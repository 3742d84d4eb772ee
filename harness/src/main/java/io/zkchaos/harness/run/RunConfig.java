package io.zkchaos.harness.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * One scenario run, fully described: the same configuration and seed give the same operation choices, fault
 * choices and fault timings. Immutable; build it with {@link #builder()}, whose {@code build()} validates every field
 * and names the one that is wrong. Saved as {@code config.json} at the start of every run.
 *
 * @param workload       the workload's name ({@link WorkloadCatalog})
 * @param nemesis        the nemesis's name ({@link NemesisCatalog})
 * @param nodes          ensemble size: 3 or 5 (1 for smoke runs; no network faults possible)
 * @param zookeeper      the ZooKeeper version under test
 * @param timeLimit      how long clients and nemesis run (the main phase)
 * @param faultFor       how long each fault is held in a nemesis cycle
 * @param healFor        how long the cluster is left healed between faults (and before the first)
 * @param recover        after the final heal, how long clients keep working before the final reads (what
 *                       happens after the heal, such as a new leader, is observed in that time)
 * @param concurrency    how many client processes run at once
 * @param seed           the seed of every random choice
 * @param keys           registers in the register workload
 * @param rate           register and set: operations per second over all clients (0: as fast as they go)
 * @param syncReads      register workload: {@code sync()} before each read instead of plain reads
 * @param strict         report ZooKeeper's documented stale plain reads as violations
 * @param sessionTimeout the ZooKeeper session timeout clients ask for
 * @param requestTimeout the longest a client call may take before it is recorded as indeterminate
 * @param failoverBound  after a heal, a leader must exist again within this bound (election workloads)
 * @param out            the parent directory of the run directories (the store)
 */
public record RunConfig(String workload, String nemesis, int nodes, String zookeeper, Duration timeLimit,
                        Duration faultFor, Duration healFor, Duration recover, int concurrency, long seed, int keys,
                        double rate, boolean syncReads, boolean strict, Duration sessionTimeout, Duration requestTimeout,
                        Duration failoverBound, String out) {

    /** The scenario's name: {@code <workload>-<nemesis>}, also the store's subdirectory. */
    public String scenario() {
        return workload + "-" + nemesis;
    }

    public Path outDirectory() {
        return Path.of(out);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder with the defaults of {@code ./zkchaos run}. */
    public static final class Builder {
        private String workload = "register";
        private String nemesis = "none";
        private int nodes = 3;
        private String zookeeper = "3.9.5";
        private Duration timeLimit = Duration.ofSeconds(60);
        private Duration faultFor = Duration.ofSeconds(10);
        private Duration healFor = Duration.ofSeconds(10);
        private Duration recover = Duration.ofSeconds(10);
        private int concurrency = 5;
        private long seed = System.currentTimeMillis();
        private int keys = 3;
        private double rate = 100;
        private boolean syncReads;
        private boolean strict;
        private Duration sessionTimeout = Duration.ofSeconds(4);
        private Duration requestTimeout = Duration.ofSeconds(3);
        // session timeout + initLimit x tickTime + margin: an orphaned node ahead in the queue must expire first
        private Duration failoverBound = Duration.ofSeconds(10);
        private String out = "store";

        public Builder workload(String v) {
            workload = v;
            return this;
        }

        public Builder nemesis(String v) {
            nemesis = v;
            return this;
        }

        public Builder nodes(int v) {
            nodes = v;
            return this;
        }

        public Builder zookeeper(String v) {
            zookeeper = v;
            return this;
        }

        public Builder timeLimit(Duration v) {
            timeLimit = v;
            return this;
        }

        public Builder faultFor(Duration v) {
            faultFor = v;
            return this;
        }

        public Builder healFor(Duration v) {
            healFor = v;
            return this;
        }

        public Builder recover(Duration v) {
            recover = v;
            return this;
        }

        public Builder concurrency(int v) {
            concurrency = v;
            return this;
        }

        public Builder seed(long v) {
            seed = v;
            return this;
        }

        public Builder keys(int v) {
            keys = v;
            return this;
        }

        public Builder rate(double v) {
            rate = v;
            return this;
        }

        public Builder syncReads(boolean v) {
            syncReads = v;
            return this;
        }

        public Builder strict(boolean v) {
            strict = v;
            return this;
        }

        public Builder sessionTimeout(Duration v) {
            sessionTimeout = v;
            return this;
        }

        public Builder requestTimeout(Duration v) {
            requestTimeout = v;
            return this;
        }

        public Builder failoverBound(Duration v) {
            failoverBound = v;
            return this;
        }

        public Builder out(Path v) {
            out = v == null ? null : v.toString();
            return this;
        }

        /** @throws IllegalArgumentException naming the field that is wrong */
        public RunConfig build() {
            WorkloadCatalog.require(workload);
            NemesisCatalog.require(nemesis);
            if (nodes != 1 && nodes != 3 && nodes != 5) {
                throw new IllegalArgumentException("nodes must be 3 or 5 (1 for a smoke run), got " + nodes);
            }
            if (nodes == 1 && !nemesis.equals("none")) {
                throw new IllegalArgumentException("nemesis '" + nemesis + "' needs at least 3 nodes; nodes is 1");
            }
            Objects.requireNonNull(zookeeper, "zookeeper version");
            positive(timeLimit, "time-limit");
            positive(faultFor, "fault-for");
            positive(healFor, "heal-for");
            positive(sessionTimeout, "session-timeout");
            positive(requestTimeout, "request-timeout");
            positive(failoverBound, "failover-bound");
            if (recover == null || recover.isNegative()) {
                throw new IllegalArgumentException("recover must be zero or positive, got " + recover);
            }
            if (concurrency < 1 || concurrency > 1000) {
                throw new IllegalArgumentException("concurrency must be 1..1000, got " + concurrency);
            }
            if (keys < 1 || keys > 1000) {
                throw new IllegalArgumentException("keys must be 1..1000, got " + keys);
            }
            if (!(rate >= 0) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("rate must be >= 0 operations per second, got " + rate);
            }
            if (out == null || out.isBlank()) {
                throw new IllegalArgumentException("out must name a directory");
            }
            return new RunConfig(workload, nemesis, nodes, zookeeper, timeLimit, faultFor, healFor, recover,
                    concurrency, seed, keys, rate, syncReads, strict, sessionTimeout, requestTimeout, failoverBound, out);
        }

        private static void positive(Duration d, String field) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(field + " must be a positive duration, got " + d);
            }
        }
    }
}
