package io.zkchaos.junit;

import io.zkchaos.junit.internal.ZkChaosExtension;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The ensemble a test class's {@link ChaosTest}s run against, in the spirit of Testcontainers'
 * {@code @Testcontainers}: each chaos test gets a fresh ensemble of this shape, started before its method runs and
 * stopped (every server process, proxy and session gone) before its verdict is given. Optional: without it a chaos
 * test runs on the harness's defaults (3 nodes, ZooKeeper 3.9.5, the {@code local} backend, store
 * {@code target/zkchaos}).
 *
 * <pre>{@code
 * @ZkChaos(nodes = 3, zookeeper = "3.9.5")
 * class CounterChaosIT {
 *     @ChaosTest(nemesis = "kill-leader", time = "20s", model = "cas-register", init = "0")
 *     void counterIsLinearizable(ChaosContext chaos) throws Exception {
 *         chaos.runClients(process -> new CounterClient(chaos.connectString(), chaos.sessionTimeout()));
 *     }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ZkChaosExtension.class)
public @interface ZkChaos {

    /** Ensemble size: 3 or 5 (1 for a smoke test with no network faults); 0 means the harness's default, 3. */
    int nodes() default 0;

    /** The ZooKeeper release the servers run, resolved from Maven Central; empty means the default, 3.9.5. */
    String zookeeper() default "";

    /**
     * What runs the servers: {@code local} (one JVM process per server on its own loopback address, every link
     * through the fault proxy) or {@code docker} (containers behind a Toxiproxy; needs an engine); empty means
     * {@code local}.
     */
    String backend() default "";

    /**
     * Where run directories (history, logs, results, the HTML report) go, relative to the working directory (the
     * module's directory under Maven); empty means {@code target/zkchaos}. The system property
     * {@code zkchaos.store} overrides it.
     */
    String store() default "";
}
