package io.zkchaos.nemesis;

import io.zkchaos.nemesis.faults.ClockFaults;
import io.zkchaos.nemesis.net.CutMode;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.LinkNetwork;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

/**
 * A system under test as the nemesis sees it, in memory: it records the process signals and grudges it is told
 * ({@link #calls}, {@link #grudge}) and has a leader the test sets. Signals may come from another thread (a frame
 * trigger fires on the proxy's). It implements every optional control; one its flags turn off ({@link #lazy},
 * {@link #clocks}, {@link #emptiesDisks}) refuses as a backend that implements it but cannot now, naming itself.
 */
public final class RecordingSystem implements NodeControl, ServingWait, PowerFailure, DataReplacement, DiskControl,
        ClockControl {

    final List<String> nodes;
    final Map<String, NodeState> states = new ConcurrentHashMap<>();
    /** What was done, in order: {@code kill n1}, {@code start n1}, {@code pause n2}, {@code heal} ... */
    public final List<String> calls = new CopyOnWriteArrayList<>();
    volatile SortedMap<String, SortedSet<String>> grudge = new TreeMap<>();
    volatile String leader;
    volatile CutMode mode = CutMode.REFUSE;
    final List<CutMode> grudgeModes = new CopyOnWriteArrayList<>();
    /** Whether this system's data is on a file system that holds writes until fsync. */
    volatile boolean lazy;
    /** Whether this system can move its nodes' clocks. */
    volatile boolean clocks = true;
    final Map<String, Duration> offsets = new ConcurrentHashMap<>();
    /** Each node whose disk fails, with its faults. */
    final Map<String, List<DiskFault>> disks = new ConcurrentHashMap<>();
    /** How many more times repairing a node's disk fails. */
    final Map<String, Integer> failingRepairs = new ConcurrentHashMap<>();
    /** How many more times starting a node fails (as an engine or host that is busy for a moment). */
    final Map<String, Integer> failingStarts = new ConcurrentHashMap<>();

    /** Nodes {@code n1 .. nN}, all running; {@code n2} leads. */
    public RecordingSystem(int n) {
        this(IntStream.rangeClosed(1, n).mapToObj(i -> "n" + i).toList(), "n2");
    }

    /** These nodes, all running; {@code leader} leads. */
    public RecordingSystem(List<String> nodes, String leader) {
        this.nodes = List.copyOf(nodes);
        this.leader = leader;
        nodes.forEach(x -> states.put(x, NodeState.RUNNING));
    }

    public NemesisTarget target(long seed) {
        return new NemesisTarget(this, links(), new Random(seed));
    }

    @Override
    public List<String> nodes() {
        return nodes;
    }

    @Override
    public NodeState state(String node) {
        return states.get(node);
    }

    @Override
    public Optional<String> leader() {
        return Optional.ofNullable(leader);
    }

    @Override
    public void start(String node) {
        failIfDue(failingStarts, "start", node, "cannot start " + node + " now");
        calls.add("start " + node);
        states.put(node, NodeState.RUNNING);
    }

    /** Throws {@code message} (recorded as {@code failed VERB node}) while {@code failing} counts failures left. */
    private void failIfDue(Map<String, Integer> failing, String verb, String node, String message) {
        if (failing.getOrDefault(node, 0) > 0) {
            failing.merge(node, -1, Integer::sum);
            calls.add("failed " + verb + " " + node);
            throw new IllegalStateException(message);
        }
    }

    @Override
    public void kill(String node) {
        calls.add("kill " + node);
        states.put(node, NodeState.DOWN);
    }

    @Override
    public void killLosingUnsyncedWrites(String node) {
        downIf(lazy, () -> refuse("drop " + node + "'s unsynced writes: its data is not on a file system that holds "
                + "writes until fsync"), "kill-lose " + node, node);
    }

    /** Refuses as a system that implements the control but cannot do it now. */
    private void refuse(String cannot) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot " + cannot);
    }

    /** Records {@code call} and takes the node down when the system {@code can}; else {@code refusal} throws. */
    private void downIf(boolean can, Runnable refusal, String call, String node) {
        if (!can) {
            refusal.run();
        }
        calls.add(call);
        states.put(node, NodeState.DOWN);
    }

    /** Whether this system can empty a node's data directory. */
    volatile boolean emptiesDisks = true;

    /** Recorded as {@code replace-disk n1}; the node is down after it. */
    @Override
    public void replaceDisk(String node) {
        downIf(emptiesDisks, () -> refuse("empty " + node + "'s data directory"), "replace-disk " + node, node);
    }

    /** Recorded as {@code kill-tear n1 SEED}. */
    @Override
    public String killTearingUnsyncedWrites(String node, long seed) {
        if (!lazy) {
            refuse("tear " + node + "'s unsynced writes: its data is not on a file system that holds writes until "
                    + "fsync");
        }
        calls.add("kill-tear " + node + " " + seed);
        states.put(node, NodeState.DOWN);
        return "torn in memory";
    }

    /** Recorded as {@code disk n1 fsyncs fail with EIO}. */
    @Override
    public void injectDiskFault(String node, DiskFault fault) {
        if (!lazy) {
            refuse("make " + node + "'s disk fail: its data is not on a file system that can fail on command");
        }
        calls.add("disk " + node + " " + fault.describe());
        disks.merge(node, List.of(fault), (a, b) -> java.util.stream.Stream.concat(a.stream(), b.stream()).toList());
    }

    /** Recorded as {@code repair n1}. */
    @Override
    public void repairDisk(String node) {
        failIfDue(failingRepairs, "repair", node, "cannot repair " + node + "'s disk now");
        calls.add("repair " + node);
        disks.remove(node);
    }

    /** What each failing disk counted in its window ({@link #diskCountsSinceFault}); unset: not measured. */
    final Map<String, Map<String, Long>> diskCounts = new java.util.concurrent.ConcurrentHashMap<>();

    @Override
    public java.util.Optional<Map<String, Long>> diskCountsSinceFault(String node) {
        return disks.containsKey(node) ? java.util.Optional.ofNullable(diskCounts.get(node))
                : java.util.Optional.empty();
    }

    @Override
    public Map<String, List<DiskFault>> diskFaults() {
        return Map.copyOf(disks);
    }

    /** Each {@link #setClockOffsets} call, with the nodes it set: a backend that waits for a change waits once each. */
    final List<SortedSet<String>> clockBatches = new CopyOnWriteArrayList<>();

    @Override
    public void setClockOffsets(Map<String, Duration> offsets) {
        clockBatches.add(new TreeSet<>(offsets.keySet()));
        ClockControl.super.setClockOffsets(offsets);
    }

    /** Recorded as {@code clock n1 +1.500 s}. */
    @Override
    public void setClockOffset(String node, Duration offset) {
        if (!clocks) {
            refuse("move " + node + "'s clock");
        }
        calls.add("clock " + node + " " + ClockFaults.offsetText(offset));
        if (offset.isZero()) {
            offsets.remove(node);
        } else {
            offsets.put(node, offset);
        }
    }

    @Override
    public Map<String, Duration> clockOffsets() {
        return Map.copyOf(offsets);
    }

    @Override
    public void pause(String node) {
        calls.add("pause " + node);
        states.put(node, NodeState.PAUSED);
    }

    @Override
    public void resume(String node) {
        calls.add("resume " + node);
        states.put(node, NodeState.RUNNING);
    }

    /** Recorded as {@code serves n}; a node that is not running does not serve. */
    @Override
    public void awaitServing(String node, Duration bound) {
        calls.add("serves " + node);
        if (states.get(node) != NodeState.RUNNING) {
            throw new IllegalStateException(node + " is " + states.get(node));
        }
    }

    /** Links that record grudges, client cuts and heals; they carry no traffic. */
    public LinkNetwork links() {
        return new LinkNetwork() {
            @Override
            public boolean faultable() {
                return true;
            }

            @Override
            public CutMode cutMode() {
                return mode;
            }

            @Override
            public void cutMode(CutMode m) {
                mode = m;
            }

            @Override
            public void cut(String a, String b) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void partition(Collection<? extends Collection<String>> components) {
                throw new UnsupportedOperationException();
            }

            @Override
            public void applyGrudge(Map<String, ? extends Collection<String>> g) {
                SortedMap<String, SortedSet<String>> next = new TreeMap<>();
                g.forEach((k, v) -> next.put(k, new TreeSet<>(v)));
                grudge = next;
                grudgeModes.add(mode);
            }

            @Override
            public SortedMap<String, SortedSet<String>> grudge() {
                return grudge;
            }

            @Override
            public void cutClient(String node) {
                calls.add("cut-client " + node);
            }

            @Override
            public void healClient(String node) {
                calls.add("heal-client " + node);
            }

            @Override
            public void heal() {
                calls.add("heal");
                grudge = new TreeMap<>();
            }

            @Override
            public Link clientLink(String node) {
                throw new UnsupportedOperationException();
            }

            @Override
            public List<Link> peerLinks(String from, String to) {
                throw new UnsupportedOperationException();
            }

            @Override
            public List<Link> allLinks() {
                return List.of();
            }
        };
    }
}
