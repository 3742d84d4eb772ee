package io.zkchaos.checkers.codec;

/** An EDN symbol other than nil, true and false; it reaches op values as its plain name. */
record Symbol(String name) {

    @Override
    public String toString() {
        return name;
    }
}
