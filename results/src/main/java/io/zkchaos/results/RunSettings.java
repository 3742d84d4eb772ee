package io.zkchaos.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zkchaos.checkers.CheckerOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A run's {@code config.json}: the harness's run configuration as it is saved, every value plain data (names,
 * numbers, durations) so that the file does not change when the harness's own types do. The harness fills it
 * ({@code RunConfig.saved()}); the report reads it.
 *
 * @param scenario the scenario's name, as the store's directory ({@code register-isolate-leader},
 *                 {@code fle+bug-set-kill-all}); null in files from before it was saved
 * @param cluster  what ran the system under test
 * @param workload what the clients did
 * @param nemesis  which faults, how long held, how long healed between
 * @param checks   the checkers' settings
 * @param timing   how long the main phase and the recovery after the final heal lasted
 * @param seed     the seed of every random choice
 * @param out      the store the run directory is in
 * @param storage  where the servers kept their data and whether they fsynced it; null in files from before it was
 *                 saved
 * @param load     what shaped the load beside the workload (preload, ACLs, churn); null (and not written) when
 *                 there was none. Files written before it existed kept these under {@code storage}: they are read
 *                 into it here, so every reader sees one shape
 */
public record RunSettings(String scenario, Cluster cluster, Workload workload, Nemesis nemesis,
                          CheckerOptions checks, Timing timing, long seed, String out, Storage storage,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Load load)
        implements ConfigFile {

    public RunSettings {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(nemesis, "nemesis");
        if (storage != null && storage.load() != null) {
            if (load != null) {
                throw new IllegalArgumentException("storage: names preload, acls or churn, which this file also "
                        + "has under load (one place for each)");
            }
            load = storage.load();
            storage = new Storage(storage.lazyfs(), storage.forceSync(), storage.snapCount(), null);
        }
    }

    /** Without load beside the workload. */
    public RunSettings(String scenario, Cluster cluster, Workload workload, Nemesis nemesis, CheckerOptions checks,
                       Timing timing, long seed, String out, Storage storage) {
        this(scenario, cluster, workload, nemesis, checks, timing, seed, out, storage, null);
    }

    /** The scenario; {@code <workload>-<nemesis>} for a file without one. */
    @Override
    public String title() {
        return scenario != null ? scenario : workload.name() + "-" + nemesis.name();
    }

    /**
     * What ran the system under test.
     *
     * @param backend   the cluster backend's name
     * @param nodes     how many nodes
     * @param zookeeper the ZooKeeper version
     * @param sync      how followers synced with their leader ({@code AUTO}, {@code DIFF}, ...); null in older files
     * @param system    {@code zookeeper} or {@code fle}; null in older files (ZooKeeper)
     * @param bugs      the fle nodes' bug flags switched on; null in older files (none)
     * @param hosts     the ssh backend's: the host that ran each node, in node order ({@code n1} on the first);
     *                  empty for the other backends and in older files
     */
    public record Cluster(String backend, int nodes, String zookeeper, String sync, String system,
                          List<String> bugs, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> hosts) {
        public Cluster {
            bugs = bugs == null ? List.of() : List.copyOf(bugs);
            hosts = hosts == null ? List.of() : List.copyOf(hosts);
        }

        /** Not on hosts (every backend but ssh). */
        public Cluster(String backend, int nodes, String zookeeper, String sync, String system, List<String> bugs) {
            this(backend, nodes, zookeeper, sync, system, bugs, List.of());
        }

        /** Which host ran each node, {@code n1 db-1, n2 db-2, ...}; empty when not on hosts. */
        public String nodesOnHosts() {
            List<String> on = new java.util.ArrayList<>();
            for (int i = 0; i < hosts.size(); i++) {
                on.add("n" + (i + 1) + " " + hosts.get(i));
            }
            return String.join(", ", on);
        }
    }

    /**
     * What the clients did.
     *
     * @param name           the workload
     * @param concurrency    how many client processes ran at once
     * @param options        the workload's settings by name, as the workload's options write them
     * @param sessionTimeout the ZooKeeper session timeout clients asked for
     * @param requestTimeout the longest a client call could take before it was recorded as indeterminate
     * @param clients        {@code THREAD} or {@code PROCESS}; null in older files (threads)
     */
    public record Workload(String name, int concurrency, Map<String, Object> options, Duration sessionTimeout,
                           Duration requestTimeout, String clients) {
        public Workload {
            Objects.requireNonNull(name, "workload name");
            options = options == null ? Map.of() : java.util.Collections.unmodifiableMap(
                    new java.util.LinkedHashMap<>(options));
        }
    }

    /**
     * Which faults, and their cycle.
     *
     * @param name     the nemesis
     * @param faultFor how long each fault was held
     * @param healFor  how long the cluster was left healed between faults
     * @param compose  the most faults in force at once ({@code --compose}); 1 in files written before it existed
     * @param without  the fault families left out of the draw ({@code --without clock,disk}), by name; empty (and not
     *                 written) when none was, as in files written before it existed
     */
    public record Nemesis(String name, Duration faultFor, Duration healFor, int compose,
                          @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> without) {
        public Nemesis {
            Objects.requireNonNull(name, "nemesis name");
            compose = compose == 0 ? 1 : compose;
            // files written before --without existed have none: every family the nemesis has
            without = without == null ? List.of() : List.copyOf(without);
        }

        /** No family left out. */
        public Nemesis(String name, Duration faultFor, Duration healFor, int compose) {
            this(name, faultFor, healFor, compose, List.of());
        }

        /** One fault at a time. */
        public Nemesis(String name, Duration faultFor, Duration healFor) {
            this(name, faultFor, healFor, 1);
        }
    }

    /**
     * How long things lasted.
     *
     * @param timeLimit the main phase
     * @param recover   after the final heal, before the final reads
     * @param recoveryBound after the final heal, how soon writes had to be acknowledged and every server serve
     *                  again; null in files written before the bound existed
     */
    public record Timing(Duration timeLimit, Duration recover, Duration recoveryBound) {

        /** Without a recovery bound (files written before it existed). */
        public Timing(Duration timeLimit, Duration recover) {
            this(timeLimit, recover, null);
        }
    }

    /**
     * Where the servers kept their data.
     *
     * @param lazyfs    on the lazy file system
     * @param forceSync ZooKeeper's {@code forceSync}
     * @param snapCount ZooKeeper's {@code snapCount} ({@code --snap-count}); null for ZooKeeper's own (and in older
     *                  files)
     * @param preload   the znodes created before the main phase, {@code COUNTxBYTES} ({@code --preload}); null for none
     *                  (and in older files)
     * @param acls      the ACLs on the workload's znodes ({@code --acl}): {@code per-client}; null for open (and in
     *                  older files)
     * @param churn     lanes of session churn ({@code --churn}); null for none (and in older files)
     *                  <p>{@code preload}, {@code acls} and {@code churn} are read from files written before
     *                  {@link Load} existed, and moved there ({@link RunSettings}); never written here now
     */
    public record Storage(boolean lazyfs, boolean forceSync,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Integer snapCount,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String preload,
                          @JsonInclude(JsonInclude.Include.NON_NULL) String acls,
                          @JsonInclude(JsonInclude.Include.NON_NULL) Integer churn) {

        /** ZooKeeper's own snapCount, nothing preloaded, open ACLs, no churn. */
        public Storage(boolean lazyfs, boolean forceSync) {
            this(lazyfs, forceSync, null, null, null, null);
        }

        /** Open ACLs, no churn (files written before they existed). */
        public Storage(boolean lazyfs, boolean forceSync, Integer snapCount, String preload) {
            this(lazyfs, forceSync, snapCount, preload, null, null);
        }

        /** What an older file kept here of the load ({@code preload}, {@code acls}, {@code churn}); null for none. */
        Load load() {
            return preload == null && acls == null && churn == null ? null : new Load(preload, acls, churn);
        }
    }

    /**
     * What shaped the load beside the workload.
     *
     * @param preload the znodes created before the main phase, {@code COUNTxBYTES} ({@code --preload}); null for none
     * @param acls    the ACLs on the workload's znodes ({@code --acl}): {@code per-client}; null for open
     * @param churn   lanes of session churn ({@code --churn}); null for none
     */
    public record Load(@JsonInclude(JsonInclude.Include.NON_NULL) String preload,
                       @JsonInclude(JsonInclude.Include.NON_NULL) String acls,
                       @JsonInclude(JsonInclude.Include.NON_NULL) Integer churn) {
    }
}
