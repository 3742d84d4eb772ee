package io.zkchaos.results.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import freemarker.core.HTMLOutputFormat;
import freemarker.template.TemplateModelException;
import freemarker.template.TemplateModel;
import java.io.UncheckedIOException;

/**
 * The page's data as JSON that is safe inside {@code <script type="application/json">}: the one place where data
 * enters the page without HTML escaping, because a script element's content is not HTML (entities are not decoded
 * there, so escaping {@code <} as {@code &lt;} would corrupt the JSON).
 *
 * <p>Safety comes from the JSON itself: every {@code <}, {@code >} and {@code &} is written as a {@code \u003c}-style
 * escape, so no {@code </script>} or {@code <!--} can appear, whatever the history holds; U+2028 and U+2029 are
 * escaped too. The escapes are valid JSON, so {@code JSON.parse} returns the original strings, which the page's
 * script puts into the document only with {@code textContent}.
 */
public final class ScriptJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .build();

    static {
        MAPPER.getFactory().setCharacterEscapes(new ScriptEscapes());
    }

    private ScriptJson() {
    }

    /** {@code value} as script-safe JSON text. */
    public static String text(Object value) {
        try {
            String json = MAPPER.writeValueAsString(value);
            if (json.indexOf('<') >= 0) {
                throw new IllegalStateException("script JSON must not contain '<'"); // the escapes above failed
            }
            return json;
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write the report's data as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** {@link #text} as markup the template may output as is (it needs no HTML escaping, see above). */
    public static TemplateModel markup(Object value) {
        try {
            return HTMLOutputFormat.INSTANCE.fromMarkup(text(value));
        } catch (TemplateModelException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Escapes the characters that could end a script element or a JS string early. */
    private static final class ScriptEscapes extends CharacterEscapes {
        private static final SerializedString LS = new SerializedString("\\u2028");
        private static final SerializedString PS = new SerializedString("\\u2029");
        private final int[] ascii;

        ScriptEscapes() {
            ascii = standardAsciiEscapesForJSON();
            ascii['<'] = ESCAPE_STANDARD;
            ascii['>'] = ESCAPE_STANDARD;
            ascii['&'] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return ch == 0x2028 ? LS : ch == 0x2029 ? PS : null;
        }
    }
}
