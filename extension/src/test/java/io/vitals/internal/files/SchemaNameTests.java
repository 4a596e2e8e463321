package io.vitals.internal.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("SchemaName")
class SchemaNameTests {

    private static final SchemaName HISTORY = new SchemaName("vitals-history", 2);

    @Test
    @DisplayName("is written family/version")
    void text() {
        assertThat(HISTORY.text()).isEqualTo("vitals-history/2");
        assertThat(HISTORY).hasToString("vitals-history/2");
    }

    @ParameterizedTest(name = "\"{0}\": of the family {1}, newer {2}")
    @CsvSource({
            "vitals-history/3,    true,  true",
            "vitals-history/10,   true,  true",
            "vitals-history/2,    true,  false",
            "vitals-history/1,    true,  false",
            "vitals-history/x,    true,  false",
            "vitals-history/,     true,  false",
            "vitals-history,      false, false",
            "vitals-baseline/3,   false, false",
            "vitals-historyx/3,   false, false",
            "'',                  false, false",
    })
    @DisplayName("tells a newer version of the family from an older one and from a foreign name")
    void tellsTheCasesApart(String schema, boolean family, boolean newer) {
        assertThat(HISTORY.isFamilyOf(schema)).isEqualTo(family);
        assertThat(HISTORY.isNewerIn(schema)).isEqualTo(newer);
    }

    @Test
    @DisplayName("refuses a version below 1")
    void versionAtLeastOne() {
        assertThatIllegalArgumentException().isThrownBy(() -> new SchemaName("vitals-history", 0))
                .withMessage("a schema version is at least 1, but is 0");
    }
}
