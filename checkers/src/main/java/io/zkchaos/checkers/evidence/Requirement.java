package io.zkchaos.checkers.evidence;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One thing a run must have exercised for its verdict to count as evidence. Workloads and nemeses declare theirs
 * ({@link Minimum}); each has a stable {@link #id} by which a user may relax it ({@code --relax ID}).
 */
public sealed interface Requirement {

    /** The stable name, e.g. {@code acked-main}, {@code fault-applied}. */
    String id();

    /** What it asks, for people: {@code some write or cas acknowledged in the main phase}. */
    String description();

    /** Why {@code run} falls short of it, or empty when it meets it. */
    Optional<String> unmet(Exercised run);

    /**
     * At least one client operation of {@code functions} (empty: of any function) acknowledged in {@code phase}.
     */
    record Acknowledged(String id, Phase phase, Set<String> functions) implements Requirement {
        public Acknowledged {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(phase, "phase");
            functions = Set.copyOf(functions);
        }

        @Override
        public String description() {
            return "some " + what(functions) + " acknowledged " + phase.words();
        }

        @Override
        public Optional<String> unmet(Exercised run) {
            OpCounts c = OpCounts.NONE;
            for (FunctionTally t : run.functions()) {
                if (functions.isEmpty() || functions.contains(t.f())) {
                    c = c.plus(t.in(phase));
                }
            }
            if (c.ok() > 0) {
                return Optional.empty();
            }
            return Optional.of("no " + what(functions) + " was acknowledged " + phase.words()
                    + (c.total() == 0 ? " (none was made)" : " (" + c + ")"));
        }
    }

    /**
     * At least one client operation of {@code functions} (empty: any) acknowledged while one of {@code faults} was in
     * force. Judged only when one of those faults was applied: a nemesis that never acted is {@link FaultApplied}'s
     * finding. The faults are those under which the system should still serve (a quorum stays up and the clients
     * reach it); a fault that takes the quorum or every client link away is not among them.
     */
    record AcknowledgedUnderFault(String id, Set<String> functions, Set<String> faults) implements Requirement {
        public AcknowledgedUnderFault {
            Objects.requireNonNull(id, "id");
            functions = Set.copyOf(functions);
            faults = Set.copyOf(faults);
        }

        @Override
        public String description() {
            return "some " + what(functions) + " acknowledged while a fault was in force";
        }

        @Override
        public Optional<String> unmet(Exercised run) {
            List<FaultTally> applied = run.faults().stream()
                    .filter(f -> faults.contains(f.fault()) && f.applied() > 0).toList();
            if (applied.isEmpty()) {
                return Optional.empty();
            }
            // Only acknowledgements while one of our faults was in force count: one made while only a fault that
            // takes service away was in force (NO_SERVICE, not in faults) is not one under a serving fault. The
            // per-fault figures count every function; with a subset asked for, count it per function and fault.
            long ok = functions.isEmpty() ? applied.stream().mapToLong(FaultTally::okUnder).sum()
                    : run.functions().stream().filter(t -> functions.contains(t.f()))
                            .mapToLong(t -> faults.stream().mapToLong(f -> t.underFault(f).ok()).sum()).sum();
            if (ok > 0) {
                return Optional.empty();
            }
            return Optional.of("no " + what(functions) + " was acknowledged while a fault was in force ("
                    + applied.stream().map(f -> f.fault() + " applied " + f.applied() + "x")
                            .collect(Collectors.joining(", ")) + ")");
        }
    }

    /**
     * The nemesis acted at least once and the system felt it: some fault start did something to some node, and what
     * was measured of it from the system (the process seen gone or stopped, the disk's errors returned, the server's
     * clock read back, the proxy's resets and drops; {@link FaultTally#felt}) shows it. A start of which nothing was
     * measured (an older history, an in-memory run, a fault or backend without a measure) counts as felt.
     */
    record FaultApplied(String id) implements Requirement {
        public FaultApplied {
            Objects.requireNonNull(id, "id");
        }

        @Override
        public String description() {
            return "the nemesis applied at least one fault";
        }

        @Override
        public Optional<String> unmet(Exercised run) {
            if (run.faultsFelt() > 0) {
                return Optional.empty();
            }
            if (run.faultsApplied() > 0) {
                List<String> unfelt = run.faults().stream().flatMap(f -> f.unfelt().stream()).toList();
                return Optional.of("applied " + run.faultsApplied() + ", felt 0: " + String.join("; ",
                        unfelt.subList(0, Math.min(3, unfelt.size()))) + (unfelt.size() > 3 ? "; ..." : ""));
            }
            long attempted = run.faultsAttempted();
            if (attempted == 0) {
                return Optional.of("the nemesis never acted: no fault was started");
            }
            List<String> reasons = run.faults().stream().flatMap(f -> f.reasons().stream()).distinct().toList();
            return Optional.of("the nemesis never acted: " + attempted + " of " + attempted + " action"
                    + (attempted == 1 ? "" : "s") + " could not act" + (reasons.isEmpty() ? ""
                    : ": " + String.join("; ", reasons.subList(0, Math.min(3, reasons.size())))
                    + (reasons.size() > 3 ? "; ..." : "")));
        }
    }

    /**
     * A fault that acts at a protocol moment fired at least once: arming a trigger that never fires tests nothing.
     * Judged only when one of {@code faults} was applied, and only when no other fault was: in a run of several
     * faults ({@code mixed}), the others applied are what the run exercised, and a trigger that waited in vain is one
     * fault that did not happen among them, not a run that tested nothing.
     */
    record TriggerFired(String id, Set<String> faults) implements Requirement {
        public TriggerFired {
            Objects.requireNonNull(id, "id");
            faults = Set.copyOf(faults);
        }

        @Override
        public String description() {
            return "a protocol trigger fired";
        }

        @Override
        public Optional<String> unmet(Exercised run) {
            List<FaultTally> ours = run.faults().stream()
                    .filter(f -> faults.contains(f.fault()) && f.applied() > 0).toList();
            boolean othersApplied = run.faults().stream()
                    .anyMatch(f -> !faults.contains(f.fault()) && f.applied() > 0);
            if (ours.isEmpty() || othersApplied || ours.stream().anyMatch(f -> f.triggersFired() > 0)) {
                return Optional.empty();
            }
            long armed = ours.stream().mapToLong(FaultTally::triggersArmed).sum();
            String syncs = run.quorumSyncs().isEmpty() ? "" : "; quorum syncs seen: " + run.quorumSyncs().entrySet()
                    .stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
            return Optional.of("the fault never happened: protocol triggers fired 0 of " + armed + " armed"
                    + syncs);
        }
    }

    /** Every read of {@code f} the harness made after the run (one per server) answered. */
    record HarnessReadsDone(String id, String f) implements Requirement {
        public HarnessReadsDone {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(f, "f");
        }

        @Override
        public String description() {
            return "every final " + f + " answered";
        }

        @Override
        public Optional<String> unmet(Exercised run) {
            OpCounts c = run.harness().getOrDefault(f, OpCounts.NONE);
            if (c.total() > 0 && c.ok() == c.total()) {
                return Optional.empty();
            }
            return Optional.of(c.total() == 0 ? "no final " + f + " was made"
                    : (c.total() - c.ok()) + " of " + c.total() + " final " + f + "s did not answer");
        }
    }

    /**
     * A promise the workload claims for itself was put to the test at least once: {@code checker}'s findings
     * ({@link TestsPromises}) count {@code promise} above 0. A run that never tested it says nothing about it, so it
     * is no evidence for it. The id is {@code promise:CHECKER:PROMISE} ({@link #promiseId}).
     */
    record PromiseTested(String id, String checker, String promise) implements Requirement {
        public PromiseTested {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(checker, "checker");
            Objects.requireNonNull(promise, "promise");
        }

        /** The requirement with its standard id, {@code promise:CHECKER:PROMISE}. */
        public PromiseTested(String checker, String promise) {
            this(promiseId(checker, promise), checker, promise);
        }

        @Override
        public String description() {
            return "the " + checker + " checker's promise '" + promise + "' put to the test";
        }

        @Override
        public Optional<String> unmet(Exercised run) {
            List<PromiseTally> tallies = run.promises().get(checker);
            if (tallies == null) {
                return Optional.of(checker + " said nothing of its promises (it did not run, or its findings "
                        + "count none), so '" + promise + "' was not judged");
            }
            Optional<PromiseTally> t = tallies.stream().filter(x -> x.id().equals(promise)).findFirst();
            if (t.isEmpty()) {
                return Optional.of(checker + " judges no promise '" + promise + "' (its promises: "
                        + tallies.stream().map(PromiseTally::id).collect(Collectors.joining(", ")) + ")");
            }
            if (t.get().wasTested()) {
                return Optional.empty();
            }
            return Optional.of("promise " + checker + ":" + promise + " (" + t.get().description()
                    + ") was not put to the test: 0 times");
        }
    }

    /** The id of the requirement that {@code checker}'s {@code promise} was tested: {@code promise:CHECKER:PROMISE}. */
    static String promiseId(String checker, String promise) {
        return "promise:" + checker + ":" + promise;
    }

    private static String what(Set<String> functions) {
        if (functions.isEmpty()) {
            return "operation";
        }
        return functions.stream().sorted().collect(Collectors.joining(" or "));
    }
}
