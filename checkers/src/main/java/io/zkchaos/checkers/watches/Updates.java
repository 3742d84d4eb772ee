package io.zkchaos.checkers.watches;

import io.zkchaos.checkers.Values;
import io.zkchaos.checkers.history.History;
import io.zkchaos.checkers.history.Operation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The writers' changes to the watched znodes ({@code create}, {@code set}, {@code delete}), each with the zxid of its
 * transaction when it is known: from its ok value, or — for one that ended {@code info} — from the {@code resolve}
 * that later learned it landed. A change that failed, or that a resolve proved never landed, is left out; one that
 * ended info and was never resolved is kept as <em>unknown</em>: it may have happened at any time after its invoke.
 */
final class Updates {

    /** What a change did to its znode. */
    enum Change {
        CREATE, SET, DELETE;

        String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One change.
     *
     * @param id          its unique id (the data it wrote, and its writer's clock value)
     * @param path        the znode it changed
     * @param change      create, set or delete
     * @param zxid        its transaction's zxid; -1 when unknown (it ended info and was never resolved)
     * @param invokeIndex where it was invoked
     * @param knownAt     the history index by which it had certainly committed: its ok, or the resolve that found it;
     *                    -1 when unknown
     * @param process     the writer process
     */
    record Update(String id, String path, Change change, long zxid, long invokeIndex, long knownAt, int process) {

        boolean known() {
            return zxid >= 0;
        }

        String parent() {
            return parentOf(path);
        }

        /** {@code set /a/k1 (w0-13, zxid 0x100000012, invoked at index 40, acknowledged at index 45)}. */
        String describe() {
            return change.word() + " " + path + " (" + id + ", zxid " + Zxids.hex(zxid) + ", invoked at index "
                    + invokeIndex + (knownAt < 0 ? ", outcome unknown" : ", committed by index " + knownAt) + ")";
        }
    }

    private final Map<String, List<Update>> own = new HashMap<>();      // path -> its own changes
    private final Map<String, List<Update>> children = new HashMap<>(); // path -> changes of its children
    private final Map<Long, Update> byZxid = new HashMap<>();
    private final List<Update> all = new ArrayList<>();
    private int unknown;

    private Updates() {
    }

    /** The changes in {@code history}. */
    static Updates of(History history) {
        Map<String, long[]> landed = new HashMap<>(); // id -> {zxid, resolve completion index}
        java.util.Set<String> neverLanded = new java.util.HashSet<>();
        List<Operation> writes = new ArrayList<>();
        for (Operation op : history.operations()) {
            switch (op.f()) {
                case "create", "set", "delete" -> {
                    if (op.key() == null) {
                        throw Values.malformed(op, "a change names its znode in the key");
                    }
                    writes.add(op);
                }
                case "resolve" -> {
                    if (!op.isOk()) {
                        continue;
                    }
                    List<?> pending = Values.list(Values.map(op.input(), "a resolve's invoke value", op)
                            .get("pending"), "a resolve's \"pending\"", op);
                    Map<?, ?> out = Values.map(op.output(), "a resolve's result", op);
                    String hit = Values.stringField(out, "landed");
                    for (Object id : pending) {
                        if (String.valueOf(id).equals(hit)) {
                            landed.put(hit, new long[] {Values.longField(out, "zxid", "a resolve's result", op),
                                    op.completeIndex()});
                        } else {
                            neverLanded.add(String.valueOf(id));
                        }
                    }
                }
                default -> {
                }
            }
        }
        Updates u = new Updates();
        for (Operation op : writes) {
            String id = idOf(op);
            Change change = Change.valueOf(op.f().toUpperCase(java.util.Locale.ROOT));
            if (op.isOk()) {
                long zxid = Values.longField(Values.map(op.output(), "a change's result", op), "zxid",
                        "a change's result", op);
                u.add(new Update(id, op.key(), change, zxid, op.invokeIndex(), op.completeIndex(), op.process()));
            } else if (op.isInfo() && landed.containsKey(id)) {
                long[] l = landed.get(id);
                u.add(new Update(id, op.key(), change, l[0], op.invokeIndex(), l[1], op.process()));
            } else if (op.isInfo() && !neverLanded.contains(id)) {
                u.add(new Update(id, op.key(), change, -1, op.invokeIndex(), -1, op.process()));
                u.unknown++;
            }
        }
        Comparator<Update> order = Comparator.comparingLong(x -> x.known() ? x.zxid() : Long.MAX_VALUE);
        u.own.values().forEach(l -> l.sort(order));
        u.children.values().forEach(l -> l.sort(order));
        return u;
    }

    private static String idOf(Operation op) {
        String id = Values.stringField(Values.map(op.input(), "a change's invoke value", op), "id");
        if (id == null) {
            throw Values.malformed(op, "a change's invoke value needs its \"id\"");
        }
        return id;
    }

    private void add(Update update) {
        all.add(update);
        own.computeIfAbsent(update.path(), p -> new ArrayList<>()).add(update);
        if (update.change() != Change.SET) { // a child's data is not its parent's children
            children.computeIfAbsent(update.parent(), p -> new ArrayList<>()).add(update);
        }
        if (update.known()) {
            Update other = byZxid.putIfAbsent(update.zxid(), update);
            if (other != null && !other.path().equals(update.path())) {
                // one transaction changes one watched znode: two changes of one zxid are a malformed history
                throw new io.zkchaos.checkers.history.MalformedHistoryException("changes " + other.id() + " and "
                        + update.id() + " both claim zxid " + Zxids.hex(update.zxid()), update.invokeIndex());
            }
        }
    }

    /** {@code /a/b} for {@code /a/b/c}; {@code /} for {@code /a}. */
    static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    /** Whether {@code path} is {@code ancestor} or below it. */
    static boolean isUnder(String path, String ancestor) {
        return path.equals(ancestor) || path.startsWith(ancestor.equals("/") ? "/" : ancestor + "/");
    }

    /** The change with this zxid, or null. */
    Update withZxid(long zxid) {
        return byZxid.get(zxid);
    }

    /** The changes of {@code path} itself, known ones by zxid, unknown ones after. */
    List<Update> own(String path) {
        return own.getOrDefault(path, List.of());
    }

    /** The creates and deletes of {@code path}'s children, known ones by zxid, unknown ones after. */
    List<Update> childrenOf(String path) {
        return children.getOrDefault(path, List.of());
    }

    /** Every znode some change touched. */
    java.util.Set<String> paths() {
        return own.keySet();
    }

    /** The first known change in {@code list} with a zxid above {@code after} that {@code test} accepts, or null. */
    static Update firstAfter(List<Update> list, long after, Predicate<Update> test) {
        for (Update u : list) {
            if (u.known() && u.zxid() > after && test.test(u)) {
                return u;
            }
        }
        return null;
    }

    /** Every change. */
    List<Update> all() {
        return all;
    }

    /** How many changes ended info and were never resolved. */
    int unknownCount() {
        return unknown;
    }
}
