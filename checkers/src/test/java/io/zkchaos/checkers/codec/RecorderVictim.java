package io.zkchaos.checkers.codec;

import io.zkchaos.checkers.history.Op;
import io.zkchaos.checkers.history.OpType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A child process for {@link JsonLinesRecorderTest}: records from four threads into the file named by its argument
 * until it is killed, or gives up by itself after 60 s so that it can never be left behind.
 */
public final class RecorderVictim {

    private RecorderVictim() {
    }

    public static void main(String[] args) throws InterruptedException {
        JsonLinesRecorder recorder = JsonLinesRecorder.create(Path.of(args[0]));
        long deadline = System.nanoTime() + 60_000_000_000L;
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            int process = t;
            threads[t] = new Thread(() -> {
                // Long values on purpose, so each line takes more than one small write to produce.
                String big = "v".repeat(3000);
                for (long i = 0; System.nanoTime() < deadline; i++) {
                    Op invoke = recorder.invoke(process, "write", "k" + (i % 7), Map.of("n", i, "pad", big));
                    recorder.complete(invoke, OpType.OK, List.of(i, "ok"), null);
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        recorder.close();
    }
}
