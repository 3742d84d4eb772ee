package io.zkchaos.fle.node;

/** A node's configuration is unusable; the message names the file, the line where it can, and the problem. */
public final class ConfigException extends Exception {

    public ConfigException(String message) {
        super(message);
    }
}
