package io.zkchaos.checkers.codec;

/**
 * An EDN keyword as read ({@code :write} has name {@code write}). Only the EDN codec sees keywords: values handed to
 * the rest of the system carry the name as a plain string.
 */
record Keyword(String name) {

    @Override
    public String toString() {
        return ":" + name;
    }
}
