package io.zkchaos.workloads;

import java.util.Objects;

/**
 * What a generator asks a client to do: a function, the key it is on (null when unkeyed) and its argument. Values
 * are plain data (see {@link io.zkchaos.checkers.history.Op}).
 */
public record Invocation(String f, String key, Object value) {

    public Invocation {
        Objects.requireNonNull(f, "f");
    }
}
