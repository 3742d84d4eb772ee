package io.zkchaos.harness.cluster.lazyfs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The lazy file system's mounts as the kernel lists them, and unmounting them. */
public final class Mounts {

    private Mounts() {
    }

    /** Every mount point of type {@link LazyFs#FS_TYPE}, from {@code /proc/self/mountinfo}. */
    public static List<Path> lazyFsMounts() {
        List<Path> out = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of("/proc/self/mountinfo"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return out;
        }
        for (String line : lines) {
            // id parent major:minor root mount-point options [optional fields] - fstype source super-options
            String[] f = line.split(" ");
            int dash = java.util.Arrays.asList(f).indexOf("-");
            if (f.length > 4 && dash > 0 && dash + 1 < f.length && f[dash + 1].equals(LazyFs.FS_TYPE)) {
                out.add(Path.of(unescape(f[4])));
            }
        }
        return out;
    }

    /** Whether {@code mountPoint} is a lazy file system mount now. */
    public static boolean mounted(Path mountPoint) {
        Path p = mountPoint.toAbsolutePath().normalize();
        return lazyFsMounts().contains(p);
    }

    /**
     * Detaches the mount at {@code mountPoint} at once, even when its program is gone or busy
     * ({@code fusermount3 -u -z}, else {@code umount -l}); a path that is not mounted is left alone.
     *
     * @return whether it is no longer mounted
     */
    public static boolean unmountLazily(Path mountPoint) {
        if (!mounted(mountPoint)) {
            return true;
        }
        LazyFs.Result r = LazyFs.exec(List.of("fusermount3", "-u", "-z", mountPoint.toString()));
        if (r.exit() != 0 && mounted(mountPoint)) {
            LazyFs.exec(List.of("umount", "-l", mountPoint.toString()));
        }
        return !mounted(mountPoint);
    }

    /** mountinfo escapes space, tab, newline and backslash as octal. */
    static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length()) {
                try {
                    b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                    i += 3;
                    continue;
                } catch (NumberFormatException e) {
                    // not an escape
                }
            }
            b.append(c);
        }
        return b.toString();
    }
}
