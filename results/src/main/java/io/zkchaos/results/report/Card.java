package io.zkchaos.results.report;

import io.zkchaos.checkers.Findings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * How the page draws one kind of {@link Findings}: its facts, its findings in words with the entries they name, and
 * the tables its kind needs, written into the card being built. The kinds' cards are listed in
 * {@link Cards#REGISTRY}, keyed by the findings record's type.
 *
 * @param type the findings record
 * @param draw writes the record onto the card
 * @param <F>  the findings record
 */
record Card<F extends Findings>(Class<F> type, BiConsumer<F, Cards.Builder> draw) {

    /** The card of {@code type}. */
    static <F extends Findings> Card<F> of(Class<F> type, BiConsumer<F, Cards.Builder> draw) {
        return new Card<>(type, draw);
    }

    /** Draws {@code findings}, which must be of this card's type. */
    void drawAny(Findings findings, Cards.Builder card) {
        draw.accept(type.cast(findings), card);
    }

    /**
     * The cards by type, unmodifiable.
     *
     * @throws IllegalArgumentException when two cards are for one type
     */
    static Map<Class<? extends Findings>, Card<?>> registry(Card<?>... cards) {
        Map<Class<? extends Findings>, Card<?>> byType = new LinkedHashMap<>();
        for (Card<?> card : cards) {
            if (byType.put(card.type(), card) != null) {
                throw new IllegalArgumentException("two cards for " + card.type().getName());
            }
        }
        return java.util.Collections.unmodifiableMap(byType);
    }
}
