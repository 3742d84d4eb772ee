package io.zkchaos.checkers.model;

/**
 * A read/write register ({@code read}, {@code write}), partitioned by key when operations carry one.
 *
 * <p>As in Knossos, a read that completed with value nil constrains nothing: Jepsen histories record reads whose
 * answer was lost that way. To check that a register really was empty, give it a non-nil initial value.
 */
public final class RegisterModel extends RegisterBase {

    /** @param init the register's value before any operation (null for nil) */
    public RegisterModel(Object init) {
        super("register", init, "read, write");
    }
}
