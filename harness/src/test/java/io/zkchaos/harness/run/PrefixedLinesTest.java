package io.zkchaos.harness.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class PrefixedLinesTest {

    @Test
    void everyLineCarriesThePrefixAndLeavesWhole() {
        StringWriter out = new StringWriter();
        PrintWriter w = new PrintWriter(new PrefixedLines("[a] ", out), true);
        w.print("one ");
        assertThat(out.toString()).isEmpty(); // half a line is held back
        w.println("line");
        w.println("two\nthree");
        assertThat(out.toString()).isEqualTo("[a] one line\n[a] two\n[a] three\n");
    }
}
