package io.zkchaos.harness.cluster.docker;

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
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.images.builder.Transferable;

/**
 * The parts of an image {@code FROM scratch} that runs Java, staged in a directory and built by the engine with no
 * network: a runtime {@code jlink}ed from this JVM's JDK with the modules {@link #MODULES}, the native libraries
 * {@code ldd} lists for it (copied to the paths it names), a minimal {@code /etc/passwd}, and whatever the image adds.
 * The build context is sent to the engine as a tar (nothing is mounted), so a remote engine builds it the same way;
 * it must run the same OS and CPU architecture as this machine (checked).
 */
final class ScratchImage implements AutoCloseable {

    /** What ZooKeeper and the Toxiproxy-compatible server need of the JDK. */
    static final List<String> MODULES = List.of("java.base", "java.logging", "java.management", "java.naming",
            "java.security.jgss", "java.security.sasl", "jdk.unsupported", "jdk.management", "java.xml",
            "jdk.httpserver");
    /** Where the runtime goes in the image. */
    static final String JAVA = "/opt/java/bin/java";

    private static final Pattern LDD_LINE = Pattern.compile("(?:\\S+\\s+=>\\s+)?(/\\S+)\\s+\\(0x[0-9a-f]+\\)");

    private final Path context;
    private final Path root;

    ScratchImage() {
        try {
            context = Files.createTempDirectory("zkchaos-image-");
            root = context.resolve("rootfs");
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory to stage an image in", e);
        }
    }

    /** The directory that becomes the image's {@code /}. */
    Path root() {
        return root;
    }

