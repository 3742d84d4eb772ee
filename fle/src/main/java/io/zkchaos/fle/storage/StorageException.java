package io.zkchaos.fle.storage;

import java.io.IOException;
import java.io.UncheckedIOException;

/** The data dir cannot be used: the message names the dir and the problem. */
public final class StorageException extends UncheckedIOException {

    public StorageException(String message) {
        super(message, new IOException(message));
    }

    public StorageException(String message, IOException cause) {
        super(message, cause);
    }
}
