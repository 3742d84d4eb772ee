package io.zkchaos.harness.cluster.docker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What tags a built image: its content, not the incidental bytes of how it was packed. */
class ScratchImageTest {

    @TempDir
    Path dir;

    private Path jar(String name, long timeMillis, Map<String, String> entries) throws IOException {
        Path p = dir.resolve(name);
        try (OutputStream f = Files.newOutputStream(p); ZipOutputStream zip = new ZipOutputStream(f)) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                ZipEntry z = new ZipEntry(e.getKey());
                z.setLastModifiedTime(FileTime.fromMillis(timeMillis));
                zip.putNextEntry(z);
                zip.write(e.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        return p;
    }

    private static String tagOf(Path p) {
        return ScratchImage.hash(List.of(ScratchImage.contentOf(p)));
    }

    @Test
    void aJarRebuiltWithTheSameClassesHashesTheSame() throws IOException {
        Path first = jar("a.jar", 1_000_000_000_000L, Map.of("x/A.class", "a", "x/B.class", "b"));
        Path rebuilt = jar("b.jar", 1_700_000_000_000L, Map.of("x/A.class", "a", "x/B.class", "b"));
        assertThat(Files.readAllBytes(first)).as("the jars' bytes (timestamps differ)")
                .isNotEqualTo(Files.readAllBytes(rebuilt));
        assertThat(tagOf(rebuilt)).isEqualTo(tagOf(first));
    }

    @Test
    void aJarWithAChangedOrRenamedEntryHashesDifferently() throws IOException {
        String base = tagOf(jar("a.jar", 0, Map.of("x/A.class", "a")));
        assertThat(tagOf(jar("b.jar", 0, Map.of("x/A.class", "a2")))).isNotEqualTo(base);
        assertThat(tagOf(jar("c.jar", 0, Map.of("x/C.class", "a")))).isNotEqualTo(base);
    }

    @Test
    void aFileNamedJarThatIsNoZipCountsByItsBytes() throws IOException {
        Path notZip = Files.writeString(dir.resolve("odd.jar"), "not a zip");
        assertThat(ScratchImage.contentOf(notZip)).isEqualTo("not a zip".getBytes(StandardCharsets.UTF_8));
    }
}
