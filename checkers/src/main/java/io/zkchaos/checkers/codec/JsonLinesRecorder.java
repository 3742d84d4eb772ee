package io.zkchaos.checkers.codec;

import io.zkchaos.checkers.history.HistoryRecorder;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A durable recorder: every entry is appended to a JSON Lines file as it is recorded, so a run that is killed still
 * leaves a history that {@link HistoryFiles#read} accepts.
 *
 * <p>Each entry is encoded to one complete line (newline included) and handed to the operating system in a single
 * {@code write} before the call returns, with nothing buffered in the JVM: once {@code invoke}/{@code complete}
 * returns, the entry survives the process being killed (not the machine losing power; there is no fsync per entry,
 * which would cost a disk round trip per op). A kill can cut only the line being written when it came, which is
 * then the file's last line: Linux checks for a fatal signal (SIGKILL) between the pages of a {@code write}, so a line
 * that crosses a page boundary can be left half written (so can a full disk). Its entry never counted as recorded
 * (the call did not return), and every line before it is whole. The reader reports such a cut-off last line, or
 * drops it with {@link ReadOptions#tolerateTruncatedTail}.
 *
 * <p>Thread-safe: entries are numbered and written under one lock, so the file's order is the index order.
 * After an I/O error the recorder is broken: that call and every later one throw {@link UncheckedIOException}.
 */
public final class JsonLinesRecorder implements HistoryRecorder {

    private final Path file;
    private final FileOutputStream out;
    private final long startNanos = System.nanoTime();
    private long next;
    private boolean closed;
    private IOException broken;

    private JsonLinesRecorder(Path file, FileOutputStream out) {
        this.file = file;
        this.out = out;
    }

    /**
     * Creates {@code file} and records into it.
     *
     * @throws UncheckedIOException if it already exists (a history is never overwritten) or cannot be created
     */
    public static JsonLinesRecorder create(Path file) {
        try {
            Files.newOutputStream(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close();
            return new JsonLinesRecorder(file, new FileOutputStream(file.toFile(), true));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create history file " + file + ": " + e, e);
        }
    }

    /** The file being written. */
    public Path file() {
        return file;
    }

    @Override
    public synchronized Op invoke(int process, String f, String key, Object value) {
        return append(new Op(next, process, OpType.INVOKE, f, key, value, null, now()));
    }

    @Override
    public synchronized Op complete(Op invoke, OpType type, Object value, String error) {
        if (type == OpType.INVOKE) {
            throw new IllegalArgumentException("a completion must be ok, fail or info");
        }
        return append(new Op(next, invoke.process(), type, invoke.f(), invoke.key(), value, error, now()));
    }

    @Override
    public synchronized Op nemesis(OpType type, String f, Object value) {
        return append(new Op(next, Op.NEMESIS, type, f, null, value, null, now()));
    }

    /**
     * The time an entry recorded now would carry (ns since this recorder was created): the clock of the history's
     * {@code time} field, for anything recorded beside the history that must line up with it.
     */
    public long elapsedNanos() {
        return now();
    }

    /** Entries recorded so far. */
    public synchronized long size() {
        return next;
    }

    private long now() {
        return System.nanoTime() - startNanos;
    }

    private Op append(Op op) {
        if (closed) {
            throw new IllegalStateException("recorder for " + file + " is closed");
        }
        if (broken != null) {
            throw new UncheckedIOException("history file " + file + " failed earlier", broken);
        }
        // Encode first: a value Jackson cannot write fails here, before anything reaches the file.
        byte[] line = JsonLinesCodec.encode(op);
        try {
            out.write(line);
        } catch (IOException e) {
            broken = e;
            throw new UncheckedIOException("cannot append to history file " + file, e);
        }
        next++;
        return op;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            out.getFD().sync(); // the run is over: now make it survive a power loss too
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close history file " + file, e);
        }
    }
}
