package io.zkchaos.harness.cluster.lazyfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.zkchaos.harness.process.ProcessMarkers;
import io.zkchaos.harness.process.Reaper;
import io.zkchaos.harness.testing.Prerequisites;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lazy file system on its own: what is fsynced survives "lose", what is not is gone; metadata is durable at once;
 * closing unmounts; the reaper ends a program whose harness died and detaches a mount whose program was killed.
 * Skipped, loudly, where FUSE cannot run (the reason names what is missing).
 */
class LazyFsMountIT {

    @TempDir
    Path tmp;

    @RegisterExtension
    static final ExecutionCondition LAZY_FS = Prerequisites.forClass("the lazy file system", LazyFs::unavailable);

    @AfterEach
    void noMountLeft() {
        assertThat(Mounts.lazyFsMounts()).as("lazy file system mounts under " + tmp)
                .noneMatch(m -> m.startsWith(tmp));
    }

    private LazyFsMount mount(Path dir, String... markers) {
        return LazyFsMount.mount(dir, List.of(markers), tmp.resolve("lazyfs.log"), Duration.ofSeconds(30));
    }

    @Test
    void onlyWhatWasFsyncedSurvivesALoss() throws Exception {
        Path dir = tmp.resolve("data");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("myid"), "1\n"); // there before the mount: moved to the disk, durable
        try (LazyFsMount m = mount(dir)) {
            assertThat(Mounts.mounted(dir)).isTrue();
            assertThat(m.disk()).isEqualTo(tmp.resolve("data.disk"));
            assertThat(Files.readString(dir.resolve("myid"))).isEqualTo("1\n");

            Path log = dir.resolve("version-2").resolve("log.1");
            Files.createDirectories(log.getParent());
            try (FileChannel ch = FileChannel.open(log, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap("acked+synced;".getBytes(StandardCharsets.UTF_8)));
                ch.force(false);
                ch.write(ByteBuffer.wrap("acked-only;".getBytes(StandardCharsets.UTF_8)));
                ch.write(ByteBuffer.wrap(new byte[] {0}), 64 * 1024 * 1024 - 1); // ZooKeeper's preallocation
            }
            Path never = dir.resolve("never-synced");
            Files.writeString(never, "gone");
            // a page cache: the writer reads what it wrote, the disk holds only what was fsynced
            assertThat(Files.size(log)).isEqualTo(64 * 1024 * 1024);
            assertThat(new String(Files.readAllBytes(log), 0, 24, StandardCharsets.UTF_8))
                    .isEqualTo("acked+synced;acked-only;");
            assertThat(Files.readString(m.disk().resolve("version-2/log.1"))).isEqualTo("acked+synced;");
            assertThat(m.counters()).containsEntry("fsyncs", 1L).containsEntry("losses", 0L);
            assertThat(m.counters().get("dirty_bytes")).isPositive();

            m.loseUnsynced();

            assertThat(Files.readString(dir.resolve("version-2/log.1"))).isEqualTo("acked+synced;");
            assertThat(Files.exists(never)).as("created files stay (metadata is durable at once)").isTrue();
            assertThat(Files.size(never)).as("their unsynced contents do not").isZero();
            assertThat(m.counters()).containsEntry("losses", 1L).containsEntry("dirty_bytes", 0L);
            assertThat(m.counters().get("lost_pages")).isGreaterThanOrEqualTo(2);
        }
        assertThat(Mounts.mounted(dir)).isFalse();
        assertThat(Files.readString(tmp.resolve("data.disk/version-2/log.1"))).isEqualTo("acked+synced;");
    }

    @Test
    void renamesUnlinksAndTruncationsBehaveAsOnADisk() throws Exception {
        Path dir = tmp.resolve("d");
        try (LazyFsMount m = mount(dir)) {
            Path tmpFile = dir.resolve("currentEpoch.tmp");
            try (FileChannel ch = FileChannel.open(tmpFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap("7".getBytes(StandardCharsets.UTF_8)));
                ch.force(true);
            }
            Files.move(tmpFile, dir.resolve("currentEpoch")); // ZooKeeper's atomic file idiom
            Files.writeString(dir.resolve("doomed"), "x");
            Files.delete(dir.resolve("doomed"));
            Path t = dir.resolve("t");
            Files.writeString(t, "abcdef");
            m.syncAll();
            try (FileChannel ch = FileChannel.open(t, StandardOpenOption.WRITE)) {
                ch.truncate(2);
            }
            assertThat(Files.readString(t)).isEqualTo("ab");
            m.loseUnsynced();
            assertThat(Files.readString(dir.resolve("currentEpoch"))).isEqualTo("7");
            assertThat(Files.exists(dir.resolve("doomed"))).isFalse();
            assertThat(Files.readString(t)).as("the truncation was not fsynced").isEqualTo("abcdef");
            try (var list = Files.list(dir)) {
                assertThat(list.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("currentEpoch", "t");
            }
        }
    }

    private static FileChannel open(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void writesFailWithEioWhileTheFaultHoldsAndSucceedAfter() throws Exception {
        Path dir = tmp.resolve("eio-write");
        try (LazyFsMount m = mount(dir); FileChannel ch = open(dir.resolve("log"))) {
            ch.write(bytes("before;"));
            m.failWrites();
            assertThat(m.counters()).containsEntry("fault_eio_write", 1L).containsEntry("fault_eio_fsync", 0L);
            assertThatThrownBy(() -> ch.write(bytes("during;"))).isInstanceOf(IOException.class)
                    .hasMessageContaining("Input/output error");
            ch.force(false); // fsyncs still work: what was written before is kept
            m.clearFaults();
            ch.write(bytes("after;"));
            ch.force(false);
            assertThat(m.counters()).containsEntry("fault_eio_write", 0L).containsEntry("failed_writes", 1L);
            assertThat(Files.readString(m.disk().resolve("log"))).isEqualTo("before;after;");
        }
    }

    @Test
    void fsyncsFailWithEioAndWhatTheyWouldHaveWrittenStaysHeldUntilOneSucceeds() throws Exception {
        Path dir = tmp.resolve("eio-fsync");
        try (LazyFsMount m = mount(dir); FileChannel ch = open(dir.resolve("log"))) {
            ch.write(bytes("synced;"));
            ch.force(false);
            m.failFsyncs();
            ch.write(bytes("written;"));
            assertThatThrownBy(() -> ch.force(false)).isInstanceOf(IOException.class)
                    .hasMessageContaining("Input/output error");
            assertThat(m.counters()).containsEntry("fault_eio_fsync", 1L).containsEntry("failed_fsyncs", 1L);
            assertThat(Files.readString(m.disk().resolve("log"))).as("nothing reached the disk")
                    .isEqualTo("synced;");
            assertThat(Files.readString(dir.resolve("log"))).as("the writer reads what it wrote")
                    .isEqualTo("synced;written;");
            m.clearFaults();
            ch.force(false);
            assertThat(Files.readString(m.disk().resolve("log"))).isEqualTo("synced;written;");
        }
    }

    @Test
    void aFullDiskRefusesWritesThatNeedSpaceWithEnospcAndTakesThemAfter() throws Exception {
        Path dir = tmp.resolve("full");
        try (LazyFsMount m = mount(dir); FileChannel ch = open(dir.resolve("log"))) {
            ch.write(bytes("header;"));
            ch.write(ByteBuffer.wrap(new byte[] {0}), 64 * 1024 * 1024 - 1); // a preallocation: sparse
            ch.force(false);
            m.fill();
            assertThat(m.counters()).containsEntry("fault_enospc", 1L);
            assertThatThrownBy(() -> ch.write(bytes("past the end"), 64 * 1024 * 1024))
                    .isInstanceOf(IOException.class).hasMessageContaining("No space left on device");
            assertThatThrownBy(() -> ch.write(bytes("into the hole"), 1024 * 1024))
                    .isInstanceOf(IOException.class).hasMessageContaining("No space left on device");
            ch.write(bytes("HEADER;"), 0); // overwriting what the file holds needs no space
            ch.force(false);
            m.clearFaults();
            ch.write(bytes("into the hole"), 1024 * 1024);
            ch.force(false);
            assertThat(m.counters()).containsEntry("fault_enospc", 0L).containsEntry("full_writes", 2L);
            assertThat(Files.size(m.disk().resolve("log"))).isEqualTo(64 * 1024 * 1024);
            assertThat(new String(Files.readAllBytes(m.disk().resolve("log")), 0, 7, StandardCharsets.UTF_8))
                    .isEqualTo("HEADER;");
        }
    }

    @Test
    void aSlowFsyncIsReportedActiveAndCompletes() throws Exception {
        Path dir = tmp.resolve("slow");
        try (LazyFsMount m = mount(dir); FileChannel ch = open(dir.resolve("log"))) {
            m.slowFsyncs(Duration.ofMillis(100), Duration.ofMillis(300), 42);
            assertThat(m.counters()).containsEntry("fault_slow_fsync", 1L).containsEntry("slow_fsync_min_ms", 100L)
                    .containsEntry("slow_fsync_max_ms", 300L);
            ch.write(bytes("slowly;"));
            ch.force(false);
            ch.write(bytes("again;"));
            ch.force(false);
            assertThat(Files.readString(m.disk().resolve("log"))).isEqualTo("slowly;again;");
            assertThat(m.counters()).containsEntry("slowed_fsyncs", 2L);
            assertThat(m.counters().get("slow_fsync_ms")).as("the delays drawn, each in 100..300 ms")
                    .isBetween(200L, 600L);
            m.clearFaults();
            ch.force(false);
            assertThat(m.counters()).containsEntry("fault_slow_fsync", 0L).containsEntry("slowed_fsyncs", 2L);
            assertThatThrownBy(() -> m.slowFsyncs(Duration.ofSeconds(2), Duration.ofSeconds(1), 0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("least <= most");
        }
    }

    /** What a file holds after a torn power failure: its synced part, then what of its tail the tear kept. */
    private String tornLog(Path dir, String synced, String tail, long seed) throws IOException {
        try (LazyFsMount m = mount(dir)) {
            try (FileChannel ch = open(dir.resolve("log"))) {
                ch.write(bytes(synced));
                ch.force(false);
                for (int i = 0; i < tail.length(); i += 1000) { // records, appended one by one
                    ch.write(bytes(tail.substring(i, Math.min(tail.length(), i + 1000))));
                }
            }
            LazyFsMount.Tear tear = m.tearUnsynced(seed);
            assertThat(m.counters()).containsEntry("tears", 1L).containsEntry("torn_files", 1L)
                    .containsEntry("dirty_bytes", 0L);
            String kept = Files.readString(dir.resolve("log"));
            assertThat(tear).isEqualTo(new LazyFsMount.Tear(1, kept.length() - synced.length(),
                    synced.length() + tail.length() - kept.length()));
            return kept;
        }
    }

    @Test
    void aTornPowerFailureKeepsAStrictPrefixOfTheUnsyncedTail() throws Exception {
        String synced = "synced;";
        StringBuilder t = new StringBuilder();
        for (int i = 0; t.length() < 9000; i++) {
            t.append("record ").append(i).append(';');
        }
        String tail = t.toString();
        String kept = tornLog(tmp.resolve("torn"), synced, tail, 7);
        assertThat(kept.length()).as("longer than the synced part, shorter than all that was written")
                .isGreaterThan(synced.length()).isLessThan(synced.length() + tail.length());
        assertThat(kept).isEqualTo((synced + tail).substring(0, kept.length()));
        assertThat(Files.readString(tmp.resolve("torn.disk/log"))).isEqualTo(kept);
        assertThat(tornLog(tmp.resolve("again"), synced, tail, 7)).as("the same seed keeps the same prefix")
                .isEqualTo(kept);
    }

    @Test
    void theReaperEndsAProgramWhoseHarnessDiedAndDetachesADeadMount() throws Exception {
        // pid 1 runs, but not since the start time named here: the owner is dead
        String run = "lazyfs-it-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        LazyFsMount orphan = mount(tmp.resolve("orphan"), ProcessMarkers.RUN + run, ProcessMarkers.OWNER + "1@1");
        LazyFsMount killed = mount(tmp.resolve("killed"));
        try {
            ProcessHandle.of(killed.pid()).orElseThrow().destroyForcibly();
            await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(killed.pid()).isEmpty());
            assertThat(Mounts.mounted(tmp.resolve("killed"))).as("a killed program leaves its mount").isTrue();
            assertThat(Files.isDirectory(tmp.resolve("killed"))).as("that nobody can use").isFalse();

            List<Reaper.Reaped> reaped = Mounts.sweepOrphans(run::equals);

            assertThat(reaped).extracting(Reaper.Reaped::pid).containsExactly(orphan.pid());
            assertThat(ProcessHandle.of(orphan.pid()).filter(ProcessHandle::isAlive)).isEmpty();
            assertThat(Mounts.mounted(tmp.resolve("orphan"))).isFalse();
            assertThat(Mounts.mounted(tmp.resolve("killed"))).isFalse();
        } finally {
            orphan.close();
            killed.close();
        }
    }

    @Test
    void aMountFailureNamesTheProgramsOutput() throws IOException {
        Path dir = tmp.resolve("twice");
        try (LazyFsMount m = mount(dir)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> mount(dir))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("already a lazy file system");
        }
    }
}
