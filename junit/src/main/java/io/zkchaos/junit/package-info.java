/**
 * zk-chaos for JUnit 5: a user's own ZooKeeper client code, run as a workload against a real ensemble under a named
 * nemesis, its history checked by a named checker and model, with an HTML report per run.
 *
 * <p>The public API is this package: {@link io.zkchaos.junit.ZkChaos} (the ensemble), {@link io.zkchaos.junit.ChaosTest}
 * (one run: nemesis, time, checkers, model), {@link io.zkchaos.junit.ChaosContext} (what the method's body gets),
 * {@link io.zkchaos.junit.ChaosClient} and {@link io.zkchaos.junit.ChaosProcess} (the client processes),
 * {@link io.zkchaos.junit.ChaosRecorder} and {@link io.zkchaos.junit.PendingOperation} (recording by hand), and
 * {@link io.zkchaos.junit.OperationFailed} (a definite no). Everything under {@code internal} may change.
 */
package io.zkchaos.junit;
