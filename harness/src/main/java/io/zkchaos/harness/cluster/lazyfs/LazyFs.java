package io.zkchaos.harness.cluster.lazyfs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * zk-chaos's lazy file system: a small FUSE program ({@code zkchaos-lazyfs.c}, in this package's resources) that holds
 * every write in its own memory until the file is fsynced, so that "lose" — after the server above it was killed —
 * drops what was written but not fsynced, as a power failure drops the page cache. A SIGKILL alone loses nothing:
 * the kernel's page cache survives the process.
 *
 * <p>Why C against libfuse3 and not jnr-fuse: jnr-fuse binds libfuse 2 (this machine has libfuse3), would run in a
 * JVM of its own per mount (or in the harness, whose death would then hang every server's I/O), and its every
 * call crosses JNR; the C program is one small process per mount, with its own lifetime, that the reaper can find by
 * its command line. It is compiled here, once per source version, with {@code gcc} and {@code pkg-config fuse3}
 * into {@code ~/.cache/zkchaos} (or {@code -Dzkchaos.lazyfs.cache=DIR}).
 *
 * <p>Needs: Linux, {@code /dev/fuse}, root (to mount without a setuid helper), gcc and libfuse3's headers
 * ({@code apt-get install fuse3 libfuse3-dev}). {@link #unavailable()} names what is missing.
 */
public final class LazyFs {

    /** The file-system type mounts have in {@code /proc/self/mountinfo}. */
    public static final String FS_TYPE = "fuse.zkchaos-lazyfs";
    /** The name of the program (and the start of its file name). */
    public static final String PROGRAM = "zkchaos-lazyfs";
    /** The control file at the root of a mount. */
    static final String CONTROL = ".zkchaos-lazyfs";
    private static final String SOURCE = "zkchaos-lazyfs.c";

    private static volatile Optional<String> unavailable;
    private static Path binary;

    private LazyFs() {
    }

    /** Why the lazy file system cannot run on this machine, or empty when it can (the program is then built). */
    public static Optional<String> unavailable() {
        Optional<String> u = unavailable;
        if (u == null) {
            synchronized (LazyFs.class) {
                if (unavailable == null) {
                    unavailable = check();
                }
                u = unavailable;
            }
        }
        return u;
    }

    /**
     * The compiled program.
     *
     * @throws IllegalStateException naming what is missing when it cannot run here
     */
    public static synchronized Path binary() {
        unavailable().ifPresent(why -> {
            throw new IllegalStateException("the lazy file system cannot run here: " + why);
        });
        return binary;
    }

    private static Optional<String> check() {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            return Optional.of("it needs Linux (FUSE), this is " + System.getProperty("os.name"));
        }
        Path fuse = Path.of("/dev/fuse");
        if (!Files.exists(fuse)) {
            return Optional.of("/dev/fuse is missing (no FUSE in this kernel or container; a container needs "
                    + "--device /dev/fuse --cap-add SYS_ADMIN)");
        }
        if (!Files.isReadable(fuse) || !Files.isWritable(fuse)) {
            return Optional.of("/dev/fuse is not readable and writable by this user");
        }
        if (!root()) {
            return Optional.of("mounting needs root (this JVM runs as uid " + uid() + ")");
        }
        if (!onPath("gcc")) {
            return Optional.of("gcc is not on the PATH (apt-get install gcc)");
        }
        Result flags = exec(List.of("pkg-config", "--cflags", "--libs", "fuse3"));
        if (flags.exit() != 0) {
            return Optional.of("libfuse3's development files are missing (apt-get install fuse3 libfuse3-dev): "
                    + "pkg-config --cflags --libs fuse3 says: " + flags.output().trim());
        }
        if (!onPath("fusermount3") && !onPath("umount")) {
            return Optional.of("neither fusermount3 nor umount is on the PATH (apt-get install fuse3)");
        }
        try {
            binary = compile(flags.output().trim());
            return Optional.empty();
        } catch (IllegalStateException | UncheckedIOException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Compiles the program into the cache unless a build of this very source is there already. */
    private static Path compile(String fuseFlags) {
        byte[] source;
        try (InputStream in = LazyFs.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the resource " + SOURCE + " is missing from the class path");
            }
            source = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the resource " + SOURCE, e);
        }
        String hash = sha256(source).substring(0, 16);
        Path dir = cacheDir();
        Path exe = dir.resolve(PROGRAM + "-" + hash);
        if (Files.isExecutable(exe)) {
            return exe;
        }
        try {
            Files.createDirectories(dir);
            Path src = Files.createTempFile(dir, PROGRAM + "-", ".c");
            Path tmp = dir.resolve(exe.getFileName() + ".tmp-" + ProcessHandle.current().pid());
            try {
                Files.write(src, source);
                List<String> cmd = new ArrayList<>(List.of("gcc", "-O2", "-Wall", "-o", tmp.toString(),
                        src.toString()));
                cmd.addAll(List.of(fuseFlags.split("\\s+")));
                Result r = exec(cmd);
                if (r.exit() != 0) {
                    throw new IllegalStateException("compiling " + SOURCE + " failed (" + String.join(" ", cmd)
                            + "): " + r.output().trim());
                }
                Files.move(tmp, exe, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                return exe;
            } finally {
                Files.deleteIfExists(src);
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot build " + PROGRAM + " in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Where built programs are kept: {@code -Dzkchaos.lazyfs.cache}, else {@code ~/.cache/zkchaos}. */
    static Path cacheDir() {
        String p = System.getProperty("zkchaos.lazyfs.cache");
        return p != null ? Path.of(p) : Path.of(System.getProperty("user.home"), ".cache", "zkchaos");
    }

    private static boolean root() {
        return "0".equals(uid());
    }

    private static String uid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.UTF_8)) {
                if (line.startsWith("Uid:")) {
                    return line.substring(4).trim().split("\\s+")[1]; // the effective uid
                }
            }
        } catch (IOException e) {
            // unknown
        }
        return "?";
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }

    /** What a command printed (stdout and stderr) and its exit code. */
    record Result(int exit, String output) {
    }

    /** Runs a command to completion (bounded: 120 s). */
    static Result exec(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, String.join(" ", cmd) + " did not finish within 120 s");
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Result(-1, "cannot run " + cmd.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted running " + cmd.get(0));
        }
    }

    private static String sha256(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
