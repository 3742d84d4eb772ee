package io.zkchaos.nemesis.proxy;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a stated bound passes. */
final class Eventually {
    private Eventually() {
    }

    static void eventually(Duration bound, String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not true within " + bound + ": " + what);
            }
            Thread.sleep(10);
        }
    }
}
