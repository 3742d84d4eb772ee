package io.zkchaos.nemesis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import io.zkchaos.nemesis.faults.ClientFaults;
import io.zkchaos.nemesis.faults.ClockFaults;
import io.zkchaos.nemesis.faults.CrashFaults;
import io.zkchaos.nemesis.faults.DiskFaults;
import io.zkchaos.nemesis.faults.NetworkFaults;
import io.zkchaos.nemesis.faults.PauseFaults;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A {@link Nemesis} that does named {@link Fault}s to a {@link NemesisTarget}. */
final class FaultNemesis implements Nemesis {

    private static final Logger LOG = LoggerFactory.getLogger(FaultNemesis.class);

    private final NemesisTarget target;
    private final Map<String, Fault> faults = new LinkedHashMap<>();
    /**
     * The fault of each family in force now (started, not yet stopped): a final heal names what it measured for it.
     * One per family: two faults of one family never hold at once ({@link Fault.Family}).
     */
    private final Map<Fault.Family, String> open = new java.util.EnumMap<>(Fault.Family.class);

    FaultNemesis(NemesisTarget target, List<Fault> faults) {
        this.target = target;
        faults.forEach(f -> this.faults.put(f.name(), f));
    }

    @Override
    public FaultRecord invoke(FaultOp op) {
        Fault f = faults.get(op.fault());
        if (f == null) {
            throw new IllegalArgumentException("this nemesis does not do fault '" + op.fault() + "'; it does "
                    + faults.keySet());
        }
        // Every choice the fault makes is recorded with what it did (and, for an aimed operation, repeated).
        target.choices().begin(op.aim(), op.targets());
        FaultRecord did = null;
        try {
            did = op.kind() == FaultOp.Kind.START ? f.start(target) : f.stop(target);
        } finally {
            Aim aim = target.choices().end();
            if (did != null && aim != null) {
                did = did.withAim(aim);
            }
        }
        if (op.kind() == FaultOp.Kind.START) {
            open.put(f.family(), f.name());
        } else {
            open.remove(f.family());
        }
        return did == null ? null : did.withFelt(named(did.felt(), f.name()));
    }

    @Override
    public void onEvent(java.util.function.Consumer<FaultRecord> listener) {
        target.frames().ifPresent(f -> f.onFiring(r -> listener.accept(new FaultRecord(r.fault(), r.summary(),
                r.nodes(), List.of(), new java.util.TreeMap<>(), List.of(r)))));
    }

    @Override
    public FaultRecord healAll() {
        List<io.zkchaos.nemesis.frame.TriggerRecord> triggers = target.frames()
                .map(io.zkchaos.nemesis.frame.FrameTaps::disarmAll).orElse(List.of());
        // the undoing actions of each family (their records carry their own names: heal, resume, restart ...)
        NetworkFaults network = new NetworkFaults(target, "heal");
        DiskFaults disk = new DiskFaults(target, "heal");
        ClockFaults clock = new ClockFaults(target, "heal");
        ClientFaults client = new ClientFaults(target, "heal");
        // Every step is tried, whatever an earlier one did: a network heal that fails must not leave a killed node
        // down (nor one node's failed start the others); what failed is thrown at the end, after everything else was
        // undone.
        List<String> failures = new ArrayList<>();
        FaultRecord net = attempt(failures, "heal the network", network::heal);
        FaultRecord resumed = attempt(failures, "resume paused nodes", new PauseFaults(target, "heal")::resumeAll);
        // disks before the restarts: a server started on a disk that still fails meets the fault again. Only where
        // a disk fails: a backend without failing disks is never asked.
        FaultRecord disks = !(target.nodes() instanceof DiskControl d) || d.diskFaults().isEmpty() ? null
                : attempt(failures, "repair disks", disk::repairFailingDisks);
        FaultRecord restarted = attempt(failures, "restart nodes that are down",
                new CrashFaults(target, "heal")::restartDown);
        FaultRecord clients = attempt(failures, "resume paused clients", client::resumeClients);
        // only where a clock was moved: a backend that cannot move clocks is never asked
        FaultRecord clocks = !(target.nodes() instanceof ClockControl c) || c.clockOffsets().isEmpty() ? null
                : attempt(failures, "reset clocks", clock::resetClocks);
        FaultRecord clientClocks = target.clients().clockOffsets().isEmpty() ? null
                : attempt(failures, "reset client clocks", client::resetClientClocks);
        // what the faults still open felt, measured as their heal ended them (links, disks), each named for its fault
        List<Felt> felt = new ArrayList<>();
        if (open.containsKey(Fault.Family.NETWORK) && net != null) {
            felt.addAll(named(net.felt(), open.get(Fault.Family.NETWORK)));
        }
        if (open.containsKey(Fault.Family.DISK) && disks != null) {
            felt.addAll(named(disks.felt(), open.get(Fault.Family.DISK)));
        }
        open.clear();
        if (!failures.isEmpty()) {
            throw new HealFailedException("the final heal did not finish: " + String.join("; ", failures));
        }
        List<String> nodes = new ArrayList<>(resumed.nodes());
        nodes.addAll(restarted.nodes());
        nodes.addAll(clients.nodes());
        List<String> woken = nodes.stream().distinct().sorted().toList();
        if (disks != null) {
            nodes.addAll(disks.nodes());
        }
        if (clocks != null) {
            nodes.addAll(clocks.nodes());
        }
        if (clientClocks != null) {
            nodes.addAll(clientClocks.nodes());
        }
        List<String> all = nodes.stream().distinct().sorted().toList();
        return new FaultRecord("heal", "healed every link" + (disks == null ? "" : "; " + disks.description())
                + (woken.isEmpty() ? "" : "; resumed or restarted " + String.join(", ", woken))
                + (clocks == null ? "" : "; " + clocks.description())
                + (clientClocks == null ? "" : "; " + clientClocks.description()), all, net.groups(), net.grudge(),
                triggers).withFelt(felt);
    }

    private static List<Felt> named(List<Felt> felt, String fault) {
        return felt.stream().map(x -> x.forFault(fault)).toList();
    }

    private static FaultRecord attempt(List<String> failures, String step, Supplier<FaultRecord> action) {
        try {
            return action.get();
        } catch (RuntimeException e) {
            LOG.warn("final heal: could not {}: {}", step, e.toString());
            failures.add("could not " + step + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return null;
        }
    }

    /** The harness could not undo its own faults: what follows the heal tests nothing about the system. */
    static final class HealFailedException extends RuntimeException {
        HealFailedException(String message) {
            super(message);
        }
    }
}
