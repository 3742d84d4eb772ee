package io.zkchaos.harness.cluster.ssh;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;

/**
 * What a node's JVM runs from — the ZooKeeper release's jars as Maven resolved them here, or the fle module's classes
 * and their dependencies — carried to the hosts, which need only a JRE and reach nothing. Each entry of the class path
 * becomes one jar named by its content ({@code <sha-256 prefix>-<name>.jar}; a classes directory is packed into one,
 * reproducibly), kept in {@code <remote dir>/lib/} and sent only when a host does not have it yet.
 *
 * @param jars the jars, in class-path order
 */
record Artifacts(List<Jar> jars) {

    /** One jar: its name on the hosts and its bytes. */
    record Jar(String name, byte[] content) {
    }

    /** Reads (or packs) every entry of {@code classpath}. */
    static Artifacts of(List<Path> classpath) {
        List<Jar> jars = new ArrayList<>();
        for (Path p : classpath) {
            try {
                byte[] bytes = Files.isDirectory(p) ? pack(p) : Files.readAllBytes(p);
                String file = p.getFileName().toString();
                String name = sha256(bytes).substring(0, 16) + "-" + (file.endsWith(".jar") ? file : file + ".jar");
                jars.add(new Jar(name, bytes));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + p + " to send it to the hosts", e);
            }
        }
        return new Artifacts(List.copyOf(jars));
    }

    /**
     * Puts every jar into {@code lib} on {@code host} (those it lacks) and returns their paths there, in order.
     */
    List<String> install(HostSession host, String lib) {
        HostSession.Result listing = host.exec("mkdir -p " + Shell.quote(lib) + " && ls -1 " + Shell.quote(lib))
                .require(host, "listing " + lib);
        Set<String> present = Set.of(listing.out().split("\n"));
        List<String> paths = new ArrayList<>();
        for (Jar j : jars) {
            String path = lib + "/" + j.name();
            if (!present.contains(j.name())) {
                host.write(path, j.content());
            }
            paths.add(path);
        }
        return paths;
    }

    /** A classes directory as a jar whose bytes depend on its files alone (sorted entries, no times). */
    private static byte[] pack(Path dir) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<Path> files;
        try (Stream<Path> s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        try (JarOutputStream jar = new JarOutputStream(bytes)) {
            for (Path f : files) {
                ZipEntry e = new ZipEntry(dir.relativize(f).toString().replace('\\', '/'));
                e.setTime(0);
                jar.putNextEntry(e);
                Files.copy(f, jar);
                jar.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no SHA-256 in this JRE", e);
        }
    }
}
