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
 * {@code flakyFailure}/{@code flakyError}), then one per skipped test with its reason
 * ({@code SKIPPED module kind Class.method: reason}, from the report's {@code <skipped message=...>}: an assumption's
 * message, or JUnit's "is @Disabled"), and a last line
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
        List<String> skips = new ArrayList<>();
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
            if (cases.getLength() == 0) {
                // JUnit aborted the class before any test (an assumption in @BeforeAll): Surefire writes no test
                // case and no reason, so the class would vanish from every count.
                skipped++;
                skips.add("SKIPPED " + module + " " + kind + " " + suite.getAttribute("name") + ": no test of the "
                        + "class ran and the report gives no reason (an assumption failed in @BeforeAll? gate a class "
                        + "with Prerequisites.forClass, whose skips are reported per test with the reason)");
            }
            for (int i = 0; i < cases.getLength(); i++) {
                Element c = (Element) cases.item(i);
                tests++;
                // a class-level failure (@BeforeAll, an extension) is a test case without a name
                String name = c.getAttribute("classname")
                        + (c.getAttribute("name").isEmpty() ? "" : "." + c.getAttribute("name"));
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
                    String why = message(child(c, "skipped"));
                    skips.add("SKIPPED " + module + " " + kind + " " + name + ": "
                            + (why.isEmpty() ? "(no reason given)" : why));
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
        skips.forEach(System.out::println);
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

    /** The failure's type and message ({@link #message}). */
    private static String firstLine(Element f) {
        String type = f.getAttribute("type");
        return (type.isBlank() ? "" : type + ": ") + message(f);
    }

    /**
     * The message of a failure or skip: its {@code message} attribute, or else the first line of its stack trace
     * without the exception's type; on one line, at most 300 characters; empty when there is neither.
     */
    private static String message(Element f) {
        String text = f.getAttribute("message");
        if (text.isBlank()) {
            String trace = f.getTextContent() == null ? "" : f.getTextContent().strip();
            text = trace.lines().findFirst().orElse("");
            String type = f.getAttribute("type");
            if (!type.isBlank() && text.startsWith(type + ": ")) {
                text = text.substring(type.length() + 2);
            }
        }
        String one = text.replaceAll("\\s+", " ").strip();
        return one.length() > 300 ? one.substring(0, 300) + "..." : one;
    }
}
