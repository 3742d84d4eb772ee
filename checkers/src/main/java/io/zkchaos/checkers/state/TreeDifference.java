package io.zkchaos.checkers.state;

import java.util.Map;

/**
 * A znode the servers' final trees do not agree on.
 *
 * @param path        the znode
 * @param byNode      each server's version of it: its fields, or {@code null} when that server does not have it
 * @param explanation one line for people
 */
public record TreeDifference(String path, Map<String, Map<String, Object>> byNode, String explanation) {
}
