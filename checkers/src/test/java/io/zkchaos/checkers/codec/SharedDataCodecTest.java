package io.zkchaos.checkers.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import io.zkchaos.checkers.history.Operation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Both readers and writers over every published history in the shared data. */
class SharedDataCodecTest {

    private static final Pattern TYPE_FIELD = Pattern.compile(":type\\s+:");

    static Stream<Path> histories() {
        return SharedData.histories().stream();
    }

    @Test
    void theSharedDataIsThere() {
        // 113 + 7 + 1 + 1 knossos files and 6 porcupine files, per the data's README.
        assertThat(SharedData.histories()).hasSize(128);
    }

    @ParameterizedTest
    @MethodSource("histories")
    void readsEveryOpOfEveryPublishedHistory(Path file) throws IOException {
        History history = HistoryFiles.read(file);
        String text = Files.readString(file);
        Matcher m = TYPE_FIELD.matcher(text);
        long maps = m.results().count();
        assertThat(history.size()).as("ops in %s", file).isEqualTo(maps).isPositive();
        for (Op op : history.ops()) {
            assertThat(op.f()).isNotBlank();
            assertThat(op.value() == null || op.value() instanceof Long || op.value() instanceof String
                    || op.value() instanceof List).as("plain value %s", op.value()).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("histories")
    void roundTripsThroughJsonLinesAndEdn(Path file, @TempDir Path dir) {
        History original = HistoryFiles.read(file);

        Path jsonl = dir.resolve("history.jsonl");
        HistoryFiles.write(jsonl, original);
        History fromJson = HistoryFiles.read(jsonl);
        assertThat(fromJson.ops()).isEqualTo(original.ops());

        Path edn = dir.resolve("history.edn");
        HistoryFiles.write(edn, fromJson);
        History fromEdn = HistoryFiles.read(edn);
        assertThat(fromEdn.ops()).isEqualTo(original.ops());
        assertThat(fromEdn.operations()).isEqualTo(original.operations());
    }

    @Test
    void mapsJepsenFieldsOntoOps() {
        History failure = HistoryFiles.read(SharedData.file("knossos/cas-register/bad/immediate-failure.edn"));
        Op fail = failure.ops().get(2);
        assertThat(fail).isEqualTo(new Op(2, 101, OpType.FAIL, "write", null, 3L,
                "[:temporarily-unavailable nil]", -1));

        History cas = HistoryFiles.read(SharedData.file("knossos/cas-register/bad/cas-failure.edn"));
        assertThat(cas.ops().get(8).value()).isEqualTo(List.of(2L, 1L));
        assertThat(cas.nemesisOps()).isNotEmpty();
        assertThat(cas.nemesisOps().get(0).process()).isEqualTo(Op.NEMESIS);

        History etcd = HistoryFiles.read(SharedData.file("knossos/mutex/bad/etcd.edn"));
        Op notHeld = etcd.ops().get(1);
        assertThat(notHeld.error()).isEqualTo("not-held");
        assertThat(notHeld.time()).isEqualTo(342667129L);
        assertThat(etcd.ops().get(1134).error()).isEqualTo("[:not-found \"etcdserver: requested lease not found\"]");

        History multi = HistoryFiles.read(SharedData.file("knossos/multi-register/good/multi-register.edn"));
        Operation first = multi.operations().get(0);
        assertThat(first.input()).isEqualTo(List.of(java.util.Arrays.asList("read", "x", null)));
        assertThat(first.output()).isEqualTo(List.of(List.of("read", "x", 0L)));
        assertThat(first.invokeTime()).isEqualTo(7686455705L);

        History kv = HistoryFiles.read(SharedData.file("porcupine-kv/c01-ok.txt"));
        assertThat(kv.ops().get(0)).isEqualTo(new Op(0, 0, OpType.INVOKE, "append", "0", "x 0 0 y", null, -1));
        assertThat(kv.ops().get(8).f()).isEqualTo("get");
        assertThat(kv.ops().get(8).value()).isNull();
    }
}
