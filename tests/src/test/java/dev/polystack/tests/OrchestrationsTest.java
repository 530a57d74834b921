package dev.polystack.tests;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The orchestration benchmark's own arithmetic and options, on values made up for the purpose. */
class OrchestrationsTest {

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

    @Test
    void theWarmUpRunsAveragedAreTheLaterHalfAndAtMostTheLastTen() {
        List<Double> twelve = ratios(12);
        assertThat(Orchestrations.averaged(twelve)).containsExactlyElementsOf(twelve.subList(6, 12));
        List<Double> thirty = ratios(30);
        assertThat(Orchestrations.averaged(thirty)).containsExactlyElementsOf(thirty.subList(20, 30));
        assertThat(Orchestrations.averaged(ratios(7))).containsExactly(1.03, 1.04, 1.05, 1.06);
        assertThat(Orchestrations.averaged(ratios(5))).as("too few to average").isEmpty();
    }

    /** Made-up ratios 1.00, 1.01, …: each run's own. */
    private static List<Double> ratios(int runs) {
        return IntStream.range(0, runs).mapToObj(i -> 1.0 + i / 100.0).toList();
    }
}
