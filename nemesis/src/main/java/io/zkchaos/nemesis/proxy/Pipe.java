package io.zkchaos.nemesis.proxy;

import io.zkchaos.nemesis.net.Stream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * One direction of one proxied connection: reads from the source socket, lets the tap see the bytes, runs the
 * toxics that apply, queues the result with release times and writes it to the sink socket when due.
 *
 * <p>Backpressure: at most {@code maxQueued} bytes wait in the queue; while it is full the source is not read, so
 * TCP flow control pushes back on the sender. Runs on its connection's proxy thread only.
 */
final class Pipe {
    private final Connection connection;
    private final Stream stream;
    private final int maxQueued;
    /** Toxics that apply to this pipe, in the link's order (their serials grow in that order), by serial. */
    private final Map<Long, Stage> stages = new LinkedHashMap<>();
    private final ArrayDeque<Chunk> queue = new ArrayDeque<>();
    private long queuedBytes;
    /** Release time of the last queued chunk; System.nanoTime may be negative, hence MIN_VALUE at first. */
    private long lastRelease = Long.MIN_VALUE;
    private boolean sourceEof;
    private boolean outputShut;
    private boolean wantWrite;
    private boolean closeWhenFlushed;
    private long wakeAt = Long.MAX_VALUE;
    private boolean tapFailed;
    /** A tap stalled the stream: chunks queue with release time "never" until released. */
    private boolean stalled;
    /** A tap closed or reset the stream: later bytes are dropped. */
    private boolean terminated;
    private boolean resetWhenFlushed;
    private final Context context = new Context();

    Pipe(Connection connection, Stream stream, int maxQueued) {
        this.connection = connection;
        this.stream = stream;
        this.maxQueued = maxQueued;
    }

    Connection connection() {
        return connection;
    }

    Stream stream() {
        return stream;
    }

    RandomGenerator random() {
        return connection.random();
    }

    /** Runs {@code action} on this pipe's thread at {@code at}, unless the connection closed by then. */
    void schedule(long at, Runnable action) {
        connection.schedule(at, action);
    }

    void dropped(long n) {
        connection.link().countDropped(n);
    }

    private void delivered(long n) {
        if (n > 0) {
            connection.link().countDelivered(stream, n);
        }
    }

    void closeWhenFlushed() {
        closeWhenFlushed = true;
    }

    boolean hasStage(Stage s) {
        return stages.get(s.serial) == s;
    }

    /** Applies the toxic to this pipe, after the ones it has. */
    void addStage(LinkToxic toxic, long now) {
        Stage s = Stage.create(toxic.toxic(), toxic.serial(), this);
        stages.put(toxic.serial(), s);
        s.installed(now);
    }

    /** Stops applying the toxics that are no longer on the link. */
    void removeStagesNotIn(List<LinkToxic> current) {
        if (stages.isEmpty()) {
            return;
        }
        for (Stage s : new ArrayList<>(stages.values())) {
            if (current.stream().noneMatch(t -> t.serial() == s.serial)) {
                stages.remove(s.serial);
                s.removed();
            }
        }
    }

    /** Whether a stage drops every byte: nothing would reach the sink. */
    boolean blackholed() {
        for (Stage s : stages.values()) {
            if (s.blocksAll()) {
                return true;
            }
        }
        return false;
    }

    /** Whether the source should be read now. */
    boolean wantsRead() {
        return !sourceEof && queuedBytes < maxQueued;
    }

    boolean wantsWrite() {
        return wantWrite;
    }

    /** Whether the source sent EOF (queued bytes may still be waiting). */
    boolean sourceEnded() {
        return sourceEof;
    }

    boolean finished() {
        return sourceEof && queue.isEmpty();
    }

    long queuedBytes() {
        return queuedBytes;
    }

    /**
     * Reads what the source has (bounded by the free queue space) and admits it.
     *
     * @param sink where the bytes go, or null while the upstream is not connected
     * @return false when the connection was closed while doing so
     */
    boolean read(SocketChannel source, SocketChannel sink, ByteBuffer scratch, long now) throws IOException {
        scratch.clear();
        scratch.limit((int) Math.min(scratch.capacity(), maxQueued - queuedBytes));
        int n = source.read(scratch);
        if (n < 0) {
            sourceEof = true;
            return true;
        }
        if (n == 0) {
            return true;
        }
        scratch.flip();
        if (terminated) {
            dropped(n); // a tap closed or reset the stream: nothing more passes
            return true;
        }
        context.reset();
        tap(scratch);
        if (context.halt == null) {
            pass(scratch, sink, now);
            return !connection.isClosed();
        }
        // The tap halts the stream after `offset` bytes: pass those, then act on the rest.
        int end = scratch.limit();
        scratch.limit(scratch.position() + context.offset);
        pass(scratch, sink, now);
        scratch.limit(end);
        switch (context.halt) {
            case STALL -> {
                stalled = true;
                lastRelease = Long.MAX_VALUE; // every chunk from now on is held: release times never go backwards
                if (scratch.hasRemaining()) {
                    admit(copy(scratch, now), now);
                }
            }
            case CLOSE, RESET -> {
                terminated = true;
                dropped(scratch.remaining());
                scratch.position(end);
                if (context.halt == TapContext.Halt.RESET) {
                    resetWhenFlushed = true;
                } else {
                    closeWhenFlushed = true;
                }
            }
        }
        return !connection.isClosed();
    }

