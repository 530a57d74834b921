package dev.polystack.platform.quota;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import java.util.EnumMap;
import java.util.Map;

/** The quotas of an organization; a quota left out goes back to the configured default. */
public record QuotaRequest(
        @Min(0) @Max(1_000_000) Integer projects,
        @Min(0) @Max(1_000_000) Integer environmentsPerProject,
        @Min(0) @Max(1_000_000) Integer resourcesPerManifest,
        @Min(0) @Max(1_000_000) Integer queuedDeploymentsPerEnvironment,
        @Min(0) @Max(1_000_000) Integer concurrentJobs,
        @Min(0) @Max(1_000_000) Integer runners,
        @Min(0) @Max(1_000_000) Integer tokensPerUser) {

    Map<Quota, Integer> values() {
        Map<Quota, Integer> values = new EnumMap<>(Quota.class);
        put(values, Quota.PROJECTS, projects);
        put(values, Quota.ENVIRONMENTS_PER_PROJECT, environmentsPerProject);
        put(values, Quota.RESOURCES_PER_MANIFEST, resourcesPerManifest);
        put(values, Quota.QUEUED_DEPLOYMENTS_PER_ENVIRONMENT, queuedDeploymentsPerEnvironment);
        put(values, Quota.CONCURRENT_JOBS, concurrentJobs);
        put(values, Quota.RUNNERS, runners);
        put(values, Quota.TOKENS_PER_USER, tokensPerUser);
        return values;
    }

    private static void put(Map<Quota, Integer> values, Quota quota, Integer value) {
        if (value != null) {
            values.put(quota, value);
        }
    }
}
