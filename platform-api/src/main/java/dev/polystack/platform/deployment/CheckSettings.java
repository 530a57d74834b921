package dev.polystack.platform.deployment;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** When scheduled checks are looked for, and how many of one organization run at once ({@code POLYSTACK_CHECKS_…}). */
@ConfigMapping(prefix = "polystack.checks")
public interface CheckSettings {

    /** How often each replica looks for due checks and waiting reconciles. */
    @WithDefault("60s")
    Duration scheduleInterval();

    /** Scheduled checks of one organization running or waiting at once. */
    @WithDefault("4")
    int maxPerOrganization();
}
