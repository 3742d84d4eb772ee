package io.zkchaos.nemesis.proxy;

import io.zkchaos.nemesis.net.Toxic;
import java.util.List;

/**
 * One toxic as it acts on one pipe (one stream of one connection). Stages run on their connection's proxy thread
 * only. A stage never sleeps: it turns the chunks it is given into the chunks it passes on, moving their release
 * times forward (latency, bandwidth, slicer) or dropping them (timeout, reset_peer, limit_data), and may schedule
 * timers on the pipe. Chunks it passes keep their order.
 */
abstract class Stage {
    final Toxic toxic;
    /** The serial of the toxic's addition to its link (see {@link LinkToxic}). */
    final long serial;
    final Pipe pipe;

    Stage(Toxic toxic, long serial, Pipe pipe) {
        this.toxic = toxic;
        this.serial = serial;
        this.pipe = pipe;
    }

    /** Processes chunks read at {@code now}; appends what passes to {@code out}. */
    abstract void apply(List<Chunk> in, List<Chunk> out, long now);

    /** The toxic now applies to the pipe (on toxic creation or connection creation). */
    void installed(long now) {
    }

    /** The toxic was removed from the link. */
    void removed() {
    }

    /** Whether this stage lets no byte through at all (a black hole); the upstream connect is then deferred. */
    boolean blocksAll() {
        return false;
    }

    static Stage create(Toxic toxic, long serial, Pipe pipe) {
        return switch (toxic.type()) {
            case LATENCY -> new Latency(toxic, serial, pipe);
            case BANDWIDTH -> new Bandwidth(toxic, serial, pipe);
            case SLICER -> new Slicer(toxic, serial, pipe);
            case TIMEOUT -> new Timeout(toxic, serial, pipe);
            case RESET_PEER -> new ResetPeer(toxic, serial, pipe);
            case LIMIT_DATA -> new LimitData(toxic, serial, pipe);
        };
    }

    private static final long MS = 1_000_000L;

    /** Every chunk released latency ± jitter ms after it was read; the pipe keeps release times in order. */
    static final class Latency extends Stage {
        private final long latency;
        private final long jitter;

        Latency(Toxic toxic, long serial, Pipe pipe) {
            super(toxic, serial, pipe);
            this.latency = toxic.attribute("latency");
            this.jitter = toxic.attribute("jitter");
        }

        @Override
        void apply(List<Chunk> in, List<Chunk> out, long now) {
            for (Chunk c : in) {
                long delay = latency;
                if (jitter > 0) {
                    delay += pipe.random().nextLong(2 * jitter + 1) - jitter;
                }
                c.releaseAt += Math.max(0, delay) * MS;
                out.add(c);
            }
        }
    }

    /**
     * At most {@code rate} bytes per millisecond (= KB/s): a chunk is released once the time its bytes take at that
     * rate has passed after the previous one; chunks longer than 100 ms' worth are cut so the flow stays smooth.
     */
    static final class Bandwidth extends Stage {
        private final long rate;
        private long nextFree = Long.MIN_VALUE; // nanoTime may be negative

        Bandwidth(Toxic toxic, long serial, Pipe pipe) {
            super(toxic, serial, pipe);
            this.rate = toxic.attribute("rate");
        }

        @Override
        void apply(List<Chunk> in, List<Chunk> out, long now) {
            if (rate == 0) {
                out.addAll(in);
                return;
            }
            int maxPiece = (int) Math.min(Integer.MAX_VALUE, Math.max(1, rate * 100));
            for (Chunk c : in) {
                while (c.length() > 0) {
                    Chunk piece = c.length() > maxPiece ? c.split(maxPiece) : c;
                    long start = Math.max(piece.releaseAt, nextFree);
                    nextFree = start + piece.length() * MS / rate;
                    piece.releaseAt = nextFree;
                    out.add(piece);
                    if (piece == c) {
                        break;
                    }
                }
            }
        }
    }

    /** Cuts chunks into pieces of average_size ± size_variation bytes, delay µs apart. */
    static final class Slicer extends Stage {
        private final int average;
        private final int variation;
        private final long delayNanos;

