package io.zkchaos.checkers.linear;

import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Operation;
import io.zkchaos.checkers.model.KvModel;
import io.zkchaos.checkers.model.Model;
import io.zkchaos.checkers.model.UnobservedInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Checks that a history is linearizable with respect to a {@link Model}: the Wing–Gong/Lowe search with
 * memoisation, as Porcupine does it, over each independent partition of the history (P-compositionality), in
 * parallel.
 *
 * <p>Real-time order is history order ({@link Operation#invokeIndex()}, {@link Operation#completeIndex()}), never
 * clocks. Failed operations did not happen and are dropped. Indeterminate operations ({@code info}, or never
 * completed) may have taken effect at any time after their invoke, or never; those the model calls read-only are
 * dropped, since an unseen answer constrains nothing.
 *
 * <p>The verdict is {@code invalid} as soon as one partition is not linearizable (the other searches are
 * cancelled), with a {@link Counterexample}; {@code unknown} if the time limit or the memory guard stopped a search
 * first, saying which — never a guess; otherwise {@code valid}. Thread-safe: each check has its own state.
 */
public final class LinearizabilityChecker implements Checker {

    /** The most operations of the prefix an explanation lists (the last ones). */
    public static final int MAX_PREFIX_SHOWN = 100;
    /** The most concurrent operations an explanation lists. */
    public static final int MAX_CONCURRENT_SHOWN = 50;

    private final Model<Object> model;
    private final Duration timeLimit;
    private final int parallelism;
    private final boolean partitioned;
    private final long maxCacheEntries;

    private LinearizabilityChecker(Builder b) {
        @SuppressWarnings("unchecked")
        Model<Object> m = (Model<Object>) b.model;
        this.model = m;
        this.timeLimit = b.timeLimit;
        this.parallelism = b.parallelism;
        this.partitioned = b.partitioned;
        this.maxCacheEntries = b.maxCacheEntries;
    }

    /** A builder for a checker against {@code model}; every option has a default. */
    public static Builder builder(Model<?> model) {
        return new Builder(model);
    }

    /** A checker against {@code model} with the default options. */
    public static LinearizabilityChecker of(Model<?> model) {
        return builder(model).build();
    }

    @Override
    public String name() {
        return "linearizable";
    }

    public Model<?> model() {
        return model;
    }

    @Override
    public CheckResult check(History given) {
        Objects.requireNonNull(given, "history");
        // the clients' operations: the harness's own reads and probes are not operations on the model
        History history = given.withoutHarness();
        if (history.operationCount() == 0) {
            // Any empty history is linearizable; saying "valid" of one would claim a check that never happened.
            return CheckResult.of(name(), Validity.UNKNOWN, "No operation in the history: nothing to check.",
                    new LinearizabilityDetails(model.name(), partitioned, 0, 0, 0, 0, 0, 0, null, null));
        }
        long maxCacheBytes = Runtime.getRuntime().maxMemory() / 2;
        SearchControl control = new SearchControl(timeLimit == null ? 0 : Math.max(1, timeLimit.toMillis()),
                maxCacheEntries, maxCacheBytes);

        Model<Object> searched = model;
        List<Part> parts = new ArrayList<>();
        if (partitioned && model.partitionsByKey()) {
            // Grouped on the stored keys: each partition's operations are made by the thread that searches it,
            // and are garbage once it is done.
            for (int[] ids : history.operationIdsByKey()) {
                parts.add(new Part(ids, null, history));
            }
        } else {
            List<Operation> all = new ArrayList<>(history.operations());
            List<List<Operation>> raw;
            if (partitioned) {
                raw = model.partition(all);
            } else {
                boolean manyObjects = model.partitionsByKey() ? history.operationIdsByKey().length > 1
                        : model.partition(all).size() > 1;
                if (!(((Object) model) instanceof KvModel) && manyObjects) {
                    // one search over independent objects: give it a state per key (kv's state is a map already)
                    @SuppressWarnings({"unchecked", "rawtypes"})
                    Model<Object> perKey = (Model) new PerKeyModel(model);
                    searched = perKey;
                }
                raw = List.of(all);
            }
            for (List<Operation> part : raw) {
                parts.add(new Part(null, part, history));
            }
        }
        // Biggest first, so the long searches start early and do not finish last alone.
        parts.sort(Comparator.comparingInt(Part::size).reversed());

        List<Outcome> outcomes = runAll(searched, parts, control);

        int partitionCount = 0;
        int operations = 0;
        int unobserved = 0;
        for (Outcome o : outcomes) {
            unobserved += o.unobserved;
            if (o.operations > 0) {
                partitionCount++;
                operations += o.operations;
            }
        }
        Outcome invalid = null;
        Outcome stopped = null;
        int checked = 0;
        for (Outcome o : outcomes) {
            if (o.operations == 0) {
                continue;
            }
            if (o.result != null) {
                checked++;
                if (!o.result.linearizable() && invalid == null) {
                    invalid = o;
                }
            } else if (o.stop != null && o.stop.reason != SearchControl.Reason.CANCELLED && stopped == null) {
                stopped = o;
            }
        }
        long elapsed = control.elapsedMillis();
        String partitionNoun = partitionCount == 1 ? "partition" : "partitions";
        if (invalid != null) {
            Counterexample cx = explain(invalid, searched);
            LinearizabilityDetails d = new LinearizabilityDetails(model.name(), partitioned, partitionCount,
                    operations, unobserved, checked, elapsed, control.peakCacheEntries(), cx, null);
            return CheckResult.of(name(), Validity.INVALID, sentence(cx, invalid.result), d);
        }
        if (stopped != null) {
            String cause = stopped.stop.getMessage() + " after " + elapsed + " ms, with " + checked + " of "
                    + partitionCount + " " + partitionNoun + " checked";
            LinearizabilityDetails d = new LinearizabilityDetails(model.name(), partitioned, partitionCount,
                    operations, unobserved, checked, elapsed, control.peakCacheEntries(), null, cause);
            return CheckResult.of(name(), Validity.UNKNOWN,
                    "No verdict: the " + cause + " (" + label(stopped.key) + " unfinished).", d);
        }
        LinearizabilityDetails d = new LinearizabilityDetails(model.name(), partitioned, partitionCount, operations,
                unobserved, checked, elapsed, control.peakCacheEntries(), null, null);
        return CheckResult.of(name(), Validity.VALID, "All " + operations + " operations in " + partitionCount + " "
                + partitionNoun + " are linearizable with respect to the " + model.name() + " model (checked in "
                + elapsed + " ms).", d);
    }

    /**
     * One partition before it is prepared: the ids of its operations in a stored history (made when it is searched),
     * or the operations themselves.
     */
    private record Part(int[] ids, List<Operation> operations, History history) {
        int size() {
            return ids != null ? ids.length : operations.size();
        }

        List<Operation> make() {
            return operations != null ? operations : history.operations(ids);
        }
    }

    /**
     * The outcome of one partition: its key (that of its first operation), how many operations were searched (fail
     * and unanswerable read-only ones dropped, and the indeterminate ones nobody could observe), how many were
     * dropped as unobserved, and a result or why it stopped; both null for a partition left with no operations.
     * It holds no operation unless the result is a counterexample: a valid partition's operations are garbage as
     * soon as it is searched.
     */
    private record Outcome(String key, int operations, int unobserved, PartitionSearch.Result result,
                           SearchControl.Stop stop) {
    }

    /** The operations of {@code part} worth searching; the count of unobserved ones dropped goes to {@code dropped}. */
    private List<Operation> prepare(Part part, int[] dropped) {
        List<Operation> kept = new ArrayList<>(part.size());
        boolean anyInfo = false;
        for (Operation op : part.make()) {
            if (op.isFail() || (op.isInfo() && model.isReadOnly(op))) {
                continue;
            }
            anyInfo |= op.isInfo();
            kept.add(op);
        }
        if (anyInfo && ((Object) model) instanceof UnobservedInfo u) {
            // indeterminate operations nobody could have seen cannot matter, and each costs a factor of 2
            Predicate<Operation> drop = u.unobserved(kept);
            int before = kept.size();
            kept.removeIf(op -> op.isInfo() && drop.test(op));
            dropped[0] = before - kept.size();
        }
        return kept;
    }

    private Outcome searchOne(Model<Object> searched, Part part, SearchControl control) {
        int[] dropped = new int[1];
        List<Operation> ops = prepare(part, dropped);
        if (ops.isEmpty()) {
            return new Outcome(null, 0, dropped[0], null, null);
        }
        String key = ops.get(0).key();
        int n = ops.size();
        try {
            if (control.isCancelled()) {
                return new Outcome(key, n, dropped[0], null,
                        new SearchControl.Stop(SearchControl.Reason.CANCELLED, "cancelled"));
            }
            PartitionSearch.Result r = new PartitionSearch(searched, ops, control).run();
            if (!r.linearizable()) {
                control.cancel();
            }
            return new Outcome(key, n, dropped[0], r, null);
        } catch (SearchControl.Stop stop) {
            return new Outcome(key, n, dropped[0], null, stop);
        } catch (OutOfMemoryError oom) {
            control.cancel();
            return new Outcome(key, n, dropped[0], null, new SearchControl.Stop(SearchControl.Reason.MEMORY_GUARD,
                    "memory guard tripped (the search ran out of heap)"));
        }
    }

    private List<Outcome> runAll(Model<Object> searched, List<Part> parts, SearchControl control) {
        List<Outcome> outcomes = new ArrayList<>(parts.size());
        int threads = Math.min(parallelism, parts.size());
        if (threads <= 1) {
            for (Part part : parts) {
                // after an invalid partition the others are still prepared (for the counts), not searched
                outcomes.add(searchOne(searched, part, control));
            }
            return outcomes;
        }
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "linearizable-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try {
            ExecutorCompletionService<Outcome> done = new ExecutorCompletionService<>(pool);
            List<Future<Outcome>> futures = new ArrayList<>(parts.size());
            for (Part part : parts) {
                futures.add(done.submit(() -> searchOne(searched, part, control)));
            }
            for (int i = 0; i < parts.size(); i++) {
                try {
                    outcomes.add(done.take().get());
                } catch (ExecutionException e) {
                    control.cancel();
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException re) {
                        throw re;
                    }
                    if (cause instanceof Error err) {
                        throw err;
                    }
                    throw new IllegalStateException(cause);
                }
            }
            return outcomes;
        } catch (InterruptedException e) {
            control.cancel();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking linearizability", e);
        } finally {
            pool.shutdownNow();
        }
    }

    private Counterexample explain(Outcome o, Model<Object> searched) {
        PartitionSearch.Result r = o.result;
        List<Operation> prefix = r.prefix();
        int omitted = Math.max(0, prefix.size() - MAX_PREFIX_SHOWN);
        List<OpView> shown = prefix.subList(omitted, prefix.size()).stream().map(this::view).toList();
        List<String> states = r.states().stream().map(searched::describeState).toList();
        List<OpView> concurrent = r.concurrent().stream().limit(MAX_CONCURRENT_SHOWN).map(this::view).toList();
        return new Counterexample(partitioned ? o.key : null, view(r.blocked()), shown, prefix.size(), omitted,
                states, r.statesTruncated(), concurrent);
    }

    private OpView view(Operation op) {
        return OpView.of(op, model.describeOperation(op));
    }

    private String sentence(Counterexample cx, PartitionSearch.Result r) {
        OpView op = cx.operation();
        String states = cx.possibleStates().size() == 1 ? "could only be " + cx.possibleStates().get(0)
                : "could only be one of " + String.join(", ", cx.possibleStates()) + (cx.morePossibleStates()
                ? ", ..." : "");
        String where = cx.partition() == null ? "" : "On key " + cx.partition() + ", ";
        String s = where + "process " + op.process() + "'s " + op.description() + " (history entries "
                + op.invokeIndex() + "-" + (op.completeIndex() < 0 ? "never completed" : op.completeIndex())
                + ") cannot be linearized: in every order of the operations before it the " + model.name() + " "
                + states + " at that point (longest linearizable prefix: " + cx.prefixLength() + " operations).";
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private String label(String key) {
        return !partitioned || key == null ? "the history" : "key " + key;
    }

    @Override
    public String toString() {
        return "LinearizabilityChecker[model=" + model.name() + ", timeLimit=" + timeLimit + ", parallelism="
                + parallelism + ", partitioned=" + partitioned + ", maxCacheEntries=" + maxCacheEntries + "]";
    }

    /** Options for a {@link LinearizabilityChecker}; validated by {@link #build()}. */
    public static final class Builder {
        private final Model<?> model;
        private Duration timeLimit;
        private int parallelism = Runtime.getRuntime().availableProcessors();
        private boolean partitioned = true;
        private long maxCacheEntries = Long.MAX_VALUE;

        private Builder(Model<?> model) {
            this.model = model;
        }

        /** The most wall time a check may take before it ends {@code unknown}; null (default) for no limit. */
        public Builder timeLimit(Duration timeLimit) {
            this.timeLimit = timeLimit;
            return this;
        }

        /** How many partitions are searched at once; default the number of available processors. */
        public Builder parallelism(int parallelism) {
            this.parallelism = parallelism;
            return this;
        }

        /** Whether to split the history with {@link Model#partition} (default true) or check it whole. */
        public Builder partitioned(boolean partitioned) {
            this.partitioned = partitioned;
            return this;
        }

        /**
         * The memory guard: the most configurations all searches may cache at once before the check ends
         * {@code unknown}. Default unlimited; an estimate of the caches' size is in any case held under half the
         * maximum heap.
         */
        public Builder maxCacheEntries(long maxCacheEntries) {
            this.maxCacheEntries = maxCacheEntries;
            return this;
        }

        /** @throws IllegalArgumentException naming the field that is out of range */
        public LinearizabilityChecker build() {
            if (model == null) {
                throw new IllegalArgumentException("model: must not be null");
            }
            if (timeLimit != null && (timeLimit.isNegative() || timeLimit.isZero())) {
                throw new IllegalArgumentException("timeLimit: must be positive (or null for none), got "
                        + timeLimit);
            }
            if (parallelism < 1) {
                throw new IllegalArgumentException("parallelism: must be at least 1, got " + parallelism);
            }
            if (maxCacheEntries < 1) {
                throw new IllegalArgumentException("maxCacheEntries: must be at least 1, got " + maxCacheEntries);
            }
            return new LinearizabilityChecker(this);
        }
    }
}
