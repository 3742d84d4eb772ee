package io.zkchaos.harness.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zkchaos.checkers.CheckResult;
import io.zkchaos.checkers.Checker;
import io.zkchaos.checkers.CheckerCatalog;
import io.zkchaos.checkers.CheckerDescriptor;
import io.zkchaos.checkers.CheckerOption;
import io.zkchaos.checkers.Validity;
import io.zkchaos.checkers.codec.HistoryFiles;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code zkchaos check} run in-process on the shared data: exit statuses, output shapes, error messages. */
class CheckCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** Output of one run. */
    record Run(int exit, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }
    }

    static String data(String relative) {
        Path root = Path.of(System.getProperty("zkchaos.repo.root")).resolve("../shared/data").normalize();
        return root.resolve(relative).toString();
    }

    static Run run(CheckerCatalog registry, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.commandLine(registry, new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    static Run run(String... args) {
        return run(CheckerCatalog.standard(), args);
    }

    @Test
    void validHistoriesExitZeroWithOneLinePerFile() {
        String a = data("knossos/cas-register/good/memstress3-0.edn");
        String b = data("knossos/cas-register/good/cas-register-bug.edn");
        Run r = run("check", "--model", "cas-register", "--init", "0", a, b);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.lines()).hasSize(2);
        assertThat(r.lines().get(0)).matches(java.util.regex.Pattern.quote(a)
                + ": valid \\(317 operations, 634 entries; read in \\d+ ms, checked in \\d+ ms\\)");
        assertThat(r.lines().get(1)).startsWith(b + ": valid (");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void anInvalidHistoryExitsOneAndSaysWhy() {
        String good = data("knossos/cas-register/good/cas-register-bug.edn");
        String bad = data("knossos/cas-register/bad/rethink-fail-minimal.edn");
        Run r = run("check", "--model", "cas-register", "--init", "0", good, bad);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.lines().get(0)).startsWith(good + ": valid (");
        assertThat(r.lines().get(1)).startsWith(bad + ": INVALID (4 operations, 8 entries; read in ")
                .contains("cannot be linearized");
    }

    @Test
    void aCheckThatRunsOutOfTimeIsUnknownAndExitsThree() {
        String big = data("porcupine-kv/c50-ok.txt");
        Run r = run("check", "--model", "kv", "--time-limit", "1ms", big);
        assertThat(r.exit()).as(r.out()).isEqualTo(3);
        assertThat(r.out()).startsWith(big + ": UNKNOWN (1712 operations, 3424 entries; ").contains("time limit");
    }

    @Test
    void invalidBeatsUnknown() {
        Run r = run("check", "--model", "kv", "--time-limit", "1ms", data("porcupine-kv/c50-ok.txt"),
                data("porcupine-kv/c01-bad.txt"));
        assertThat(r.exit()).isEqualTo(1);
    }

    @Test
    void jsonModePrintsOneObjectPerFileWithTheNameAsGiven() throws IOException {
        String good = data("porcupine-kv/c01-ok.txt");
        // A name with "./" in it must come back exactly as typed, not normalised.
        Path copy = dir.resolve("bad.txt");
        Files.copy(Path.of(data("porcupine-kv/c01-bad.txt")), copy);
        String bad = dir + "/./bad.txt";
        Run r = run("check", "--model", "kv", "--json", good, bad);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.lines()).hasSize(2);
        JsonNode first = JSON.readTree(r.lines().get(0));
        assertThat(first.get("file").textValue()).isEqualTo(good);
        assertThat(first.get("valid").isBoolean() && first.get("valid").booleanValue()).isTrue();
        // operations are paired invocations, entries the history's lines
        assertThat(first.get("operations").intValue()).isEqualTo(58);
        assertThat(first.get("entries").intValue()).isEqualTo(116);
        assertThat(first.get("readMillis").isIntegralNumber()).isTrue();
        assertThat(first.get("checkMillis").isIntegralNumber()).isTrue();
        assertThat(first.has("ops")).isFalse();
        assertThat(first.get("summary").textValue()).contains("linearizable");
        assertThat(first.get("details").get("model").textValue()).isEqualTo("kv");
        assertThat(first.get("details").get("kind").textValue()).isEqualTo("linearizability");
        JsonNode second = JSON.readTree(r.lines().get(1));
        assertThat(second.get("file").textValue()).isEqualTo(bad);
        assertThat(second.get("valid").isBoolean() && !second.get("valid").booleanValue()).isTrue();
        assertThat(second.get("details").get("counterexample").isObject()).isTrue();

        Run unknown = run("check", "--model", "kv", "--json", "--time-limit", "1ms",
                data("porcupine-kv/c50-ok.txt"));
        assertThat(JSON.readTree(unknown.out()).get("valid").textValue()).isEqualTo("unknown");
    }

    @Test
    void anUnreadableFileExitsTwoNamingFileLineAndProblemAndTheOthersAreStillChecked() throws IOException {
        Path broken = dir.resolve("broken.edn");
        Files.writeString(broken, "[{:process 0, :type :invoke, :f :read, :value nil}\n"
                + " {:process 0, :type :bogus, :f :read, :value 1}]\n");
        String good = data("knossos/cas-register/good/cas-register-bug.edn");
        String bad = data("knossos/cas-register/bad/rethink-fail-minimal.edn");
        Run r = run("check", "--model", "cas-register", broken.toString(), good, bad);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("error: " + broken + " line 2: :type :bogus is not one of :invoke, :ok,"
                + " :fail, :info" + System.lineSeparator());
        assertThat(r.lines()).hasSize(2);
        assertThat(r.lines().get(1)).startsWith(bad + ": INVALID");

        Run json = run("check", "--model", "cas-register", "--json", broken.toString(), dir + "/missing.jsonl");
        assertThat(json.exit()).isEqualTo(2);
        JsonNode first = JSON.readTree(json.lines().get(0));
        assertThat(first.get("file").textValue()).isEqualTo(broken.toString());
        assertThat(first.get("error").textValue()).contains("line 2: :type :bogus");
        assertThat(JSON.readTree(json.lines().get(1)).get("error").textValue())
                .isEqualTo(dir + "/missing.jsonl: no such file");
    }

    @Test
    void aCutOffJsonLinesTailIsAnErrorUnlessTolerated() throws IOException {
        Path file = dir.resolve("killed.jsonl");
        Files.writeString(file, "{\"process\":0,\"type\":\"invoke\",\"f\":\"write\",\"value\":1}\n"
                + "{\"process\":0,\"type\":\"ok\",\"f\":\"write\",\"value\":1}\n{\"process\":1,\"type\":\"inv");
        Run strict = run("check", "--model", "register", file.toString());
        assertThat(strict.exit()).isEqualTo(2);
        assertThat(strict.err()).contains(file + " line 3 column").contains("the last line is cut off");
        Run tolerant = run("check", "--model", "register", "--tolerate-truncated-tail", file.toString());
        assertThat(tolerant.exit()).as(tolerant.err()).isZero();
        assertThat(tolerant.err()).startsWith("warning: " + file + " line 3: ignored: the last line is cut off");
        assertThat(tolerant.out()).startsWith(file + ": valid (1 operation, 2 entries; ");
    }

    @Test
    void theInitialValueIsAnEdnLiteral() {
        String multi = data("knossos/multi-register/good/multi-register.edn");
        Run r = run("check", "--model", "multi-register", "--init", "{:x 0 :y 0}", multi);
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        // With nil as the start, the first read of x = 0 cannot be explained.
        Run wrong = run("check", "--model", "cas-register", "--init", "nil",
                data("knossos/cas-register/bad/rethink-fail-minimal.edn"));
        assertThat(wrong.exit()).isEqualTo(1);
    }

    /** Writes a history file (JSON Lines) from ops given as (process, type, f, key, value, error, ms). */
    private Path history(String name, List<Op> ops) {
        Path file = dir.resolve(name);
        HistoryFiles.write(file, History.of(ops));
        return file;
    }

    /** Ops in order, indexes assigned as they are added, times in milliseconds. */
    private static final class Ops {
        final List<Op> list = new ArrayList<>();

        Ops add(int process, OpType type, String f, String key, Object value, long ms) {
            list.add(new Op(list.size(), process, type, f, key, value, null, ms * 1_000_000L));
            return this;
        }

        Ops nemesis(String f, long startMs, long endMs) {
            list.add(new Op(list.size(), Op.NEMESIS, OpType.INVOKE, f, null, null, null, startMs * 1_000_000L));
            list.add(new Op(list.size(), Op.NEMESIS, OpType.INFO, f, null, f + " done", null, endMs * 1_000_000L));
            return this;
        }
    }

    @Test
    void zkReadModelTakesTheInitialValueFromInit() {
        // A session reads 0 before anything was written, then (with sync) the 1 written meanwhile: fine for a
        // register that starts at 0, a read of a value never written for one that starts at nil.
        String file = history("reads.jsonl", new Ops()
                .add(1, OpType.INVOKE, "read", "x", null, 0).add(1, OpType.OK, "read", "x", 0L, 1)
                .add(2, OpType.INVOKE, "write", "x", 1L, 2).add(2, OpType.OK, "write", "x", null, 3)
                .add(1, OpType.INVOKE, "sync-read", "x", null, 4).add(1, OpType.OK, "sync-read", "x", 1L, 5)
                .list).toString();
        Run withInit = run("check", "--checker", "zk-read-model", "--init", "0", file);
        assertThat(withInit.exit()).as(withInit.out() + withInit.err()).isZero();
        assertThat(withInit.out()).startsWith(file + ": valid (3 operations, 6 entries; ");
        Run withoutInit = run("check", "--checker", "zk-read-model", file);
        assertThat(withoutInit.exit()).as(withoutInit.out() + withoutInit.err()).isEqualTo(1);
        assertThat(withoutInit.out()).startsWith(file + ": INVALID (3 operations, 6 entries; ").contains("process 1 read 0 from key x");
    }

    @Test
    void zkReadModelStopsAtTheTimeLimitAndSaysSo() {
        // 14 writes at once, then a sync-read of the initial 0: no order of the writes explains it, and the search
        // must try every one of them (with memoisation, about 14 x 2^13 configurations, a few hundred milliseconds)
        // before it can say so. With a 1 ms budget it says it ran out of time instead.
        Ops ops = new Ops();
        for (int p = 0; p < 14; p++) {
            ops.add(p, OpType.INVOKE, "write", "x", p + 1L, p);
        }
        for (int p = 0; p < 14; p++) {
            ops.add(p, OpType.OK, "write", "x", null, 20 + p);
        }
        ops.add(99, OpType.INVOKE, "sync-read", "x", null, 40).add(99, OpType.OK, "sync-read", "x", 0L, 41);
        String file = history("concurrent.jsonl", ops.list).toString();
        Run limited = run("check", "--checker", "zk-read-model", "--init", "0", "--time-limit", "1ms", file);
        assertThat(limited.exit()).as(limited.out() + limited.err()).isEqualTo(3);
        assertThat(limited.out()).startsWith(file + ": UNKNOWN (15 operations, 30 entries; ").contains("the time limit of 1 ms reached");
        Run decided = run("check", "--checker", "zk-read-model", "--init", "0", "--time-limit", "2m", file);
        assertThat(decided.exit()).as(decided.out() + decided.err()).isEqualTo(1);
        assertThat(decided.out()).startsWith(file + ": INVALID (15 operations, 30 entries; ").contains("process 99's read[x] -> 0")
                .contains("cannot be linearized");
    }

    @Test
    void singleLeaderTakesMaxOverlapAndFailoverBound() {
        // docs/single-leader.md's paused leader: n2 leads while n1 still believes it does, for 700 ms; then a heal with
        // no leader after it until the history ends 4.9 s later.
        String paused = history("paused.jsonl", new Ops()
                .add(1, OpType.INVOKE, "acquire", null, null, 0).add(2, OpType.INVOKE, "acquire", null, null, 1)
                .add(1, OpType.OK, "acquire", null, Map.of("token", 1L, "czxid", 101L, "node", "n1"), 10)
                .nemesis("pause", 100, 101)
                .add(2, OpType.OK, "acquire", null, Map.of("token", 2L, "czxid", 102L, "node", "n2"), 200)
                .nemesis("heal", 850, 860)
                .add(1, OpType.INVOKE, "release", null, Map.of("token", 1L, "reason", "session-expired"), 900)
                .add(1, OpType.OK, "release", null, null, 901)
                .list).toString();
        Run reported = run("check", "--checker", "single-leader", paused);
        assertThat(reported.exit()).as(reported.out() + reported.err()).isZero();
        Run failed = run("check", "--checker", "single-leader", "--max-overlap", "500ms", paused);
        assertThat(failed.exit()).as(failed.out() + failed.err()).isEqualTo(1);
        assertThat(failed.out()).contains("overlapped for 700.0 ms, more than max-overlap 500.0 ms");

        String noLeader = history("no-leader.jsonl", new Ops()
                .add(1, OpType.INVOKE, "acquire", null, null, 0)
                .add(1, OpType.OK, "acquire", null, Map.of("token", 1L, "node", "n1"), 10)
                .nemesis("kill", 50, 51)
                .add(1, OpType.INVOKE, "release", null, Map.of("token", 1L, "reason", "disconnected"), 60)
                .add(1, OpType.OK, "release", null, null, 61)
                .nemesis("heal", 100, 110)
                .add(2, OpType.INVOKE, "acquire", null, null, 200).add(2, OpType.INFO, "acquire", null, null, 5_000)
                .list).toString();
        Run undecided = run("check", "--checker", "single-leader", noLeader);
        assertThat(undecided.exit()).as("the default bound (30 s) had not elapsed: %s", undecided.out())
                .isEqualTo(3);
        Run bounded = run("check", "--checker", "single-leader", "--failover-bound", "1s", noLeader);
        assertThat(bounded.exit()).as(bounded.out() + bounded.err()).isEqualTo(1);
        assertThat(bounded.out()).contains("no leader within 1.000 s of the heal at index 7");
    }

    @Test
    void badUsageExitsTwoWithAClearMessage() {
        String file = data("porcupine-kv/c01-ok.txt");
        assertUsage(run("check", "--model", "nosuch", file),
                "error: unknown model 'nosuch'; known models: register, cas-register, kv, multi-register, mutex, set");
        assertUsage(run("check", "--model", "kv", "--frobnicate", file), "error: Unknown option: '--frobnicate'");
        assertUsage(run("check", "--model", "kv", "--time-limit", "10x", file),
                "error: Invalid value for option '--time-limit': '10x' is not a duration; use e.g. 500ms, 10s, 2m,"
                        + " 1h");
        assertUsage(run("check", "--model", "kv", "--time-limit", "0s", file),
                "error: Invalid value for option '--time-limit': '0s' is not a positive duration");
        assertUsage(run("check", "--model", "register", "--init", "{:x", file),
                "error: Invalid value for option '--init': EDN literal '{:x' line 1 column 4: unexpected end of file:"
                        + " the map opened at line 1 column 1 is never closed");
        assertUsage(run("check", "--model", "kv"), "error: Missing required parameter: 'FILE'");
        assertUsage(run("check", file), "error: the linearizable checker needs --model; known models: register,");
        assertUsage(run("check", "--checker", "psychic", "--model", "kv", file),
                "error: unknown checker 'psychic'; known checkers: linearizable");
        assertUsage(run(), "error: missing command: use one of check");
        assertUsage(run("frob"), "error: Unmatched argument at index 0: 'frob'");
    }

    private static void assertUsage(Run r, String message) {
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).startsWith(message).contains("--help' for usage.");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void helpListsTheOptionsAndExitStatuses() {
        Run r = run("check", "--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("--model", "--init", "--time-limit", "--json", "--checker",
                "Exit status:", "  1  some history is invalid", "  3  none is invalid but some verdict is unknown");
    }

    @Test
    void otherCheckersPlugInByName() {
        List<History> seen = new ArrayList<>();
        CheckerCatalog registry = CheckerCatalog.standard()
                .with(new CheckerDescriptor("counting", "counts ops", EnumSet.of(CheckerOption.TIME_LIMIT),
                        options -> new Checker() {
                    @Override
                    public String name() {
                        return "counting";
                    }

                    @Override
                    public CheckResult check(History history) {
                        seen.add(history);
                        return CheckResult.of("counting", Validity.UNKNOWN, "counted " + history.size()
                                + " ops with time limit " + options.timeLimit(), null);
                    }
                }))
                .with(new CheckerDescriptor("broken", "throws", EnumSet.noneOf(CheckerOption.class),
                        options -> new Checker() {
                    @Override
                    public String name() {
                        return "broken";
                    }

                    @Override
                    public CheckResult check(History history) {
                        throw new IllegalStateException("boom");
                    }
                }));
        String file = data("porcupine-kv/c01-ok.txt");
        Run r = run(registry, "check", "--checker", "counting", "--time-limit", "2m", file);
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.out()).matches(java.util.regex.Pattern.quote(file) + ": UNKNOWN \\(58 operations, 116 entries;"
                + " read in \\d+ ms, checked in \\d+ ms\\): counted 116 ops with time limit PT2M\\R");
        assertThat(seen).hasSize(1);
        // A checker that throws is an unknown verdict with the error, not a crash of the command.
        Run broken = run(registry, "check", "--checker", "broken", "--json", file);
        assertThat(broken.exit()).isEqualTo(3);
        assertThat(broken.out()).contains("\"valid\":\"unknown\"", "checker failed with IllegalStateException: boom");
    }

    /**
     * Issue 35: a history whose every operation failed or timed out tested nothing. It is linearizable (the search
     * says valid, and said so before as the command's verdict); the command now says unknown, as a run would.
     */
    @Test
    void aHistoryWithNothingAcknowledgedIsUnknown() {
        Path file = dir.resolve("nothing-acked.jsonl");
        HistoryFiles.write(file, History.of(List.of(
                new Op(0, 0, OpType.INVOKE, "write", "x", 1L, null, 1_000_000L),
                new Op(1, 1, OpType.INVOKE, "read", "x", null, null, 2_000_000L),
                new Op(2, 0, OpType.FAIL, "write", "x", null, "connection refused", 3_000_000L),
                new Op(3, 1, OpType.INFO, "read", "x", null, "timeout", 4_000_000L),
                new Op(4, 1_000_000, OpType.INVOKE, "read", null, null, null, 5_000_000L),
                new Op(5, 1_000_000, OpType.OK, "read", null, List.of(), null, 6_000_000L))));
        Run r = run("check", "--model", "register", file.toString());
        assertThat(r.exit()).as(r.out() + r.err()).isEqualTo(3);
        assertThat(r.out()).startsWith(file + ": UNKNOWN (").contains("no client operation was acknowledged: "
                + "nothing was tested (2 operations, none ok)");
    }
}
