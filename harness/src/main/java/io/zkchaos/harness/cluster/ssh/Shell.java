package io.zkchaos.harness.cluster.ssh;

import java.util.List;
import java.util.stream.Collectors;

/** Words for a POSIX shell on a host: every command the ssh backend sends is built from quoted words. */
final class Shell {

    private Shell() {
    }

    /** {@code word} as one shell word: in single quotes, a single quote inside written as {@code '\''}. */
    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** Every word quoted, joined by spaces: a command line the shell splits back into exactly these words. */
    static String command(List<String> words) {
        return words.stream().map(Shell::quote).collect(Collectors.joining(" "));
    }
}
