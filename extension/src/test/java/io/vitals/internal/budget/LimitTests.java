package io.vitals.internal.budget;

import static org.assertj.core.api.Assertions.assertThat;

import io.vitals.internal.metric.Metric;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Limit")
class LimitTests {

    @ParameterizedTest(name = "{0} = \"{1}\" prints as \"{2}\"")
    @CsvSource(delimiter = '|', textBlock = """
            peakMemory    | 200MB      | 200.0 MiB
            peakMemory    | 2g         | 2.0 GiB
            networkSent   | 64kB       | 64.0 KiB
            peakMemory    | 1.5GiB     | 1.5GiB
            peakMemory    | 512 MiB    | 512 MiB
            blockWrite    | 4096B      | 4096B
            memoryGrowth  | 1MB/s      | 1.0 MiB/s
            memoryGrowth  | 10MiB/min  | 10MiB/min
            cpuTime       | 1m30s      | 1m30s
            averageCpu    | 150%       | 150%
            """)
    @DisplayName("prints sizes and rates in IEC units, whatever unit they were written in")
    void printsIecUnits(String attribute, String written, String printed) {
        // a report must never show "200 MB" beside "155.1 MiB": every size unit is binary, and reads so
        Limit limit = Limit.parse(Metric.byAttribute(attribute).orElseThrow(), written);
        assertThat(limit.text()).isEqualTo(printed);
    }

    @ParameterizedTest(name = "\"{0}\" = {1} B")
    @CsvSource({ "200MB, 209715200", "200MiB, 209715200", "200m, 209715200", "1000000B, 1000000" })
    @DisplayName("judges a docker-style size as docker run --memory reads it")
    void judgesLikeDocker(String written, double bytes) {
        assertThat(Limit.parse(Metric.PEAK_MEMORY, written).value()).isEqualTo(bytes);
    }
}
