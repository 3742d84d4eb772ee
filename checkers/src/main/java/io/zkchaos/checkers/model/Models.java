package io.zkchaos.checkers.model;

import java.util.List;

/** The built-in models by name, as the CLI and the test configuration name them. */
public final class Models {

    private static final List<String> NAMES =
            List.of("register", "cas-register", "kv", "multi-register", "mutex", "set");

    private Models() {
    }

    /**
     * The model called {@code name}.
     *
     * @param init the model's initial value: the register value for {@code register} and {@code cas-register}
     *             (null for nil), a map from key to value for {@code multi-register}, a collection of elements for
     *             {@code set}; ignored by {@code kv} (keys start as {@code ""}) and {@code mutex} (starts free)
     * @throws IllegalArgumentException for an unknown name (the message lists the known ones) or an unusable init
     */
    public static Model<?> byName(String name, Object init) {
        if (name == null) {
            throw new IllegalArgumentException("model name is missing; known models: " + String.join(", ", NAMES));
        }
        return switch (name) {
            case "register" -> new RegisterModel(init);
            case "cas-register" -> new CasRegisterModel(init);
            case "kv" -> new KvModel();
            case "multi-register" -> new MultiRegisterModel(init);
            case "mutex" -> new MutexModel();
            case "set" -> new SetModel(init);
            default -> throw new IllegalArgumentException(
                    "unknown model '" + name + "'; known models: " + String.join(", ", NAMES));
        };
    }

    /** The known model names. */
    public static List<String> names() {
        return NAMES;
    }
}
