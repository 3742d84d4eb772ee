package io.zkchaos.workloads.fenced;

import static org.assertj.core.api.Assertions.assertThat;

import io.zkchaos.checkers.history.OpType;
import io.zkchaos.workloads.Result;
import io.zkchaos.workloads.Sessions;
import io.zkchaos.workloads.SharedEnsemble;
import io.zkchaos.workloads.Target;
import io.zkchaos.workloads.Znodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class FencedStoreIT {

    @RegisterExtension
    static final SharedEnsemble ensemble = new SharedEnsemble(3);
    private static Target target;

    @BeforeAll
    static void start() {
        target = ensemble.get().target(Duration.ofSeconds(10), Duration.ofSeconds(5));
    }

    @Test
    void aLowerTokenIsRejectedAndEqualOrHigherTokensAreAppendedInOrder() throws Exception {
        FencedStore store = new FencedStore("/it/fs/a");
        try (ZooKeeper zk = Sessions.open(target.connectString(), target, null)) {
            Znodes.deleteRecursive(zk, store.path());
            Znodes.ensurePath(zk, store.path());
            assertThat(store.append(zk, 5, 1).type()).isEqualTo(OpType.OK);
            Result stale = store.append(zk, 3, 2);
            assertThat(stale.type()).isEqualTo(OpType.FAIL);
            assertThat(stale.error()).isEqualTo("stale token 3 < 5");
            assertThat(store.append(zk, 5, 3).type()).isEqualTo(OpType.OK);
            assertThat(store.append(zk, 7, 4).type()).isEqualTo(OpType.OK);
            assertThat(store.append(zk, 6, 5).type()).isEqualTo(OpType.FAIL);
            assertThat(store.read(zk)).containsExactly(new FencedStore.Entry(5, 1), new FencedStore.Entry(5, 3),
                    new FencedStore.Entry(7, 4));
        }
    }

    @Test
    void theUnfencedStoreTakesALowerTokenAfterAHigherOne() throws Exception {
        FencedStore store = FencedStore.unfenced("/it/fs/unfenced");
        assertThat(store.fenced()).isFalse();
        try (ZooKeeper zk = Sessions.open(target.connectString(), target, null)) {
            Znodes.deleteRecursive(zk, store.path());
            Znodes.ensurePath(zk, store.path());
            assertThat(store.append(zk, 5, 1).type()).isEqualTo(OpType.OK);
            assertThat(store.append(zk, 3, 2).type()).as("a stale token, taken").isEqualTo(OpType.OK);
            assertThat(store.read(zk)).containsExactly(new FencedStore.Entry(5, 1), new FencedStore.Entry(3, 2));
        }
    }

    @Test
    void concurrentAppendersLoseNothingThanksToTheVersionedWrite() throws Exception {
        FencedStore store = new FencedStore("/it/fs/b");
        List<ZooKeeper> sessions = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int i = 0; i < 4; i++) {
                sessions.add(Sessions.open(target.connectString(), target, null));
            }
            Znodes.deleteRecursive(sessions.get(0), store.path());
            Znodes.ensurePath(sessions.get(0), store.path());
            List<Future<List<Result>>> futures = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                ZooKeeper zk = sessions.get(i);
                int writer = i;
                futures.add(pool.submit(() -> {
                    List<Result> results = new ArrayList<>();
                    for (int k = 0; k < 10; k++) {
                        results.add(store.append(zk, 1, writer * 100L + k)); // same token: all must be accepted
                    }
                    return results;
                }));
            }
            int ok = 0;
            for (Future<List<Result>> f : futures) {
                for (Result r : f.get()) {
                    assertThat(r.type()).as("%s", r).isEqualTo(OpType.OK);
                    ok++;
                }
            }
            // The reader's server may not have applied the last writes, acknowledged through other servers, yet
            // (ZooKeeper's plain reads may be stale): sync first, as the workload's final read does.
            sessions.get(0).sync(store.path());
            assertThat(store.read(sessions.get(0))).hasSize(ok);
        } finally {
            pool.shutdownNow();
            sessions.forEach(Sessions::closeQuietly);
        }
    }
}
