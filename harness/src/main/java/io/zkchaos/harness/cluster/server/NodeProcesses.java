package io.zkchaos.harness.cluster.server;

import io.zkchaos.harness.cluster.NodeStatus;
import io.zkchaos.harness.cluster.ServerWatch;
import io.zkchaos.harness.process.ManagedProcess;
import io.zkchaos.harness.process.ProcessControl;
import io.zkchaos.nemesis.NodeState;
import io.zkchaos.harness.cluster.NodeStatus.Mode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * A cluster's server processes by node name, each with its {@link NodeLayout}: what every backend that runs servers as
 * {@link ManagedProcess}es (on this machine or on hosts over ssh) does to one node, in one place. Every start and end of
 * a server is told to the cluster's {@link #watch()}, which looks for servers that ended by themselves by reading
 * every process's state. Thread-safe once filled: nodes are added while the cluster is set up, before any fault.
 *
 * @param <P> the kind of process
 */
public final class NodeProcesses<P extends ManagedProcess> {

    private final Map<String, ProcessControl<P>> processes = Collections.synchronizedMap(new LinkedHashMap<>());
    private final Map<String, NodeLayout> layouts = Collections.synchronizedMap(new LinkedHashMap<>());
    /** Told of every start and end; it looks for ends by reading every state ({@link ProcessControl#state()}). */
    private final ServerWatch watch = new ServerWatch(() -> all().forEach(ProcessControl::state));

    /** Adds a node and the process that runs its server (down until started). */
    public void add(NodeLayout layout, P process) {
        layouts.put(layout.name(), layout);
        ProcessControl<P> control = new ProcessControl<>(process);
        control.listen((c, change) -> watch.processChanged(layout.name(), change,
                () -> process.logTail(ServerWatch.LAST_LINES)));
        processes.put(layout.name(), control);
    }

    /** What happened to the servers: the cluster's {@link io.zkchaos.harness.cluster.Cluster#servers()}. */
    public ServerWatch watch() {
        return watch;
    }

    /** The node's process under its control. */
    public ProcessControl<P> get(String node) {
        ProcessControl<P> p = processes.get(node);
        if (p == null) {
            throw new IllegalArgumentException("unknown node '" + node + "': nodes are " + names());
        }
        return p;
    }

    /** Where the node lives. */
    public NodeLayout layout(String node) {
        get(node);
        return layouts.get(node);
    }

    /** The layouts, in the order the nodes were added. */
    public List<NodeLayout> layouts() {
        synchronized (layouts) {
            return List.copyOf(layouts.values());
        }
    }

    /** The processes, in the order the nodes were added. */
    public List<ProcessControl<P>> all() {
        synchronized (processes) {
            return new ArrayList<>(processes.values());
        }
    }

    public List<String> names() {
        synchronized (processes) {
            return List.copyOf(processes.keySet());
        }
    }

    public void startAll() {
        all().forEach(ProcessControl::start);
    }

    public NodeState state(String node) {
        return get(node).state();
    }

    /** The pid of the node's server, or -1 when it is down. */
    public long pid(String node) {
        return get(node).process().pid();
    }

    public void start(String node) {
        get(node).start();
    }

    public void stop(String node) {
        get(node).stop();
    }

    public void kill(String node) {
        get(node).kill();
    }

    public void pause(String node) {
        get(node).pause();
    }

    public void resume(String node) {
        get(node).resume();
    }

    /** The status of a node the harness has stopped or frozen (it cannot answer), else empty: ask the server. */
    public Optional<NodeStatus> unreachableStatus(String node) {
        return switch (get(node).state()) {
            case DOWN -> Optional.of(new NodeStatus(node, Mode.UNREACHABLE, -1, "down"));
            case PAUSED -> Optional.of(new NodeStatus(node, Mode.UNREACHABLE, -1, "paused"));
            default -> Optional.empty();
        };
    }

    /** A node whose server exited by itself (or was killed), if any. */
    public Optional<String> exitedNode() {
        return all().stream().filter(p -> p.process().exitCode() != null).map(ProcessControl::name).findFirst();
    }

    /** The node's state, exit code (if it exited) and the end of its log, for a node that did not serve. */
    public String explain(String node, String where, String logName) {
        ProcessControl<P> p = get(node);
        Integer exit = p.process().exitCode();
        return node + where + " is " + p.state() + (exit == null ? "" : ", exited with code " + exit)
                + "; last lines of " + logName + ":\n" + p.process().logTail(30);
    }

    /**
     * Kills every server for good (a later start fails naming why); each is tried whatever the others did. The watch
     * stops looking first; the kills are still told to it.
     */
    public void retireAll(String why, Logger log) {
        watch.close();
        for (ProcessControl<P> p : all()) {
            try {
                p.retire(why);
            } catch (RuntimeException e) {
                log.warn("killing {} while closing: {}", p.name(), e.toString());
            }
        }
    }
}