    /** Sends bytes on: straight to the sink when nothing is in the way, else through the toxics and the queue. */
    private void pass(ByteBuffer bytes, SocketChannel sink, long now) throws IOException {
        if (!bytes.hasRemaining()) {
            return;
        }
        if (stages.isEmpty() && queue.isEmpty() && !stalled && sink != null) {
            // Fast path, no toxic and nothing waiting: write straight from the read buffer, queue only the rest.
            int before = bytes.remaining();
            sink.write(bytes);
            delivered(before - bytes.remaining());
            if (!bytes.hasRemaining()) {
                return;
            }
        }
        admit(copy(bytes, now), now);
    }

    private static Chunk copy(ByteBuffer bytes, long now) {
        byte[] copy = new byte[bytes.remaining()];
        bytes.get(copy);
        return new Chunk(ByteBuffer.wrap(copy), now);
    }

    /** Releases a tap's stall: the held bytes become due now, reading resumes. */
    void releaseStall(long now) {
        if (!stalled) {
            return;
        }
        stalled = false;
        for (Chunk c : queue) {
            if (c.releaseAt == Long.MAX_VALUE) {
                c.releaseAt = now;
            }
        }
        lastRelease = now;
    }

    private void tap(ByteBuffer data) {
        StreamTap tap = connection.link().tap();
        if (tap == null || tapFailed) {
            return;
        }
        try {
            synchronized (connection.link().tapLock) {
                tap.onBytes(context, data.asReadOnlyBuffer());
            }
            if (context.halt != null && context.offset > data.remaining()) {
                throw new IllegalArgumentException("haltAfter offset " + context.offset + " is beyond the "
                        + data.remaining() + " bytes of the chunk");
            }
        } catch (RuntimeException e) {
            tapFailed = true;
            context.reset();
            FaultProxy.LOG.warn("tap on link {} failed on connection {} {}; not called again for it",
                    connection.link().name(), connection.id(), stream.wireName(), e);
        }
    }

    /** The context handed to the tap; reused for every call on this pipe. */
    private final class Context implements TapContext {
        TapContext.Halt halt;
        int offset;

        void reset() {
            halt = null;
            offset = 0;
        }

        @Override
        public String link() {
            return connection.link().name();
        }

        @Override
        public long connectionId() {
            return connection.id();
        }

        @Override
        public Stream stream() {
            return stream;
        }

        @Override
        public void haltAfter(int at, TapContext.Halt how) {
            if (at < 0) {
                throw new IllegalArgumentException("haltAfter offset must not be negative, was " + at);
            }
            this.offset = at;
            this.halt = java.util.Objects.requireNonNull(how, "halt");
        }
    }

    private void admit(Chunk chunk, long now) {
        List<Chunk> current = new ArrayList<>(1);
        current.add(chunk);
        for (Stage s : new ArrayList<>(stages.values())) {
            List<Chunk> next = new ArrayList<>(current.size());
            s.apply(current, next, now);
            current = next;
            if (current.isEmpty() || connection.isClosed()) {
                return;
            }
        }
        for (Chunk c : current) {
            // Release times never go backwards: order is kept whatever the jitter.
            c.releaseAt = Math.max(c.releaseAt, lastRelease);
            lastRelease = c.releaseAt;
            queue.addLast(c);
            queuedBytes += c.length();
        }
    }

    /**
     * Writes every due chunk the sink accepts; schedules a wake-up for the next one not yet due.
     *
     * @param sink null while the upstream is not connected (nothing is written then)
     */
    void flush(SocketChannel sink, long now) throws IOException {
        if (sink == null) {
            return;
        }
        wantWrite = false;
        while (!queue.isEmpty()) {
            Chunk head = queue.peekFirst();
            if (head.releaseAt > now) {
                if (head.releaseAt < wakeAt) {
                    wakeAt = head.releaseAt;
                    connection.schedule(wakeAt, () -> {
                        wakeAt = Long.MAX_VALUE;
                        connection.pump();
                    });
                }
                break;
            }
            int before = head.length();
            sink.write(head.data);
            int written = before - head.length();
            queuedBytes -= written;
            delivered(written);
            if (head.data.hasRemaining()) {
                wantWrite = true;
                break;
            }
            queue.pollFirst();
        }
        if (queue.isEmpty()) {
            if (resetWhenFlushed) {
                connection.reset("a tap reset the " + stream.wireName() + " stream");
                return;
            }
            if (closeWhenFlushed) {
                connection.close((terminated ? "a tap closed" : "limit_data reached on") + " the "
                        + stream.wireName() + " stream");
                return;
            }
            if (sourceEof && !outputShut) {
                outputShut = true;
                sink.shutdownOutput();
            }
        }
    }
}
