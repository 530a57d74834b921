package dev.polystack.tests;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The orchestration benchmark's options, read as the harness reads them. */
class OrchestrationOptionsTest {

    @Test
    void measuredRunsAreOneOrMore() {
        assertThat(Orchestrations.measuredRuns("1")).isEqualTo(1);
        assertThat(Orchestrations.measuredRuns("3")).isEqualTo(3);
        assertThatThrownBy(() -> Orchestrations.measuredRuns("0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-Dbench.measured is a number of runs, 1 or more, not `0`");
        assertThatThrownBy(() -> Orchestrations.measuredRuns("three"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not `three`");
    }
}