        Slicer(Toxic toxic, long serial, Pipe pipe) {
            super(toxic, serial, pipe);
            this.average = (int) Math.min(Integer.MAX_VALUE, toxic.attribute("average_size"));
            this.variation = (int) Math.min(average - 1, toxic.attribute("size_variation"));
            this.delayNanos = toxic.attribute("delay") * 1_000L;
        }

        @Override
        void apply(List<Chunk> in, List<Chunk> out, long now) {
            for (Chunk c : in) {
                long release = c.releaseAt;
                while (c.length() > 0) {
                    int size = average + (variation > 0 ? pipe.random().nextInt(2 * variation + 1) - variation : 0);
                    Chunk piece = c.length() > size ? c.split(size) : c;
                    piece.releaseAt = release;
                    release += delayNanos;
                    out.add(piece);
                    if (piece == c) {
                        break;
                    }
                }
            }
        }
    }

    /**
     * Toxiproxy's timeout: drops everything. With timeout 0 the connection is kept, stalled; with timeout &gt; 0 it is
     * closed once that many ms pass with no new data. Removing the toxic closes the connection, because bytes were
     * lost and the stream cannot resume (Toxiproxy does the same).
     */
    static final class Timeout extends Stage {
        private final long timeoutNanos;
        private long idleDeadline;

        Timeout(Toxic toxic, long serial, Pipe pipe) {
            super(toxic, serial, pipe);
            this.timeoutNanos = toxic.attribute("timeout") * MS;
        }

        @Override
        void installed(long now) {
            if (timeoutNanos > 0) {
                idleDeadline = now + timeoutNanos;
                pipe.schedule(idleDeadline, this::checkIdle);
            }
        }

        private void checkIdle() {
            if (!pipe.hasStage(this)) {
                return;
            }
            long now = System.nanoTime();
            if (now >= idleDeadline) {
                pipe.connection().close("timeout toxic '" + toxic.name() + "' expired");
            } else {
                pipe.schedule(idleDeadline, this::checkIdle);
            }
        }

        @Override
        void apply(List<Chunk> in, List<Chunk> out, long now) {
            for (Chunk c : in) {
                pipe.dropped(c.length());
            }
            if (timeoutNanos > 0) {
                idleDeadline = now + timeoutNanos;
            }
        }

        @Override
        void removed() {
            pipe.connection().close("timeout toxic '" + toxic.name() + "' removed: the stream lost bytes");
        }

        @Override
        boolean blocksAll() {
            return true;
        }
    }

    /** Toxiproxy's reset_peer: the first data arms a timer of {@code timeout} ms, then the connection is reset. */
    static final class ResetPeer extends Stage {
        private final long timeoutNanos;
        private boolean armed;

        ResetPeer(Toxic toxic, long serial, Pipe pipe) {
            super(toxic, serial, pipe);
            this.timeoutNanos = toxic.attribute("timeout") * MS;
        }

        @Override
        void apply(List<Chunk> in, List<Chunk> out, long now) {
            for (Chunk c : in) {
                pipe.dropped(c.length());
            }
            if (!armed && !in.isEmpty()) {
                armed = true;
                pipe.schedule(now + timeoutNanos,
                        () -> pipe.connection().reset("reset_peer toxic '" + toxic.name() + "'"));
            }
        }
    }

    /** Toxiproxy's limit_data: passes the first {@code bytes} bytes of the stream, then closes the connection. */
    static final class LimitData extends Stage {
        private long remaining;

        LimitData(Toxic toxic, long serial, Pipe pipe) {
            super(toxic, serial, pipe);
            this.remaining = toxic.attribute("bytes");
        }

        @Override
        void installed(long now) {
            if (remaining == 0) {
                pipe.closeWhenFlushed();
            }
        }

        @Override
        void apply(List<Chunk> in, List<Chunk> out, long now) {
            for (Chunk c : in) {
                if (remaining == 0) {
                    pipe.dropped(c.length());
                    continue;
                }
                if (c.length() > remaining) {
                    Chunk head = c.split((int) remaining);
                    pipe.dropped(c.length());
                    c = head;
                }
                remaining -= c.length();
                out.add(c);
            }
            if (remaining == 0) {
                pipe.closeWhenFlushed();
            }
        }
    }
}
