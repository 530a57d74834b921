package dev.polystack.platform.runner;

import java.util.UUID;

/** A runner agent, authenticated by a JWT signed with its private key. */
public record RunnerCaller(UUID orgId, String orgSlug, UUID runnerId, String runnerSlug, int maxConcurrentJobs) {

    public static final String ATTRIBUTE = "polystack.runner";
    public static final String ROLE = "runner";
}
