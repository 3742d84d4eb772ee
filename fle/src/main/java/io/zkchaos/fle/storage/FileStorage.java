package io.zkchaos.fle.storage;

import io.zkchaos.fle.Zxid;
import io.zkchaos.fle.wire.Wire;
import io.zkchaos.fle.zab.Entry;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable state in a node's data dir:
 * <pre>
 * myid            the server's id, written at the first start and checked at every later one
 * acceptedEpoch   decimal text, replaced atomically (write a temp file, fsync, rename, fsync the dir)
 * currentEpoch    likewise
 * log             the history: records of  length:int crc32:int body  (body = an entry, {@link Wire})
 * lock            held while the node runs, so that two nodes never share a data dir
 * </pre>
 * Appends are written and {@code fsync}ed before {@link #append} returns. At start-up the log is read up to the
 * first record that is incomplete or fails its checksum — a write torn by a crash — and cut there: such a record was
 * never fsynced, so it was never acknowledged.
 */
public final class FileStorage implements Storage {

    private static final Logger LOG = LoggerFactory.getLogger(FileStorage.class);
    private static final int HEADER = 8;

    private final Path dir;
    private final long myId;
    private FileChannel lockChannel;
    private FileLock lock;
    private FileChannel log;
    /** The offset in the log file of each entry, in order, and the zxids alongside. */
    private final List<Long> offsets = new ArrayList<>();
    private final List<Long> zxids = new ArrayList<>();
    private long end;

    private FileStorage(Path dir, long myId) {
        this.dir = dir;
        this.myId = myId;
    }

    /**
     * Opens (creating if needed) the data dir of server {@code myId}.
     *
     * @throws StorageException naming the problem: the dir cannot be created, read or written, it belongs to another
     *                          server id, or another node holds it
     */
    public static FileStorage open(Path dir, long myId) {
        FileStorage s = new FileStorage(dir, myId);
        try {
            s.openDir();
            return s;
        } catch (StorageException e) {
            s.close();
            throw e;
        } catch (IOException e) {
            s.close();
            throw new StorageException("data dir " + dir + ": " + describe(e), e);
        }
    }

    private static String describe(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied: " + e.getMessage();
        }
        return e.toString();
    }

    private void openDir() throws IOException {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new StorageException("data dir " + dir + " is not a directory");
        }
        Files.createDirectories(dir);
        if (!Files.isReadable(dir) || !Files.isWritable(dir) || !Files.isExecutable(dir)) {
            throw new StorageException("data dir " + dir + " is not readable and writable by this process");
        }
        lockChannel = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            lock = lockChannel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            throw new StorageException("data dir " + dir + " is in use by another node (its lock file is held)");
        }
        Path idFile = dir.resolve("myid");
        if (Files.exists(idFile)) {
            String text = Files.readString(idFile, StandardCharsets.UTF_8).trim();
            long stored;
            try {
                stored = Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new StorageException("data dir " + dir + ": myid file holds '" + text + "', not a number");
            }
            if (stored != myId) {
                throw new StorageException("data dir " + dir + " belongs to server " + stored + ", not to server "
                        + myId);
            }
        } else {
            writeAtomically(idFile, myId + "\n");
        }
        log = FileChannel.open(dir.resolve("log"), StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
    }

    @Override
    public synchronized Persisted load() {
        try {
            long accepted = readEpoch("acceptedEpoch");
            long current = readEpoch("currentEpoch");
            List<Entry> history = readLog();
            return new Persisted(accepted, current, history);
        } catch (IOException e) {
            throw new StorageException("cannot read the data dir " + dir + ": " + describe(e), e);
        }
    }

    private long readEpoch(String name) throws IOException {
        Path p = dir.resolve(name);
        if (!Files.exists(p)) {
            return 0;
        }
        String text = Files.readString(p, StandardCharsets.UTF_8).trim();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new StorageException("data dir " + dir + ": " + name + " holds '" + text + "', not a number");
        }
    }

    private List<Entry> readLog() throws IOException {
        offsets.clear();
        zxids.clear();
        List<Entry> entries = new ArrayList<>();
        long size = log.size();
        long pos = 0;
        ByteBuffer header = ByteBuffer.allocate(HEADER);
        String torn = null;
        while (pos < size) {
            if (size - pos < HEADER) {
                torn = "an incomplete record header";
                break;
            }
            header.clear();
            readFully(header, pos);
            header.flip();
            int len = header.getInt();
            int crc = header.getInt();
            if (len <= 0 || len > Wire.MAX_FRAME) {
                torn = "a record header with a bad length (" + len + ")";
                break;
            }
            if (size - pos - HEADER < len) {
                torn = "an incomplete record (length " + len + ", " + (size - pos - HEADER) + " bytes left)";
                break;
            }
            ByteBuffer body = ByteBuffer.allocate(len);
            readFully(body, pos + HEADER);
            CRC32 c = new CRC32();
            c.update(body.array());
            if ((int) c.getValue() != crc) {
                torn = "a record failing its checksum";
                break;
            }
            Entry e;
            try {
                e = Wire.decodeEntry(body.array());
            } catch (IOException | RuntimeException ex) {
                torn = "an undecodable record (" + ex.getMessage() + ")";
                break;
            }
            if (!entries.isEmpty() && e.zxid() <= entries.get(entries.size() - 1).zxid()) {
                throw new StorageException("data dir " + dir + ": the log's zxids go back at offset " + pos + " ("
                        + Zxid.show(e.zxid()) + " after " + Zxid.show(entries.get(entries.size() - 1).zxid()) + ")");
            }
            entries.add(e);
            offsets.add(pos);
            zxids.add(e.zxid());
            pos += HEADER + len;
        }
        if (torn != null) {
            LOG.warn("data dir {}: the log ends with {} at offset {} ({} bytes); cutting it there (a write torn by a "
                    + "crash, never acknowledged)", dir, torn, pos, size - pos);
            log.truncate(pos);
            log.force(true);
        }
        end = pos;
        return entries;
    }

    private void readFully(ByteBuffer b, long at) throws IOException {
        long p = at;
        while (b.hasRemaining()) {
            int n = log.read(b, p);
            if (n < 0) {
                throw new IOException("unexpected end of the log at " + p);
            }
            p += n;
        }
    }

    @Override
    public synchronized void append(List<Entry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        long last = zxids.isEmpty() ? 0 : zxids.get(zxids.size() - 1);
        try {
            Encoded enc = encode(entries, last, end);
            long at = end;
            ByteBuffer b = ByteBuffer.wrap(enc.bytes());
            while (b.hasRemaining()) {
                at += log.write(b, at);
            }
            log.force(false);
            end = at;
            offsets.addAll(enc.offsets());
            entries.forEach(e -> zxids.add(e.zxid()));
        } catch (IOException e) {
            throw new StorageException("cannot append to the log in " + dir + ": " + describe(e), e);
        }
    }

    /** Records ready to write from offset {@code start}, and each one's offset. */
    private record Encoded(byte[] bytes, List<Long> offsets) {
    }

    private static Encoded encode(List<Entry> entries, long lastZxid, long start) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(buf);
        List<Long> offsets = new ArrayList<>(entries.size());
        long pos = start;
        long last = lastZxid;
        for (Entry e : entries) {
            if (e.zxid() <= last) {
                throw new IllegalArgumentException("zxid " + Zxid.show(e.zxid()) + " does not follow "
                        + Zxid.show(last));
            }
            last = e.zxid();
            byte[] body = Wire.encode(e);
            CRC32 c = new CRC32();
            c.update(body);
            out.writeInt(body.length);
            out.writeInt((int) c.getValue());
            out.write(body);
            offsets.add(pos);
            pos += HEADER + body.length;
        }
        out.flush();
        return new Encoded(buf.toByteArray(), offsets);
    }

    @Override
    public synchronized void truncateAfter(long zxid) {
        int keep = 0;
        while (keep < zxids.size() && zxids.get(keep) <= zxid) {
            keep++;
        }
        if (keep == zxids.size()) {
            return;
        }
        long cut = offsets.get(keep);
        try {
            log.truncate(cut);
            log.force(true);
        } catch (IOException e) {
            throw new StorageException("cannot truncate the log in " + dir + ": " + describe(e), e);
        }
        end = cut;
        offsets.subList(keep, offsets.size()).clear();
        zxids.subList(keep, zxids.size()).clear();
    }

    /**
     * Replaces the whole history atomically: the new log is written and fsynced beside the old one, then renamed over
     * it, so a crash leaves one or the other, never an empty or half-written log.
     */
    @Override
    public synchronized void replace(List<Entry> entries) {
        try {
            Encoded enc = encode(entries, 0, 0);
            Path tmp = dir.resolve("log.new");
            Files.deleteIfExists(tmp);
            try (FileChannel t = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(enc.bytes());
                while (b.hasRemaining()) {
                    t.write(b);
                }
                t.force(true);
            }
            log.close();
            Files.move(tmp, dir.resolve("log"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            syncDir();
            log = FileChannel.open(dir.resolve("log"), StandardOpenOption.READ, StandardOpenOption.WRITE);
            offsets.clear();
            zxids.clear();
            offsets.addAll(enc.offsets());
            entries.forEach(e -> zxids.add(e.zxid()));
            end = enc.bytes().length;
        } catch (IOException e) {
            throw new StorageException("cannot replace the log in " + dir + ": " + describe(e), e);
        }
    }

    @Override
    public synchronized void acceptedEpoch(long epoch) {
        writeEpoch("acceptedEpoch", epoch);
    }

    @Override
    public synchronized void currentEpoch(long epoch) {
        writeEpoch("currentEpoch", epoch);
    }

    private void writeEpoch(String name, long epoch) {
        try {
            writeAtomically(dir.resolve(name), epoch + "\n");
        } catch (IOException e) {
            throw new StorageException("cannot write " + name + " in " + dir + ": " + describe(e), e);
        }
    }

    private void writeAtomically(Path target, String text) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel c = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) {
                c.write(b);
            }
            c.force(true);
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        syncDir();
    }

    private void syncDir() throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    @Override
    public synchronized void close() {
        try {
            if (log != null) {
                log.close();
            }
            if (lock != null) {
                lock.release();
            }
            if (lockChannel != null) {
                lockChannel.close();
            }
        } catch (IOException e) {
            LOG.warn("closing the data dir {}: {}", dir, e.toString());
        }
    }
}
