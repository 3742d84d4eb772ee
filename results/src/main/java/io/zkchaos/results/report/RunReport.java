package io.zkchaos.results.report;

import io.zkchaos.results.RunDirectory;
import java.nio.file.Path;
import java.util.Map;

/**
 * A run's {@code index.html}: rendered from the run directory's saved files only ({@link RunFiles}), never from a
 * live run, so {@code zkchaos report DIR} re-renders any run, old or crashed, and a run renders its own report the
 * same way as its last step. The page is one self-contained file: styles, script, data and drawings inline, no
 * request to any network address, so it opens from disk and as a CI artifact.
 */
public final class RunReport {

    private RunReport() {
    }

    /**
     * Renders {@code dir}'s report and writes it to {@code dir/index.html} (atomically: a crash leaves the old one
     * or the new one).
     *
     * @return the report file
     * @throws IllegalArgumentException if the directory holds no history
     */
    public static Path write(RunDirectory dir) {
        String html = render(RunFiles.read(dir));
        return Templates.write(dir.reportFile(), html);
    }

    /** The page for a run's files. */
    public static String render(RunFiles files) {
        RunPage page = RunPages.build(files);
        return Templates.render("run.ftlh", Map.of("page", page));
    }
}
