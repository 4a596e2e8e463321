package io.vitals.internal.units;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** DataSize's tests cover the grammar through parse; these the exact, unrounded bytes that DataRate relies on. */
@DisplayName("DataSizeParser")
class DataSizeParserTests {

    @ParameterizedTest(name = "\"{0}\" is exactly {1} bytes")
    @CsvSource({
            "1.5B,        1.5",
            "0.001KiB,    1.024",
            "1 k,         1024",
            "2MB,         2097152",
            "1.5GiB,      1610612736.0",
            "100000000000TB, 109951162777600000000000",
    })
    void exactBytes(String text, String bytes) {
        assertThat(DataSizeParser.parseExactBytes(text))
                .hasValueSatisfying(value -> assertThat(value).isEqualByComparingTo(new BigDecimal(bytes)));
    }

    @ParameterizedTest(name = "\"{0}\" does not match")
    @ValueSource(strings = {"", "512", ".5MiB", "1.MiB", "1e3B", "-1B", "1 mib", "1 MiB/s", " 1MiB", "1PiB"})
    void noMatch(String text) {
        assertThat(DataSizeParser.parseExactBytes(text)).isEmpty();
    }

    @Test
    @DisplayName("every k/m/g/t spelling is binary, as docker run --memory reads it")
    void binarySpellings() {
        for (String unit : new String[] {"k", "K", "kB", "KB", "KiB"}) {
            assertThat(DataSizeParser.parseExactBytes("1" + unit)).hasValue(BigDecimal.valueOf(1024));
        }
    }
}
