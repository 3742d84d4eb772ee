package io.zkchaos.nemesis;

import io.zkchaos.checkers.servers.FaultExcuses;
import io.zkchaos.checkers.servers.ServerBehaviour;
import java.time.Duration;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import static io.zkchaos.checkers.servers.ServerBehaviour.EXIT;
import static io.zkchaos.checkers.servers.ServerBehaviour.REJOIN;
import static io.zkchaos.checkers.servers.ServerBehaviour.STALL;

/**
 * What each fault declares it may make the servers it acts on do ({@link ServerBehaviour}), and for how long after its
 * stop: the servers' checkers excuse that and nothing else ({@link FaultExcuses}, read by
 * {@code io.zkchaos.checkers.servers.FaultWindows}). As data: one line per family, a few faults of their own.
 *
 * <ul>
 *   <li>{@code crash}: a killed server restarts on its data, which a power failure may have torn: it may exit when
 *       it reads it, and syncs with the leader again, serving no write until that sync is over, which takes longer
 *       the more data it has to load and fetch ({@code exit, rejoin, stall});</li>
 *   <li>{@code network} on servers (partitions, toxics): a server cut off rejoins when healed, and stalls while cut
 *       off ({@code rejoin, stall});</li>
 *   <li>{@code pause}: a stopped server serves nothing, and rejoins when resumed ({@code rejoin, stall});</li>
 *   <li>{@code disk}: a server whose writes fail exits (ZooKeeper does on an I/O error of its log), restarts, rejoins;
 *       a slow disk stalls it ({@code exit, rejoin, stall});</li>
 *   <li>{@code clock}: a moved wall clock may fire its timers early or late: it may drop out and rejoin, and stall
 *       meanwhile ({@code rejoin, stall});</li>
 *   <li>{@code client}: client processes only; it acts on no server.</li>
 * </ul>
 * A fault at a protocol moment cuts or stalls a quorum link during a sync: it adds {@code stall} to its family's.
 * {@code client-partition} cuts the servers' client links: nothing reaches them, so their writes stall, and nothing
 * else is excused. {@code disk-slow-fsync} never fails a write: it excuses no exit.
 *
 * <p>The grace after a stop is {@value #GRACE_SESSION_TIMEOUTS} session timeouts plus the election bound
 * ({@code initLimit × tickTime}): a server that was cut off or paused notices it lost its leader within a session
 * timeout (its sync timeout is shorter), elects or joins a leader within the election bound, and its clients, whose
 * sessions may have expired meanwhile, notice within another session timeout and connect again. The servers'
 * behaviour after that is their own.
 */
public final class ServerExcuses {

    /** Session timeouts in the grace after a fault's stop (plus the election bound). */
    public static final int GRACE_SESSION_TIMEOUTS = 2;

    private static final Map<Fault.Family, Set<ServerBehaviour>> BY_FAMILY = new EnumMap<>(Map.of(
            Fault.Family.CRASH, EnumSet.of(EXIT, REJOIN, STALL),
            Fault.Family.NETWORK, EnumSet.of(REJOIN, STALL),
            Fault.Family.PAUSE, EnumSet.of(REJOIN, STALL),
            Fault.Family.DISK, EnumSet.of(EXIT, REJOIN, STALL),
            Fault.Family.CLOCK, EnumSet.of(REJOIN, STALL),
            Fault.Family.CLIENT, EnumSet.noneOf(ServerBehaviour.class)));

    /** Faults whose excuses are not their family's. */
    private static final Map<String, Set<ServerBehaviour>> OWN = Map.of(
            "client-partition", EnumSet.of(STALL),
            "disk-slow-fsync", EnumSet.of(REJOIN, STALL));

    private ServerExcuses() {
    }

    /** What {@code fault} may make the servers it acts on do (before the grace is known). */
    public static Set<ServerBehaviour> behaviours(Fault fault) {
        Set<ServerBehaviour> own = OWN.get(fault.name());
        if (own != null) {
            return Set.copyOf(own);
        }
        EnumSet<ServerBehaviour> b = EnumSet.noneOf(ServerBehaviour.class);
        b.addAll(BY_FAMILY.get(fault.family()));
        if (fault.is(Fault.Trait.AT_PROTOCOL_MOMENT)) {
            b.add(STALL);
        }
        return Set.copyOf(b);
    }

    /** Whether {@code fault} acts on servers at all (not on client processes only). */
    public static boolean onServers(Fault fault) {
        return !fault.is(Fault.Trait.ON_CLIENTS) && fault.family() != Fault.Family.CLIENT;
    }

    /** The grace after a stop: {@value #GRACE_SESSION_TIMEOUTS} session timeouts plus the election bound. */
    public static Duration grace(Duration sessionTimeout, Duration electionBound) {
        return sessionTimeout.multipliedBy(GRACE_SESSION_TIMEOUTS).plus(electionBound);
    }

    /** {@code fault}'s declaration in a run with that session timeout and election bound. */
    public static FaultExcuses of(Fault fault, Duration sessionTimeout, Duration electionBound) {
        if (!onServers(fault)) {
            return FaultExcuses.ON_CLIENTS_ONLY;
        }
        return new FaultExcuses(true, behaviours(fault), grace(sessionTimeout, electionBound));
    }

    /**
     * Every built-in fault's declaration by name, for {@code FaultWindows.from}: null for a name that is not a
     * built-in fault (the windows then refuse the history, naming it).
     *
     * @param sessionTimeout the clients' session timeout in the run
     * @param electionBound  the servers' election bound ({@code initLimit × tickTime})
     */
    public static Function<String, FaultExcuses> forRun(Duration sessionTimeout, Duration electionBound) {
        Objects.requireNonNull(sessionTimeout, "sessionTimeout");
        Objects.requireNonNull(electionBound, "electionBound");
        return name -> Faults.byName(name).map(f -> of(f, sessionTimeout, electionBound)).orElse(null);
    }
}
