package io.zkchaos.harness.cli;

import io.zkchaos.checkers.codec.Edn;
import io.zkchaos.checkers.history.MalformedHistoryException;
import picocli.CommandLine;

/** An option value written as an EDN literal ({@code 0}, {@code nil}, {@code {:x 0 :y 0}}), as plain data. */
public record EdnLiteral(String text, Object value) {

    /** Converts option text; errors name the position in the text. */
    public static final class Converter implements CommandLine.ITypeConverter<EdnLiteral> {
        @Override
        public EdnLiteral convert(String text) {
            try {
                return new EdnLiteral(text, Edn.parse(text, "EDN literal '" + text + "'"));
            } catch (MalformedHistoryException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
