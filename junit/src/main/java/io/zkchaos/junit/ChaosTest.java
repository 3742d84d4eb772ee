package io.zkchaos.junit;

import io.zkchaos.junit.internal.ZkChaosExtension;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test method whose body is a workload run under a nemesis, then checked. The method takes a {@link ChaosContext}.
 *
 * <p>What happens, in order: a fresh ensemble starts (its shape from the class's {@link ZkChaos}); the nemesis
 * starts its seeded cycle (healed for {@link #healFor}, faulted for {@link #faultFor}, again) for {@link #time};
 * the method body runs meanwhile, its clients recording every operation through the context; at the end of
 * {@link #time} everything is healed and the clients work on for {@link #recover}; the body should return once
 * {@link ChaosContext#running()} turns false ({@link ChaosContext#runClients} does that for you). Then the ensemble
 * stops, the history is checked by {@link #checkers}, the HTML report is written, and the test fails, with the
 * checkers' explanation and the report's path, unless the verdict is valid. An exception thrown by the body is the
 * test's error, as usual; the run is still recorded and reported. A run that tested nothing fails too: a client
 * that could not be opened for {@link #openTimeout}, or a body that recorded no operation, or none that was
 * acknowledged ({@code ok}).
 *
 * <p>Durations are written as people write them: {@code 500ms}, {@code 20s}, {@code 2m}. The system property
 * {@code zkchaos.chaos.time} replaces {@link #time} for every chaos test (a nightly soak stretches them all), and
 * {@code zkchaos.chaos.seed} replaces {@link #seed}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@ExtendWith(ZkChaosExtension.class)
public @interface ChaosTest {

    /**
     * The workload's name in the store and the report ({@code <name>-<nemesis>/<time>/}); empty means the method's
     * name in lower case with dashes ({@code counterIsLinearizable} becomes {@code counter-is-linearizable}).
     */
    String name() default "";

    /**
     * The nemesis: {@code none}, {@code kill-leader}, {@code kill-random}, {@code kill-majority},
     * {@code pause-leader}, {@code pause-random}, {@code isolate-leader}, {@code halves}, {@code random-halves},
     * {@code bridge}, {@code majorities-ring}, {@code client-partition}, {@code slow-network}, {@code mixed}
     * ({@code ./zkchaos scenarios} lists them all).
     */
    String nemesis() default "none";

    /**
     * Up to how many faults, each of another family (network, crash, pause, clock, disk, client), the nemesis holds at
     * once in seeded overlapping windows: 1, the default, is one fault at a time ({@code ./zkchaos run --compose}).
     */
    int compose() default 1;

    /** How long the nemesis acts (the main phase). */
    String time() default "30s";

    /** How long each fault is held; empty means a quarter of {@link #time}. */
    String faultFor() default "";

    /** How long the ensemble is left healed before the first fault and between faults; empty: a fifth of time. */
    String healFor() default "";

    /**
     * After the final heal, how long the clients work on before the run ends (what follows a heal, a new leader,
     * is recorded); empty means the harness's default, 10 s.
     */
    String recover() default "";

    /** How many client processes {@link ChaosContext#runClients} runs at once; 0 means 5. */
    int concurrency() default 0;

    /**
     * The checkers that judge the history, by name: {@code linearizable} (needs {@link #model}),
     * {@code zk-read-model}, {@code single-leader}, {@code no-lost-commit}, {@code fenced-writes}. Verdicts merge
     * invalid, then unknown, then valid.
     */
    String[] checkers() default "linearizable";

    /**
     * The linearizable checker's model: {@code register}, {@code cas-register}, {@code kv}, {@code multi-register},
     * {@code mutex}, {@code set}.
     */
    String model() default "";

    /** The model's initial value as an EDN literal ({@code 0}, {@code nil}, {@code {:x 0}}); empty means nil. */
    String init() default "";

    /** The seed of the nemesis's choices (which fault, which node, when); empty means the current time. */
    String seed() default "";

    /** single-leader: a leader again within this after every heal; empty means the harness's default, 10 s. */
    String failoverBound() default "";

    /** The session timeout clients should ask for ({@link ChaosContext#sessionTimeout()}); empty means 4 s. */
    String sessionTimeout() default "";

    /**
     * How long a process of {@link ChaosContext#runClients} may go on failing to open its client (every
     * {@link ChaosClient.Factory#open} throwing) before the test fails with the last error as its cause; empty means
     * the larger of 30 s and the nemesis's fault hold plus three session timeouts. A correct client may be unable to
     * open while a fault takes the quorum away (a session is created by a quorum write), and needs a few session
     * timeouts after the heal (a restarted server, an election, the client's own connect back-off); 30 s is what the
     * harness gives its own first connect on a loaded machine.
     */
    String openTimeout() default "";

    /**
     * Whether an {@code unknown} verdict (the checkers could not decide, or the run did not exercise what the
     * checkers need) fails the test too; true by default. A body whose clients could not open, or that recorded no
     * acknowledged operation, fails the test whatever this says.
     */
    boolean failOnUnknown() default true;
}
