package io.zkchaos.fle.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zkchaos.fle.Zxid;
import io.zkchaos.fle.zab.Entry;
import io.zkchaos.fle.zab.Origin;
import io.zkchaos.fle.zab.Txn;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStorageTest {

    @TempDir
    Path dir;

    private static List<Entry> entries(long epoch, int from, int to) {
        List<Entry> es = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            es.add(new Entry(Zxid.of(epoch, i), i % 2 == 0 ? new Txn.Put("k" + i, "v" + i)
                    : new Txn.Cas("k", i == 1 ? null : "x", "é\u20ac" + i), new Origin(2, 77, i)));
        }
        return es;
    }

    @Test
    void everythingWrittenIsReadBackByTheNextOpen() {
        Path d = dir.resolve("data");
        try (FileStorage s = FileStorage.open(d, 3)) {
            assertThat(s.load()).isEqualTo(Storage.Persisted.EMPTY);
            s.acceptedEpoch(4);
            s.currentEpoch(3);
            s.append(entries(3, 1, 2));
            s.append(entries(3, 3, 5));
        }
        try (FileStorage s = FileStorage.open(d, 3)) {
            Storage.Persisted p = s.load();
            assertThat(p.acceptedEpoch()).isEqualTo(4);
            assertThat(p.currentEpoch()).isEqualTo(3);
            assertThat(p.history()).isEqualTo(entries(3, 1, 5));
        }
    }

    @Test
    void truncateAndReplaceAreDurable() {
        try (FileStorage s = FileStorage.open(dir, 1)) {
            s.load();
            s.append(entries(1, 1, 5));
            s.truncateAfter(Zxid.of(1, 3));
            s.append(entries(2, 1, 1));
        }
        try (FileStorage s = FileStorage.open(dir, 1)) {
            List<Entry> expected = new ArrayList<>(entries(1, 1, 3));
            expected.addAll(entries(2, 1, 1));
            assertThat(s.load().history()).isEqualTo(expected);
            s.replace(entries(5, 1, 2));
            s.append(entries(5, 3, 3));
        }
        try (FileStorage s = FileStorage.open(dir, 1)) {
            assertThat(s.load().history()).isEqualTo(entries(5, 1, 3));
            s.truncateAfter(0);
        }
        try (FileStorage s = FileStorage.open(dir, 1)) {
            assertThat(s.load().history()).isEmpty();
        }
    }

    /** Writes 3 entries, then damages the end of the log with {@code damage}, and reopens. */
    private List<Entry> afterDamage(Damage damage) throws IOException {
        try (FileStorage s = FileStorage.open(dir, 1)) {
            s.load();
            s.append(entries(1, 1, 3));
        }
        Path log = dir.resolve("log");
        long sizeBefore = Files.size(log);
        damage.apply(log);
        List<Entry> h;
        try (FileStorage s = FileStorage.open(dir, 1)) {
            h = s.load().history();
            // the torn tail is cut away, so that what is appended next follows the last good record
            s.append(entries(1, h.size() + 1, h.size() + 1));
        }
        try (FileStorage s = FileStorage.open(dir, 1)) {
            assertThat(s.load().history()).isEqualTo(entries(1, 1, h.size() + 1));
        }
        assertThat(sizeBefore).isPositive();
        return h;
    }

    private interface Damage {
        void apply(Path log) throws IOException;
    }

    private static void append(Path log, byte[] bytes) throws IOException {
        Files.write(log, bytes, StandardOpenOption.APPEND);
    }

    private static void cut(Path log, long bytes) throws IOException {
        try (FileChannel c = FileChannel.open(log, StandardOpenOption.WRITE)) {
            c.truncate(c.size() - bytes);
        }
    }

    @Test
    void aTornHeaderAtTheEndIsCutAway() throws IOException {
        assertThat(afterDamage(log -> append(log, new byte[] {0, 0, 0}))).isEqualTo(entries(1, 1, 3));
    }

    @Test
    void aRecordCutShortIsCutAway() throws IOException {
        assertThat(afterDamage(log -> cut(log, 5))).isEqualTo(entries(1, 1, 2));
    }

    @Test
    void aRecordFailingItsChecksumIsCutAway() throws IOException {
        assertThat(afterDamage(log -> {
            byte[] all = Files.readAllBytes(log);
            all[all.length - 3] ^= 0x5a;
            Files.write(log, all);
        })).isEqualTo(entries(1, 1, 2));
    }

    @Test
    void zerosAfterTheLastRecordAreCutAway() throws IOException {
        // A file system may leave zeros where a write was torn.
        assertThat(afterDamage(log -> append(log, new byte[64]))).isEqualTo(entries(1, 1, 3));
    }

    @Test
    void aDataDirOfAnotherServerIsRefused() {
        try (FileStorage s = FileStorage.open(dir, 1)) {
            s.load();
        }
        assertThatThrownBy(() -> FileStorage.open(dir, 2)).isInstanceOf(StorageException.class)
                .hasMessageContaining("belongs to server 1, not to server 2");
    }

    @Test
    void aDataDirInUseIsRefused() {
        FileStorage holder = FileStorage.open(dir, 1);
        try {
            assertThatThrownBy(() -> FileStorage.open(dir, 1)).isInstanceOf(StorageException.class)
                    .hasMessageContaining("in use by another node");
        } finally {
            holder.close();
        }
    }

    @Test
    void aFileWhereTheDataDirShouldBeIsRefused() throws IOException {
        Path f = Files.writeString(dir.resolve("notadir"), "x");
        assertThatThrownBy(() -> FileStorage.open(f, 1)).isInstanceOf(StorageException.class)
                .hasMessageContaining("is not a directory");
    }

    @Test
    void aGarbledEpochFileIsReportedByName() throws IOException {
        try (FileStorage s = FileStorage.open(dir, 1)) {
            s.acceptedEpoch(3);
        }
        Files.writeString(dir.resolve("acceptedEpoch"), "three\n");
        try (FileStorage s = FileStorage.open(dir, 1)) {
            assertThatThrownBy(s::load).isInstanceOf(StorageException.class)
                    .hasMessageContaining("acceptedEpoch holds 'three'");
        }
    }

    @Test
    void aReplacementLeftHalfWayByACrashIsIgnored() throws IOException {
        try (FileStorage s = FileStorage.open(dir, 1)) {
            s.load();
            s.append(entries(1, 1, 2));
        }
        // A crash while a SNAP was being written leaves log.new beside the old log, which stays in force.
        Files.write(dir.resolve("log.new"), new byte[] {0, 0, 0, 9, 1, 2});
        try (FileStorage s = FileStorage.open(dir, 1)) {
            assertThat(s.load().history()).isEqualTo(entries(1, 1, 2));
            s.replace(entries(2, 1, 3));
        }
        try (FileStorage s = FileStorage.open(dir, 1)) {
            assertThat(s.load().history()).isEqualTo(entries(2, 1, 3));
        }
        assertThat(dir.resolve("log.new")).doesNotExist();
    }
}
