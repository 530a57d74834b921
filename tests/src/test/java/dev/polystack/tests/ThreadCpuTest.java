package dev.polystack.tests;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The harness's per-thread CPU arithmetic, on readings made up for the purpose rather than read from /proc. */
class ThreadCpuTest {

    @Test
    void aThreadsCpuBetweenTwoReadingsIsWhatItGainedAndANewThreadCountsFromNothing() {
        Map<String, Double> between = Figures.threadCpuBetween(
                Map.of("executor-thread-N", 4.0, "C2 CompilerThreN", 10.0),
                Map.of("executor-thread-N", 5.5, "C2 CompilerThreN", 10.25, "polystack-advance-N", 0.75));
        assertThat(between.get("executor-thread-N")).isCloseTo(1.5, within(1e-9));
        assertThat(between.get("C2 CompilerThreN")).isCloseTo(0.25, within(1e-9));
        assertThat(between.get("polystack-advance-N")).isCloseTo(0.75, within(1e-9));
    }

    @Test
    void threadsOfOneNameThatEndedMeanwhileNeverCountAsNegativeCpu() {
        // the names merge threads whose numbers differ; when one of them ends, the sum of those left can be smaller
        Map<String, Double> between =
                Figures.threadCpuBetween(Map.of("C1 CompilerThreN", 3.0), Map.of("C1 CompilerThreN", 1.0));
        assertThat(between.get("C1 CompilerThreN")).isZero();
    }

    @Test
    void theCompilersSecondsAreThoseOfTheCompilerThreadsAlone() {
        assertThat(Orchestrations.compilerSeconds(
                        Map.of("C1 CompilerThreN", 1.0, "C2 CompilerThreN", 2.0, "executor-thread-N", 3.0),
                        Map.of("C1 CompilerThreN", 1.5, "C2 CompilerThreN", 2.25, "executor-thread-N", 9.0)))
                .isCloseTo(0.75, within(1e-9));
        assertThat(Orchestrations.compilerSeconds(Map.of(), Map.of("executor-thread-N", 9.0)))
                .isZero();
    }
}
