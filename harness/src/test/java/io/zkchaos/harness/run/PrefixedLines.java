package io.zkchaos.harness.run;

import java.io.IOException;
import java.io.Writer;

/**
 * Writes each line with a prefix, whole lines at once: scenarios running side by side print to one console, and
 * each line must say whose it is.
 */
public final class PrefixedLines extends Writer {

    private final String prefix;
    private final Writer out;
    private final StringBuilder line = new StringBuilder();

    public PrefixedLines(String prefix, Writer out) {
        this.prefix = prefix;
        this.out = out;
    }

    @Override
    public synchronized void write(char[] buf, int off, int len) throws IOException {
        for (int i = off; i < off + len; i++) {
            line.append(buf[i]);
            if (buf[i] == '\n') {
                synchronized (out) {
                    out.write(prefix + line);
                    out.flush();
                }
                line.setLength(0);
            }
        }
    }

    @Override
    public synchronized void flush() throws IOException {
        out.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        if (line.length() > 0) {
            write(new char[] {'\n'}, 0, 1);
        }
        out.flush();
    }
}