    /** {@code path} inside the image, as a path under {@link #root()} (parents created). */
    Path at(String path) {
        Path p = root.resolve(path.startsWith("/") ? path.substring(1) : path);
        try {
            Files.createDirectories(p.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stage " + path, e);
        }
        return p;
    }

    /** Copies a file or a directory tree into the image at {@code path}. */
    void copy(Path from, String path) {
        Path to = at(path);
        try {
            if (Files.isDirectory(from)) {
                try (Stream<Path> s = Files.walk(from)) {
                    for (Path f : s.toList()) {
                        Path t = to.resolve(from.relativize(f).toString());
                        if (Files.isDirectory(f)) {
                            Files.createDirectories(t);
                        } else {
                            Files.createDirectories(t.getParent());
                            Files.copy(f, t, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                        }
                    }
                }
            } else {
                Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + from + " into the image at " + path, e);
        }
    }

    /** Writes a text file into the image. */
    void write(String path, String text) {
        try {
            Files.writeString(at(path), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stage " + path, e);
        }
    }

    /** Writes a class of this class path into the image under {@code dir}, at its package path. */
    void writeClass(Class<?> c, String dir) {
        String resource = c.getName().replace('.', '/') + ".class";
        try (InputStream in = c.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("class file of " + c.getName() + " not found on the class path");
            }
            Files.write(at(dir + "/" + resource), in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stage " + resource, e);
        }
    }

    /**
     * Links the runtime into {@code /opt/java} with {@code jlink} and copies the libraries {@code ldd} lists for
     * it, and writes {@code /etc/passwd}.
     *
     * @throws DockerUnavailableException when this JVM has no {@code jlink} or {@code jmods}, naming what is missing
     */
    void addRuntime() {
        Path home = Path.of(System.getProperty("java.home"));
        Path jlink = home.resolve("bin/jlink");
        Path jmods = home.resolve("jmods");
        if (!Files.isExecutable(jlink) || !Files.isDirectory(jmods)) {
            throw new DockerUnavailableException("cannot build a ZooKeeper image here: the JDK at " + home
                    + " has no " + (Files.isExecutable(jlink) ? "jmods directory" : "jlink")
                    + " (run with a full JDK, or have the official images present locally)");
        }
        Path java = root.resolve("opt/java");
        run(List.of(jlink.toString(), "--add-modules", String.join(",", MODULES), "--strip-debug",
                "--no-man-pages", "--no-header-files", "--compress=2", "--output", java.toString()));
        Set<String> libraries = new LinkedHashSet<>();
        List<Path> binaries = new ArrayList<>();
        binaries.add(java.resolve("bin/java"));
        try (Stream<Path> s = Files.walk(java.resolve("lib"))) {
            s.filter(p -> p.getFileName().toString().endsWith(".so")).forEach(binaries::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the linked runtime's libraries", e);
        }
        // The runtime's own libraries (libjvm.so in lib/server, ...) are found through its RPATH at run time.
        Map<String, String> env = Map.of("LD_LIBRARY_PATH", java.resolve("lib") + ":" + java.resolve("lib/server"));
        for (Path b : binaries) {
            String out = run(List.of("ldd", b.toString()), env);
            for (String line : out.split("\n")) {
                if (line.contains("not found")) {
                    throw new IllegalStateException("ldd " + b + ": a library is missing: " + line.trim());
                }
                Matcher m = LDD_LINE.matcher(line.trim());
                if (m.matches() && !m.group(1).startsWith(java.toString())) {
                    libraries.add(m.group(1));
                }
            }
        }
        for (String lib : libraries) {
            copy(Path.of(lib), lib); // follows the symbolic link: the library's content under the name ldd gave
        }
        write("/etc/passwd", "root:x:0:0:root:/root:/sbin/nologin\n");
        write("/etc/group", "root:x:0:\n");
    }

    /** Builds the staged image with {@code dockerfile}, tagged {@code tag}; the engine pulls nothing. */
    void build(String tag, String dockerfile, Map<String, String> labels) {
        new ImageFromDockerfile(tag, false)
                .withFileFromString("Dockerfile", dockerfile)
                .withFileFromPath("rootfs", root)
                .withBuildImageCmdModifier(cmd -> cmd.withPull(false).withLabels(labels))
                .get();
    }

    /** A short content hash of the given parts: the tag of an image built from them. */
    static String hash(List<byte[]> parts) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            for (byte[] p : parts) {
                d.update(Integer.toString(p.length).getBytes(StandardCharsets.UTF_8));
                d.update(p);
            }
            return HexFormat.of().formatHex(d.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The bytes of a file, or of every file under a directory or in a jar (with their names), for {@link #hash}. A
     * jar counts by its entries, not its bytes: a rebuild of the same classes writes new timestamps into the jar,
     * and should still find the image built from them.
     */
    static byte[] contentOf(Path p) {
        try {
            if (!Files.isDirectory(p)) {
                return p.getFileName().toString().endsWith(".jar") ? entriesOf(p) : Files.readAllBytes(p);
            }
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            try (Stream<Path> s = Files.walk(p)) {
                for (Path f : s.filter(Files::isRegularFile).sorted(Comparator.comparing(Path::toString)).toList()) {
                    out.write(p.relativize(f).toString().getBytes(StandardCharsets.UTF_8));
                    out.write(Files.readAllBytes(f));
                }
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }

    private static byte[] entriesOf(Path jar) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            List<? extends ZipEntry> entries = zip.stream().filter(e -> !e.isDirectory())
                    .sorted(Comparator.comparing(ZipEntry::getName)).toList();
            for (ZipEntry e : entries) {
                out.write(e.getName().getBytes(StandardCharsets.UTF_8));
                try (InputStream in = zip.getInputStream(e)) {
                    in.transferTo(out);
                }
            }
        } catch (java.util.zip.ZipException e) {
            return Files.readAllBytes(jar); // not a zip after all: its bytes are its content
        }
        return out.toByteArray();
    }

    private static String run(List<String> command) {
        return run(command, Map.of());
    }

    private static String run(List<String> command, Map<String, String> env) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            pb.environment().putAll(env);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out.trim());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command.get(0), e);
        }
    }

    /** Deletes the staging directory. */
    @Override
    public void close() {
        try (Stream<Path> s = Files.walk(context)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a temp directory left behind is not worth failing a run for
        }
    }
}
