package io.zkchaos.nemesis.proxy;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a stated bound passes. */
public final class Eventually {
    private Eventually() {
    }

    public static void eventually(Duration bound, String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not true within " + bound + ": " + what);
            }
            Thread.sleep(10);
        }
    }
}
