package io.zkchaos.workloads.gen;

/**
 * The phases of a run, in order, as in Jepsen: clients work while the nemesis acts ({@link #MAIN}); the nemesis
 * heals everything ({@link #HEAL}); the cluster is given time to recover ({@link #RECOVER}); then each server is read
 * directly ({@link #FINAL_READS}).
 */
public enum Phase {
    MAIN, HEAL, RECOVER, FINAL_READS
}
