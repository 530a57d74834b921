package dev.polystack.platform.deployment.jobs;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** When a claim without a result checks the limits before its commit: only when few places are left. */
class JobLimitsTest {

    @Test
    void aQuarterOfTheLimitFreeOrLessIsNearlyReached() {
        assertThat(JobLimits.nearlyReached(0, 20)).as("20 of 20 places free").isFalse();
        assertThat(JobLimits.nearlyReached(14, 20)).as("6 of 20 free").isFalse();
        assertThat(JobLimits.nearlyReached(15, 20)).as("5 of 20 free").isTrue();
        assertThat(JobLimits.nearlyReached(20, 20)).as("none free").isTrue();
        assertThat(JobLimits.nearlyReached(0, 50)).as("50 of 50 free").isFalse();
        assertThat(JobLimits.nearlyReached(38, 50)).as("12 of 50 free").isTrue();
    }

    @Test
    void underEightTheLastPlaceIsNearlyReached() {
        assertThat(JobLimits.nearlyReached(0, 1)).as("the only place").isTrue();
        assertThat(JobLimits.nearlyReached(0, 3)).as("3 of 3 free").isFalse();
        assertThat(JobLimits.nearlyReached(1, 3)).as("2 of 3 free").isFalse();
        assertThat(JobLimits.nearlyReached(2, 3)).as("the last of 3").isTrue();
        assertThat(JobLimits.nearlyReached(6, 7)).as("the last of 7").isTrue();
        assertThat(JobLimits.nearlyReached(5, 7)).as("2 of 7 free").isFalse();
        assertThat(JobLimits.nearlyReached(6, 8)).as("2 of 8 free").isTrue();
        assertThat(JobLimits.nearlyReached(0, 0)).as("a limit of none").isTrue();
    }
}
