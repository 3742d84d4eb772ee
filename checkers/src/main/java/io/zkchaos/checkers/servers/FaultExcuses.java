package io.zkchaos.checkers.servers;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What a fault declares of its effect on the servers, as the servers' checkers read it: whether it acts on servers at
 * all, what server behaviour it excuses on the nodes it acts on, and for how long after its stop. The nemesis module
 * declares it per fault; the harness hands a {@code Function<String, FaultExcuses>} (by fault name) to
 * {@link FaultWindows#from}, so that the checkers never import the nemesis.
 *
 * @param onServers whether it acts on servers (their processes, disks, clocks or links, client links included);
 *                  false for a fault on client processes only, whose windows then name no node
 * @param excuses   what it may make the nodes it acts on do
 * @param grace     how long after its stop the excuses still hold (zero or more)
 */
public record FaultExcuses(boolean onServers, Set<ServerBehaviour> excuses, Duration grace) {

    /** A fault that acts on no server: it excuses nothing and makes no server less than whole. */
    public static final FaultExcuses ON_CLIENTS_ONLY = new FaultExcuses(false, Set.of(), Duration.ZERO);

    public FaultExcuses {
        excuses = excuses.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(excuses));
        Objects.requireNonNull(grace, "grace");
        if (grace.isNegative()) {
            throw new IllegalArgumentException("grace must not be negative, got " + grace);
        }
    }

    /** A fault on servers that excuses {@code excuses} there, for {@code grace} after its stop. */
    public static FaultExcuses onServers(Duration grace, ServerBehaviour... excuses) {
        return new FaultExcuses(true, excuses.length == 0 ? Set.of() : EnumSet.of(excuses[0], excuses), grace);
    }
}
