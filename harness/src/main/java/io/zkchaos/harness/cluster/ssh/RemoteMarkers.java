package io.zkchaos.harness.cluster.ssh;

import io.zkchaos.harness.process.Owner;
import io.zkchaos.harness.process.ProcessMarkers;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What marks everything the ssh backend leaves on a host as a run's — the processes' command lines, the iptables
 * chains' jump rules, the run directories' {@code run.properties} — and the one rule of whether it is left behind.
 *
 * <p>Besides {@link ProcessMarkers}' run and owner, everything carries its <em>controller</em>, the machine the
 * harness ran on: an owner's pid only means something there. A thing is {@linkplain #orphaned orphaned} when its
 * controller is this machine and its owner no longer runs: the next start ends it. {@code hosts heal} ends more:
 * everything not {@linkplain #heldByLiveHarness held by a live harness of this machine}.
 *
 * @param run        the run it belongs to
 * @param owner      the harness that made it, if well formed
 * @param controller the machine that harness ran on
 */
record RemoteMarkers(String run, Optional<Owner> owner, String controller) {

    /** The command-line marker of the controller. */
    static final String CONTROLLER = "-Dzkchaos.controller=";
    /** What begins the comment of every jump rule of a run's chains. */
    static final String COMMENT_PREFIX = "zkchaos";

    /** The marks of what this harness makes for {@code runId}. */
    static RemoteMarkers current(String runId) {
        return new RemoteMarkers(runId, Optional.of(Owner.current()), controllerName());
    }

    /** This machine, as {@code controller}: its host name. */
    static String controllerName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }

    /** The markers for a process's command line: run, owner, controller. */
    List<String> arguments() {
        List<String> a = new ArrayList<>(ProcessMarkers.arguments(run));
        a.add(CONTROLLER + controller);
        return a;
    }

    /** As {@code key=value} words: {@code run=... owner=... controller=...} (a comment, {@code run.properties}). */
    String words() {
        return "run=" + run + " owner=" + owner.map(Owner::toString).orElse("?") + " controller=" + controller;
    }

    /**
     * The marks on a process's command line, if the ssh backend started it: run, role and controller markers. A
     * process with a run marker but no controller is a harness's own on that machine (the local backend's servers,
     * client processes): its own reaper judges it, never the ssh backend's.
     */
    static Optional<RemoteMarkers> ofCommandLine(List<String> args) {
        ProcessMarkers m = ProcessMarkers.in(args);
        Optional<String> controller = args.stream().filter(a -> a.startsWith(CONTROLLER))
                .map(a -> a.substring(CONTROLLER.length())).filter(c -> !c.isEmpty()).findFirst();
        if (m.run().isEmpty() || m.role().isEmpty() || controller.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RemoteMarkers(m.run().get(), m.owner(), controller.get()));
    }

    /** The marks in {@code key=value} words (see {@link #words}), if they name a run. */
    static Optional<RemoteMarkers> ofWords(String text) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String w : text.trim().split("[\\s\"]+")) {
            int eq = w.indexOf('=');
            if (eq > 0) {
                kv.put(w.substring(0, eq), w.substring(eq + 1));
            }
        }
        String run = kv.get("run");
        if (run == null || run.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RemoteMarkers(run, Optional.ofNullable(kv.get("owner")).flatMap(Owner::parse),
                kv.getOrDefault("controller", "")));
    }

    /** Whether a harness of this machine made it and no longer runs: the next start ends it. */
    boolean orphaned() {
        return controller.equals(controllerName()) && owner.isPresent() && !owner.get().alive();
    }

    /** Whether a harness of this machine that still runs made it: {@code hosts heal} leaves it alone. */
    boolean heldByLiveHarness() {
        return controller.equals(controllerName()) && owner.isPresent() && owner.get().alive();
    }
}
