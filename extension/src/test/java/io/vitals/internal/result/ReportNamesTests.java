package io.vitals.internal.result;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.report.ReportFixtures;

import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReportNamesTests {

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "[2] batch=128; train[2]-batch-128",
            "[1] 128, 4; train[1]-128-4",
            "repetition 3 of 5; train-repetition-3-of-5",
            "[3] ../../etc/passwd; train[3]-..-..-etc-passwd" })
    @DisplayName("invocations get safe file names")
    void fileStems(String parameters, String expected) {
        TestResult r = ReportFixtures.result("com.example.T", "train", Optional.of(parameters), 1.0);
        assertThat(ReportNames.fileStem(r)).isEqualTo(expected);
    }

    @Test
    @DisplayName("long names are cut and keep a hash, so they stay short and unique")
    void longNames() {
        String a = ReportNames.safe("x".repeat(200) + "a");
        String b = ReportNames.safe("x".repeat(200) + "b");
        assertThat(a).hasSize(80).isNotEqualTo(b);
    }

    @Test
    @DisplayName("a name of dots cannot climb out of the report directory")
    void dots() {
        assertThat(ReportNames.safe("..")).isEqualTo("_");
        assertThat(ReportNames.classDirectory("com.example.Outer$Inner")).isEqualTo("com.example.Outer.Inner");
    }
}
