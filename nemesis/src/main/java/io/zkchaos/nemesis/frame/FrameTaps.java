package io.zkchaos.nemesis.frame;

import io.zkchaos.nemesis.NodeControl;
import io.zkchaos.nemesis.net.Link;
import io.zkchaos.nemesis.net.LinkNetwork;
import io.zkchaos.nemesis.net.Stream;
import io.zkchaos.nemesis.proxy.ProxyLink;
import io.zkchaos.nemesis.proxy.StreamTap;
import io.zkchaos.nemesis.proxy.TapContext;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Protocol-aware faults on the fault proxy's links: a {@link StreamTap} on every link that carries a
 * {@link FrameProtocol} follows each stream with the protocol's {@link FrameDecoder}, counts and logs the frames
 * (never changing a byte), and fires armed {@link FrameTrigger}s at exact byte positions: right after a chosen
 * frame, or after N bytes of a long frame's body. Generic: the protocol knowledge is the decoder's.
 *
 * <p>The stream is halted on the proxy thread at the exact byte (a reset, or a stall that holds every later byte);
 * process actions (kill, pause, restart) run on one thread of their own, and each firing is reported to the
 * {@link #onFiring listeners} as a {@link TriggerRecord} once its action is done. {@link #disarm} ends a fault:
 * stalls are released, paused victims resumed, and every trigger that never fired says so.
 *
 * <p>Thread-safe: taps may be called from several proxy threads at once.
 */
public final class FrameTaps implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FrameTaps.class);
    /** How many of the latest frames {@link #seen()} keeps. */
    public static final int SEEN_CAPACITY = 50_000;
    private static final Duration ACTION_WAIT = Duration.ofSeconds(60);

    /** The two nodes of a link: the one that opens its connections and the one that accepts them. */
    private record Ends(String opener, String acceptor) {
    }

    private record StreamKey(String link, long connection, Stream stream) {
    }

    /** Per stream of a connection: its decoder, or that decoding failed. */
    private static final class StreamState {
        final FrameDecoder decoder;
        boolean failed;
        boolean halted;

        StreamState(FrameDecoder decoder) {
            this.decoder = decoder;
        }
    }

    /** An armed trigger and what it has seen and done. Guarded by the FrameTaps. */
    private final class Armed {
        final FrameTrigger trigger;
        final NodeControl nodes;
        final long armedNanos = System.nanoTime();
        final Map<String, Long> seenWhileArmed = new TreeMap<>();
        long counted;
        boolean fired;
        StreamKey tracking;
        Future<TriggerRecord> action;
        ProxyLink firedLink;
        String victim;

        Armed(FrameTrigger trigger, NodeControl nodes) {
            this.trigger = trigger;
            this.nodes = nodes;
        }

        boolean counts(Frame f) {
            return trigger.types().contains(f.type()) && (trigger.phase().isEmpty()
                    || trigger.phase().equals(f.phase()));
        }
    }

    private final FrameProtocol protocol;
    private final Map<String, Ends> ends;
    private final Map<String, ProxyLink> links;
    private final ConcurrentMap<StreamKey, StreamState> streams = new ConcurrentHashMap<>();
    private final ArrayDeque<SeenFrame> seen = new ArrayDeque<>();
    private final Map<String, Long> counts = new TreeMap<>();
    private final List<Armed> armed = new ArrayList<>();
    private final List<Consumer<TriggerRecord>> listeners = new CopyOnWriteArrayList<>();
    private final ExecutorService actions = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "zkchaos-frame-triggers");
        t.setDaemon(true);
        return t;
    });
    private long seq;
    private long undecodable;
    private String firstDecodingError;

    private FrameTaps(FrameProtocol protocol, Map<String, Ends> ends, Map<String, ProxyLink> links) {
        this.protocol = protocol;
        this.ends = ends;
        this.links = links;
    }

    /**
     * Taps every peer link of {@code network} that carries {@code protocol}. Install it before the nodes open their
     * connections: a decoder must see a stream from its first byte.
     *
     * @throws IllegalArgumentException if such a link is not a link of the embedded fault proxy (it cannot be
     *                                  tapped), or no link carries the protocol
     */
    public static FrameTaps install(LinkNetwork network, List<String> nodes, FrameProtocol protocol) {
        Objects.requireNonNull(protocol, "protocol");
        Map<String, Ends> ends = new LinkedHashMap<>();
        Map<String, ProxyLink> links = new LinkedHashMap<>();
        for (String a : nodes) {
            for (String b : nodes) {
                if (a.equals(b)) {
                    continue;
                }
                for (Link l : network.peerLinks(a, b)) {
                    if (!protocol.carries(l.name())) {
                        continue;
                    }
                    if (!(l instanceof ProxyLink p)) {
                        throw new IllegalArgumentException("link '" + l.name() + "' carries " + protocol.name()
                                + " but is not a link of the embedded fault proxy: it cannot be tapped");
                    }
                    ends.put(l.name(), new Ends(a, b));
                    links.put(l.name(), p);
                }
            }
        }
        if (links.isEmpty()) {
            throw new IllegalArgumentException("no link of " + nodes + " carries " + protocol.name());
        }
        FrameTaps taps = new FrameTaps(protocol, ends, links);
        links.values().forEach(p -> p.setTap(taps.new Tap()));
        return taps;
    }

    /** The protocol followed. */
    public FrameProtocol protocol() {
        return protocol;
    }

    /** The tapped links' names. */
    public List<String> links() {
        return List.copyOf(links.keySet());
    }

    /** Reports every firing, once its action is done (on the trigger thread; the listener must not block long). */
    public void onFiring(Consumer<TriggerRecord> listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Frames seen per type since the taps were installed. */
    public synchronized Map<String, Long> counts() {
        return new TreeMap<>(counts);
    }

    /** The latest frames seen (up to {@link #SEEN_CAPACITY}), oldest first. */
    public synchronized List<SeenFrame> seen() {
        return List.copyOf(seen);
    }

    /** The frames seen after the one numbered {@code seq} (0: all that are kept). */
    public synchronized List<SeenFrame> seenAfter(long seq) {
        return seen.stream().filter(f -> f.seq() > seq).toList();
    }

    /** The number of the last frame seen (0 before any). */
    public synchronized long lastSeq() {
        return seq;
    }

    /** Streams whose bytes did not follow the protocol (not decoded further), and the first such error. */
    public synchronized String decodingErrors() {
        return undecodable == 0 ? "none" : undecodable + " stream(s), first: " + firstDecodingError;
    }

    /** Arms a trigger; its process actions act on {@code nodes}. */
    public synchronized void arm(FrameTrigger trigger, NodeControl nodes) {
        armed.add(new Armed(Objects.requireNonNull(trigger, "trigger"), Objects.requireNonNull(nodes, "nodes")));
    }

    /** Whether a trigger armed by {@code fault} is still waiting. */
    public synchronized boolean waiting(String fault) {
        return armed.stream().anyMatch(a -> a.trigger.fault().equals(fault) && !a.fired);
    }

    /**
     * Disarms the triggers armed by {@code fault}: waits for an action under way, releases what they stalled,
     * resumes what they paused, and returns what each did, or that it never fired.
     */
    public List<TriggerRecord> disarm(String fault) {
        List<Armed> mine;
        synchronized (this) {
            mine = armed.stream().filter(a -> a.trigger.fault().equals(fault)).toList();
            armed.removeAll(mine);
        }
        List<TriggerRecord> out = new ArrayList<>();
        for (Armed a : mine) {
            out.add(finish(a));
        }
        return out;
    }

    /** Disarms every trigger (the final heal). */
    public List<TriggerRecord> disarmAll() {
        List<Armed> all;
        synchronized (this) {
            all = new ArrayList<>(armed);
            armed.clear();
        }
        List<TriggerRecord> out = new ArrayList<>();
        for (Armed a : all) {
            out.add(finish(a));
        }
        return out;
    }

    private TriggerRecord finish(Armed a) {
        Future<TriggerRecord> action;
        boolean fired;
        synchronized (this) {
            fired = a.fired;
            action = a.action;
        }
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - a.armedNanos);
        if (!fired) {
            Map<String, Long> saw;
            synchronized (this) {
                saw = new TreeMap<>(a.seenWhileArmed);
            }
            return new TriggerRecord(a.trigger.fault(), a.trigger.description(), false, "", -1, "", "", "", "", "", "",
                    a.counted, -1, ms, "armed " + ms + " ms; " + a.counted + " matching frame(s) counted of "
                    + a.trigger.nth() + " needed; frames seen meanwhile: " + (saw.isEmpty() ? "none" : saw),
                    List.of(), saw);
        }
        TriggerRecord done;
        try {
            done = action.get(ACTION_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            done = null;
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("trigger action of {} did not complete: {}", a.trigger.fault(), e.toString());
            done = null;
        }
        // Undo what must not outlast the fault.
        if (a.trigger.action() == FrameTrigger.Action.PAUSE && a.victim != null) {
            a.nodes.resume(a.victim);
        }
        if ((a.trigger.action() == FrameTrigger.Action.STALL || a.trigger.action() == FrameTrigger.Action.PAUSE)
                && a.firedLink != null) {
            a.firedLink.releaseStalls();
        }
        if (done == null) {
            return new TriggerRecord(a.trigger.fault(), a.trigger.description(), true, a.firedLink == null ? ""
                    : a.firedLink.name(), -1, "", "", "", "", "", "", a.counted, -1, ms,
                    "fired, but its action did not complete within " + ACTION_WAIT.toSeconds() + " s", List.of(),
                    Map.of());
        }
        return done;
    }

    /**
     * Drops every tapped connection of {@code node} (its links are disabled and enabled again at once): the node and
     * its peers connect again, as after a short network blip, and a follower syncs with its leader again.
     *
     * @return the links whose connections were dropped
     */
    public List<String> dropConnections(String node) {
        List<String> dropped = new ArrayList<>();
        links.forEach((name, link) -> {
            Ends e = ends.get(name);
            if ((e.opener().equals(node) || e.acceptor().equals(node)) && link.enabled()
                    && link.stats().openConnections() > 0) {
                link.setEnabled(false);
                link.setEnabled(true);
                dropped.add(name);
            }
        });
        return dropped;
    }

    @Override
    public void close() {
        links.values().forEach(p -> p.setTap(null));
        actions.shutdownNow();
    }

    // ---- the proxy side ----

    /** The tap of one link (they share the taps' state). */
    private final class Tap implements StreamTap {
        @Override
        public void onBytes(TapContext context, ByteBuffer bytes) {
            StreamKey key = new StreamKey(context.link(), context.connectionId(), context.stream());
            StreamState state = streams.computeIfAbsent(key, k -> new StreamState(protocol.newDecoder(k.stream())));
            if (state.failed) {
                return;
            }
            try {
                state.decoder.decode(bytes, new Listener(key, state, context));
            } catch (FrameDecodingException e) {
                state.failed = true;
                synchronized (FrameTaps.this) {
                    undecodable++;
                    if (firstDecodingError == null) {
                        firstDecodingError = key.link() + " " + key.stream().wireName() + ": " + e.getMessage();
                        LOG.info("{} not decoded further on link {} connection {} {}: {}", protocol.name(),
                                key.link(), key.connection(), key.stream().wireName(), e.getMessage());
                    }
                }
            }
        }

        @Override
        public void onClosed(String link, long connectionId) {
            for (Stream s : Stream.values()) {
                streams.remove(new StreamKey(link, connectionId, s));
            }
        }
    }

    /** Receives one decode call's frames; fires triggers through this call's context. */
    private final class Listener implements FrameDecoder.Listener {
        private final StreamKey key;
        private final StreamState state;
        private final TapContext context;

        Listener(StreamKey key, StreamState state, TapContext context) {
            this.key = key;
            this.state = state;
            this.context = context;
        }

        @Override
        public void frameEnded(Frame frame, int end) {
            if (state.halted) {
                return; // held or dropped by a trigger: it has not passed (yet)
            }
            Ends e = ends.get(key.link());
            String sender = key.stream() == Stream.UPSTREAM ? e.opener() : e.acceptor();
            String receiver = key.stream() == Stream.UPSTREAM ? e.acceptor() : e.opener();
            synchronized (FrameTaps.this) {
                seq++;
                counts.merge(frame.type(), 1L, Long::sum);
                seen.addLast(new SeenFrame(seq, System.nanoTime(), key.link(), key.connection(), key.stream(), sender,
                        receiver, frame));
                if (seen.size() > SEEN_CAPACITY) {
                    seen.removeFirst();
                }
                for (Iterator<Armed> it = armed.iterator(); it.hasNext(); ) {
                    Armed a = it.next();
                    if (a.fired) {
                        continue;
                    }
                    a.seenWhileArmed.merge(frame.type(), 1L, Long::sum);
                    if (!a.counts(frame)) {
                        continue;
                    }
                    if (a.trigger.bodyBytes() < 0) {
                        a.counted++;
                        if (a.counted == a.trigger.nth()) {
                            fire(a, frame, end, -1, sender, receiver);
                        }
                    } else if (key.equals(a.tracking)) {
                        // the body ended before the byte count was reached: act at its end
                        fire(a, frame, end, bodyLength(frame), sender, receiver);
                    }
                }
            }
        }

        @Override
        public void inFrame(Frame frame, long before, int from, int to) {
            synchronized (FrameTaps.this) {
                for (Armed a : armed) {
                    if (state.halted) {
                        return;
                    }
                    if (a.fired || a.trigger.bodyBytes() < 0 || !a.counts(frame)) {
                        continue;
                    }
                    if (a.tracking == null && before == 0) {
                        a.counted++;
                        if (a.counted == a.trigger.nth()) {
                            a.tracking = key;
                        }
                    }
                    if (key.equals(a.tracking) && before + (to - from) >= a.trigger.bodyBytes()) {
                        Ends e = ends.get(key.link());
                        String sender = key.stream() == Stream.UPSTREAM ? e.opener() : e.acceptor();
                        String receiver = key.stream() == Stream.UPSTREAM ? e.acceptor() : e.opener();
                        int at = from + (int) Math.max(0, a.trigger.bodyBytes() - before);
                        fire(a, frame, at, a.trigger.bodyBytes(), sender, receiver);
                    }
                }
            }
        }

        private long bodyLength(Frame frame) {
            return frame.length();
        }

        /** Halts this stream at {@code at} and hands the rest of the action to the trigger thread. Locked. */
        private void fire(Armed a, Frame frame, int at, long bodyBytes, String sender, String receiver) {
            if (state.halted) {
                return; // another trigger already halted this stream; this one waits for another stream
            }
            state.halted = true;
            a.fired = true;
            a.firedLink = links.get(key.link());
            FrameTrigger t = a.trigger;
            context.haltAfter(at, t.action() == FrameTrigger.Action.CUT ? TapContext.Halt.RESET
                    : TapContext.Halt.STALL);
            String victim = t.victim() == FrameTrigger.Victim.RECEIVER ? receiver : sender;
            a.victim = t.action() == FrameTrigger.Action.KILL || t.action() == FrameTrigger.Action.PAUSE
                    ? victim : null;
            long afterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - a.armedNanos);
            ProxyLink link = a.firedLink;
            String id = frame.id() < 0 ? "" : "0x" + Long.toHexString(frame.id());
            Map<String, Long> saw = new TreeMap<>(a.seenWhileArmed);
            long count = a.counted;
            a.action = actions.submit(() -> {
                List<String> acted = new ArrayList<>();
                String did = act(t, a.nodes, link, victim, acted);
                TriggerRecord r = new TriggerRecord(t.fault(), t.description(), true, key.link(), key.connection(),
                        key.stream().wireName(), sender, receiver, frame.type(), id, frame.phase(), count,
                        bodyBytes, afterMillis, did, acted, saw);
                LOG.info("trigger of {} fired: {}", t.fault(), r.summary());
                for (Consumer<TriggerRecord> l : listeners) {
                    try {
                        l.accept(r);
                    } catch (RuntimeException ex) {
                        LOG.warn("trigger listener failed", ex);
                    }
                }
                return r;
            });
        }
    }

    /** The process part of a firing, on the trigger thread. Returns what was done, in words. */
    private static String act(FrameTrigger t, NodeControl nodes, ProxyLink link, String victim, List<String> acted) {
        String who = t.victim().name().toLowerCase(Locale.ROOT) + " " + victim;
        try {
            switch (t.action()) {
                case CUT:
                    return "reset the connection right after the frame";
                case STALL:
                    return "stalled the stream right after the frame; the connection stays open until the heal";
                case PAUSE:
                    sleep(t.delay());
                    nodes.pause(victim);
                    acted.add(victim);
                    return "paused the " + who + " " + t.delay().toMillis() + " ms after the frame (stream held "
                            + "until the heal)";
                case KILL:
                default:
                    sleep(t.delay());
                    nodes.kill(victim);
                    acted.add(victim);
                    // The held bytes (what was sent after the frame) must never arrive: drop the connection.
                    if (link.enabled()) {
                        link.setEnabled(false);
                        link.setEnabled(true);
                    }
                    String s = "killed the " + who + " " + t.delay().toMillis() + " ms after the frame; dropped the "
                            + "held connection";
                    if (t.restartAfter() != null) {
                        sleep(t.restartAfter());
                        nodes.start(victim);
                        s += "; restarted " + victim + " on its data " + t.restartAfter().toMillis() + " ms later";
                    }
                    return s;
            }
        } catch (RuntimeException e) {
            return "failed: " + e.getMessage();
        }
    }

    private static void sleep(Duration d) {
        if (d.isZero() || d.isNegative()) {
            return;
        }
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
