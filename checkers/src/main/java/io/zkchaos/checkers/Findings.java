package io.zkchaos.checkers;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.zkchaos.checkers.churn.ChurnReport;
import io.zkchaos.checkers.evidence.EvidenceReport;
import io.zkchaos.checkers.fenced.FencedReport;
import io.zkchaos.checkers.leader.SingleLeaderReport;
import io.zkchaos.checkers.linear.LinearizabilityDetails;
import io.zkchaos.checkers.log.LogReport;
import io.zkchaos.checkers.multi.MultiReport;
import io.zkchaos.checkers.readmodel.ReadModelReport;
import io.zkchaos.checkers.sequential.SequentialReport;
import io.zkchaos.checkers.servers.ServerReport;
import io.zkchaos.checkers.sessions.SessionsReport;
import io.zkchaos.checkers.recovery.RecoveryReport;
import io.zkchaos.checkers.servers.AvailabilityReport;
import io.zkchaos.checkers.set.SetReport;
import io.zkchaos.checkers.state.FinalStateReport;
import io.zkchaos.checkers.watches.WatchesReport;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SortedSet;

/**
 * What a checker found, as data: the {@link CheckResult#details()} of every checker is one of a small, closed family
 * of records (lost values, a linearizability counterexample, stale reads, overlapping leaders, fencing violations,
 * final-state differences, ...), so that whoever reads a verdict (the report, a benchmark, a test) picks a kind by
 * its type, never by the shape of its fields.
 *
 * <p>In JSON ({@code results.json}, {@code check --json}) every kind is the record's fields plus {@code "kind"}, a
 * name fixed here and never derived from a class name, so that renaming a class does not change the files. A kind
 * that is added needs a line in {@link JsonSubTypes}; {@link CheckResult} refuses details of a kind not listed there,
 * so a checker's first test says so.
 *
 * <p>Each record also says what in it is wrong, by kind ({@link #findingKinds()}): what "the same finding" means when
 * a run is replayed or shrunk. So a new checker is one record here (with its line in {@link JsonSubTypes}) and one
 * card in the report.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "kind",
        defaultImpl = Findings.Untyped.class)
@JsonSubTypes({
    @JsonSubTypes.Type(value = LinearizabilityDetails.class, name = "linearizability"),
    @JsonSubTypes.Type(value = SingleLeaderReport.class, name = "single-leader"),
    @JsonSubTypes.Type(value = SetReport.class, name = "set"),
    @JsonSubTypes.Type(value = ReadModelReport.class, name = "read-model"),
    @JsonSubTypes.Type(value = FencedReport.class, name = "fenced-writes"),
    @JsonSubTypes.Type(value = LogReport.class, name = "log-prefix"),
    @JsonSubTypes.Type(value = FinalStateReport.class, name = "final-state"),
    @JsonSubTypes.Type(value = WatchesReport.class, name = "watches"),
    @JsonSubTypes.Type(value = SessionsReport.class, name = "session-guarantees"),
    @JsonSubTypes.Type(value = SequentialReport.class, name = "sequential-znodes"),
    @JsonSubTypes.Type(value = MultiReport.class, name = "multi-txn"),
    @JsonSubTypes.Type(value = RecoveryReport.class, name = "recovery"),
    @JsonSubTypes.Type(value = ChurnReport.class, name = "churn-ephemerals"),
    @JsonSubTypes.Type(value = AvailabilityReport.class, name = "availability"),
    @JsonSubTypes.Type(value = EvidenceReport.class, name = "evidence"),
    @JsonSubTypes.Type(value = ServerReport.class, name = "servers"),
    @JsonSubTypes.Type(value = CheckResult.CheckerError.class, name = "checker-error"),
    @JsonSubTypes.Type(value = Findings.Untyped.class, name = "untyped")
})
public interface Findings {

    /**
     * What in these findings is wrong, each a kind without the checker's name ({@code lost},
     * {@code duplicate-token}, {@code crash} ...), sorted; empty when nothing is, or when the record names no kinds
     * (the default: then an invalid verdict is {@code checker:invalid}). Two runs that lost different elements, or
     * caught a different pair of leaders, found the same kinds. Read from the record's own fields, so a verdict read
     * back from {@code results.json} gives the same kinds as the fresh one.
     */
    default SortedSet<String> findingKinds() {
        return Collections.emptySortedSet();
    }

    /**
     * The kind of {@code type} as JSON names it.
     *
     * @throws IllegalArgumentException when {@code type} is not one of the kinds above: a record that implements this
     *                                  interface must be listed in {@link JsonSubTypes} too, else its files could not
     *                                  be read back as its type (Java's {@code sealed} cannot say so across packages)
     */
    static String kindOf(Class<? extends Findings> type) {
        String kind = Kinds.BY_TYPE.get(type);
        if (kind == null) {
            throw new IllegalArgumentException(type.getName() + " implements Findings but is not one of its kinds: "
                    + "add it to the @JsonSubTypes of " + Findings.class.getName());
        }
        return kind;
    }

    /** Every kind, by name, in the order listed. */
    static Map<String, Class<? extends Findings>> kinds() {
        return Kinds.BY_NAME;
    }

    /**
     * Details read from a file without a {@code kind} (written before findings had one) or with a kind this version
     * does not know: kept as saved, field by field, for a person to read. No checker produces them.
     *
     * @param fields the saved fields, in their order
     */
    record Untyped(@JsonAnyGetter Map<String, Object> fields) implements Findings {

        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        public Untyped {
            fields = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }
    }

    /** The kinds, read once from the annotation above. */
    final class Kinds {
        private static final Map<String, Class<? extends Findings>> BY_NAME;
        private static final Map<Class<? extends Findings>, String> BY_TYPE;

        static {
            Map<String, Class<? extends Findings>> byName = new LinkedHashMap<>();
            Map<Class<? extends Findings>, String> byType = new java.util.HashMap<>();
            for (JsonSubTypes.Type t : Findings.class.getAnnotation(JsonSubTypes.class).value()) {
                Class<? extends Findings> type = t.value().asSubclass(Findings.class);
                byName.put(t.name(), type);
                byType.put(type, t.name());
            }
            BY_NAME = java.util.Collections.unmodifiableMap(byName);
            BY_TYPE = java.util.Collections.unmodifiableMap(byType);
        }

        private Kinds() {
        }
    }
}
