package io.vitals.internal.probe.cgroupfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("ByteScan: the byte scanning of the cgroup file parsers")
class ByteScanTests {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static long number(String text) {
        return ByteScan.number(bytes(text), 0, text.length());
    }

    @ParameterizedTest(name = "\"{0}\" reads as Long.parseLong reads it")
    @ValueSource(strings = {"0", "7", "-1", "-42", "123456789012345678", "999999999999999999",
            "1234567890123456789", "9223372036854775807", "-9223372036854775808", "+5", "007"})
    void numbersAsLongParseLong(String text) {
        assertThat(number(text)).isEqualTo(Long.parseLong(text));
    }

    @ParameterizedTest(name = "\"{0}\" is no number")
    @ValueSource(strings = {"", "-", "12ab", "1.5", "9223372036854775808", " 1", "max"})
    void notNumbers(String text) {
        assertThatThrownBy(() -> number(text)).isInstanceOf(NumberFormatException.class);
    }

    @Test
    @DisplayName("a number is read within its bounds only")
    void bounds() {
        assertThat(ByteScan.number(bytes("rbytes=4096 wbytes"), "rbytes=".length(), "rbytes=4096".length()))
                .isEqualTo(4096);
    }

    @Test
    @DisplayName("tokens, lines and fields: spaces and tabs separate, a line ends at its line break")
    void tokensAndLines() {
        byte[] text = bytes("  8:0\tRead 42 \r\nTotal 42\n");
        int end = ByteScan.lineEnd(text, 0, text.length);
        assertThat(end).isEqualTo(15);
        assertThat(ByteScan.fieldCount(text, 0, end)).isEqualTo(3);
        int from = ByteScan.skipSpaces(text, 0, end);
        assertThat(ByteScan.text(text, from, ByteScan.tokenEnd(text, from, end))).isEqualTo("8:0");
        assertThat(ByteScan.lineEnd(text, end + 1, text.length)).isEqualTo(text.length - 1);
        assertThat(ByteScan.skipBlank(bytes(" \n\n 5"), 0, 5)).isEqualTo(4);
    }

    @Test
    @DisplayName("startsWith compares only within bounds")
    void startsWith() {
        byte[] text = bytes("total=17");
        assertThat(ByteScan.startsWith(text, 0, text.length, "total=")).isTrue();
        assertThat(ByteScan.startsWith(text, 0, 3, "total=")).isFalse();
        assertThat(ByteScan.startsWith(text, 1, text.length, "total=")).isFalse();
    }
}
