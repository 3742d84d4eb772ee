package io.zkchaos.fle.client;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A command-line client, for trying a node by hand:
 * <pre>
 * java -cp ... io.zkchaos.fle.client.FleClientMain HOST:PORT status | get KEY | sync-get KEY | put KEY VALUE
 *                                                              | cas KEY EXPECTED|- VALUE | read-log
 * </pre>
 * Exit status: 0 done, 1 rejected (certainly not done), 3 indeterminate, 2 a usage error.
 */
public final class FleClientMain {

    private FleClientMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] a) {
        if (a.length < 2) {
            return usage("missing arguments");
        }
        int colon = a[0].lastIndexOf(':');
        if (colon <= 0) {
            return usage("the node must be HOST:PORT, not '" + a[0] + "'");
        }
        InetSocketAddress node;
        try {
            node = new InetSocketAddress(a[0].substring(0, colon), Integer.parseInt(a[0].substring(colon + 1)));
        } catch (IllegalArgumentException e) {
            return usage("the node must be HOST:PORT, not '" + a[0] + "'");
        }
        try (FleClient c = new FleClient(node, Duration.ofSeconds(5))) {
            switch (a[1]) {
                case "status" -> System.out.println(c.status());
                case "get" -> System.out.println(c.get(arg(a, 2)));
                case "sync-get" -> System.out.println(c.syncGet(arg(a, 2)));
                case "put" -> System.out.println("ok at zxid 0x" + Long.toHexString(c.put(arg(a, 2), arg(a, 3))));
                case "cas" -> {
                    String expected = arg(a, 3).equals("-") ? null : a[3];
                    System.out.println("ok at zxid 0x" + Long.toHexString(c.cas(arg(a, 2), expected, arg(a, 4))));
                }
                case "read-log" -> c.readLog().forEach(System.out::println);
                default -> {
                    return usage("unknown operation '" + a[1] + "'");
                }
            }
            return 0;
        } catch (IllegalArgumentException e) {
            return usage(e.getMessage());
        } catch (RejectedException e) {
            System.err.println("rejected: " + e.getMessage());
            return 1;
        } catch (IndeterminateException e) {
            System.err.println("indeterminate: " + e.getMessage());
            return 3;
        } catch (FleException e) {
            System.err.println(e.getMessage());
            return 1;
        }
    }

    private static String arg(String[] a, int i) {
        if (i >= a.length) {
            throw new IllegalArgumentException("operation '" + a[1] + "' needs more arguments");
        }
        return a[i];
    }

    private static int usage(String problem) {
        System.err.println("fle client: " + problem);
        System.err.println("usage: FleClientMain HOST:PORT status | get KEY | sync-get KEY | put KEY VALUE"
                + " | cas KEY EXPECTED|- VALUE | read-log");
        return 2;
    }
}
