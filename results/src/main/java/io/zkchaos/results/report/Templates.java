package io.zkchaos.results.report;

import freemarker.core.HTMLOutputFormat;
import freemarker.template.Configuration;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import freemarker.template.TemplateExceptionHandler;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The report's templates ({@code .ftlh} under {@code io/zkchaos/results/report/}), rendered with FreeMarker in HTML
 * output format: every {@code ${...}} is HTML-escaped unless it is already markup, so a value from the history can
 * never become markup. Styles and scripts are included verbatim ({@code parse=false}), so the page needs nothing
 * from the network.
 */
final class Templates {

    private static final Configuration CONFIG = configuration();

    private Templates() {
    }

    private static Configuration configuration() {
        Configuration c = new Configuration(Configuration.VERSION_2_3_34);
        c.setClassForTemplateLoading(Templates.class, "/io/zkchaos/results/report");
        c.setDefaultEncoding("UTF-8");
        c.setOutputFormat(HTMLOutputFormat.INSTANCE);
        c.setAutoEscapingPolicy(Configuration.ENABLE_IF_SUPPORTED_AUTO_ESCAPING_POLICY);
        c.setTemplateExceptionHandler(TemplateExceptionHandler.RETHROW_HANDLER);
        c.setLogTemplateExceptions(false);
        c.setWrapUncheckedExceptions(true);
        c.setFallbackOnNullLoopVariable(false);
        c.setNumberFormat("computer");
        return c;
    }

    /** Writes a rendered page to {@code file} atomically: a crash leaves the old page or the new one. */
    static Path write(Path file, String html) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            java.nio.file.Files.createDirectories(file.toAbsolutePath().getParent());
            java.nio.file.Files.writeString(tmp, html, java.nio.charset.StandardCharsets.UTF_8);
            java.nio.file.Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
        return file;
    }

    /** Renders {@code name} with {@code model}. */
    static String render(String name, Map<String, Object> model) {
        try {
            Template t = CONFIG.getTemplate(name);
            StringWriter out = new StringWriter(64 * 1024);
            t.process(model, out);
            return out.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load report template " + name + ": " + e.getMessage(), e);
        } catch (TemplateException e) {
            throw new IllegalStateException("report template " + name + " failed: " + e.getMessage(), e);
        }
    }
}
