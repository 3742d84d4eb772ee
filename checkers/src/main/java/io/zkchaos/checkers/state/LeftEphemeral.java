package io.zkchaos.checkers.state;

/**
 * An ephemeral znode still held by a server after its owner session must have ended.
 *
 * @param node        the server that holds it
 * @param path        the znode
 * @param owner       its owner session, as ZooKeeper prints it ({@code 0x...})
 * @param readIndex   history index of the read that saw it
 * @param nanosAfter  how long after every client session had ended (the first final read) that read began
 * @param explanation one line for people
 */
public record LeftEphemeral(String node, String path, String owner, long readIndex, long nanosAfter,
                            String explanation) {
}
