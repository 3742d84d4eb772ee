package io.zkchaos.checkers.codec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The published histories in {@code ../shared/data} next to the repository (see its README). */
final class SharedData {

    private SharedData() {
    }

    static Path root() {
        String repo = System.getProperty("zkchaos.repo.root");
        if (repo == null) {
            throw new IllegalStateException("system property zkchaos.repo.root is not set (run through Maven)");
        }
        Path data = Path.of(repo).resolve("../shared/data").normalize();
        if (!Files.isDirectory(data)) {
            throw new IllegalStateException("no shared data at " + data);
        }
        return data;
    }

    /** Every history file (.edn and .txt), sorted. */
    static List<Path> histories() {
        try (Stream<Path> files = Files.walk(root())) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".edn") || p.toString().endsWith(".txt"))
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path file(String relative) {
        return root().resolve(relative);
    }
}
