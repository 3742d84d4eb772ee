import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Reads the Surefire and Failsafe XML reports of a Maven build (every {@code target/surefire-reports/TEST-*.xml} and
 * {@code target/failsafe-reports/TEST-*.xml} under the given root) and prints what failed, what was re-run, and the
 * totals. A JDK is all it needs: {@code java .ci/TestReports.java [ROOT]}.
 *
 * <p>Output: one line per failed test ({@code FAILED module kind Class.method: message}), one per test that passed
 * only on a re-run ({@code FLAKY ...}, written by Surefire's {@code rerunFailingTestsCount} as
 * {@code flakyFailure}/{@code flakyError}), and a last line
 * {@code SUMMARY tests=N failures=F errors=E skipped=S flaky=K reports=R} for scripts.
 */
public final class TestReports {

    private TestReports() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        List<Path> reports;
        try (Stream<Path> files = Files.walk(root, 5)) {
            reports = files.filter(TestReports::isReport).sorted().toList();
        }
        int tests = 0;
        int failures = 0;
        int errors = 0;
        int skipped = 0;
        int flaky = 0;
        List<String> lines = new ArrayList<>();
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        for (Path report : reports) {
            String module = moduleOf(root, report);
            String kind = report.getParent().getFileName().toString().replace("-reports", "");
            Element suite;
            try {
                suite = factory.newDocumentBuilder().parse(report.toFile()).getDocumentElement();
            } catch (Exception e) {
                lines.add("UNREADABLE " + module + " " + report.getFileName() + ": " + e.getMessage());
                errors++;
                continue;
            }
            NodeList cases = suite.getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element c = (Element) cases.item(i);
                tests++;
                String name = c.getAttribute("classname") + "." + c.getAttribute("name");
                Element failure = child(c, "failure");
                Element error = child(c, "error");
                if (failure != null || error != null) {
                    if (failure != null) {
                        failures++;
                    } else {
                        errors++;
                    }
                    Element f = failure != null ? failure : error;
                    lines.add("FAILED " + module + " " + kind + " " + name + ": " + firstLine(f));
                } else if (child(c, "skipped") != null) {
                    skipped++;
                }
                for (String tag : List.of("flakyFailure", "flakyError", "rerunFailure", "rerunError")) {
                    Element r = child(c, tag);
                    if (r != null) {
                        if (failure == null && error == null) {
                            flaky++;
                            lines.add("FLAKY " + module + " " + kind + " " + name + " (passed on a re-run; first "
                                    + "run: " + firstLine(r) + ")");
                        } else {
                            lines.add("RERUN " + module + " " + kind + " " + name + " (failed on every re-run too)");
                        }
                        break;
                    }
                }
            }
        }
        lines.forEach(System.out::println);
        System.out.printf("SUMMARY tests=%d failures=%d errors=%d skipped=%d flaky=%d reports=%d%n", tests, failures,
                errors, skipped, flaky, reports.size());
    }

    private static boolean isReport(Path p) {
        String name = p.getFileName().toString();
        String dir = p.getParent() == null ? "" : p.getParent().getFileName().toString();
        return name.startsWith("TEST-") && name.endsWith(".xml")
                && (dir.equals("surefire-reports") || dir.equals("failsafe-reports"));
    }

    /** The module directory: the report is MODULE/target/KIND-reports/TEST-x.xml. */
    private static String moduleOf(Path root, Path report) {
        Path target = report.getParent().getParent();
        Path module = target.getParent();
        Path rel = root.toAbsolutePath().normalize().relativize(module.toAbsolutePath().normalize());
        return rel.toString().isEmpty() ? "." : rel.toString();
    }

    private static Element child(Element parent, String tag) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(tag)) {
                return e;
            }
        }
        return null;
    }

    /** The failure's message (or the first line of its stack trace), on one line, at most 300 characters. */
    private static String firstLine(Element f) throws IOException {
        String text = f.getAttribute("message");
        if (text == null || text.isBlank()) {
            text = f.getTextContent() == null ? "" : f.getTextContent().strip();
        }
        String type = f.getAttribute("type");
        String one = text.replaceAll("\\s+", " ").strip();
        if (one.length() > 300) {
            one = one.substring(0, 300) + "...";
        }
        return (type == null || type.isBlank() ? "" : type + ": ") + one;
    }
}
