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
import java.util.Collection;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * What a node's JVM runs from — the ZooKeeper release's jars as Maven resolved them here, or the fle module's classes
 * and their dependencies — carried to the hosts, which need only a JRE and reach nothing. Each entry of the class path
 * becomes one jar named by its content ({@code <sha-256 prefix>-<name>.jar}; a classes directory is packed into one,
 * reproducibly), kept in {@code <remote dir>/lib/} and sent only when a host does not have it yet, all of them in
 * one tar stream (one command: on a busy host each costs a shell's start-up).
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

    /** The jars a host lacks, given the names in its {@code lib/}. */
    List<Jar> missing(Collection<String> present) {
        Set<String> have = Set.copyOf(present);
        return jars.stream().filter(j -> !have.contains(j.name())).toList();
    }

    /** The paths of the jars in {@code lib} on a host, in class-path order. */
    List<String> paths(String lib) {
        return jars.stream().map(j -> lib + "/" + j.name()).toList();
    }

    /** {@code jars} as one tar stream, for {@link #unpack}. */
    static byte[] tar(List<Jar> jars) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(bytes)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Jar j : jars) {
                TarArchiveEntry e = new TarArchiveEntry(j.name());
                e.setSize(j.content().length);
                e.setMode(0644);
                tar.putArchiveEntry(e);
                tar.write(j.content());
                tar.closeArchiveEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot pack the jars for the hosts", e);
        }
        return bytes.toByteArray();
    }

    /**
     * The command that unpacks a {@link #tar} from its stdin into {@code lib} (through a directory of its own, then
     * moved: a jar is in {@code lib} whole or not at all).
     */
    static String unpack(String lib) {
        String incoming = lib + "/.incoming-" + Long.toHexString(System.nanoTime());
        return "mkdir -p " + Shell.quote(incoming) + " && tar -x -f - -C " + Shell.quote(incoming) + " && mv -f "
                + Shell.quote(incoming) + "/* " + Shell.quote(lib) + "/ && rmdir " + Shell.quote(incoming);
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
