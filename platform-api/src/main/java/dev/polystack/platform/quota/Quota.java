package dev.polystack.platform.quota;

import dev.polystack.platform.common.PolystackConfig;

import java.util.function.ToIntFunction;

/** What an organization may hold or run at once. Each has a default in configuration. */
public enum Quota {
    PROJECTS("projects", "organization", "projects in the organization", PolystackConfig.Quotas::projects),
    ENVIRONMENTS_PER_PROJECT(
            "environments_per_project",
            "project",
            "environments in one project",
            PolystackConfig.Quotas::environmentsPerProject),
    RESOURCES_PER_MANIFEST(
            "resources_per_manifest",
            "manifest",
            "resources in one manifest",
            PolystackConfig.Quotas::resourcesPerManifest),
    QUEUED_DEPLOYMENTS_PER_ENVIRONMENT(
            "queued_deployments_per_environment",
            "environment",
            "deployments waiting in one environment",
            PolystackConfig.Quotas::queuedDeploymentsPerEnvironment),
    CONCURRENT_JOBS(
            "concurrent_jobs",
            "organization",
            "jobs running at once in the organization; more wait for a slot",
            PolystackConfig.Quotas::concurrentJobs),
    RUNNERS("runners", "organization", "runners registered in the organization", PolystackConfig.Quotas::runners),
    TOKENS_PER_USER(
            "tokens_per_user",
            "user",
            "API tokens of one user or service user that are not revoked or expired",
            PolystackConfig.Quotas::tokensPerUser);

    private final String wireName;
    private final String scope;
    private final String description;
    private final ToIntFunction<PolystackConfig.Quotas> defaultValue;

    Quota(String wireName, String scope, String description, ToIntFunction<PolystackConfig.Quotas> defaultValue) {
        this.wireName = wireName;
        this.scope = scope;
        this.description = description;
        this.defaultValue = defaultValue;
    }

    public String wireName() {
        return wireName;
    }

    public String scope() {
        return scope;
    }

    public String description() {
        return description;
    }

    int defaultIn(PolystackConfig.Quotas config) {
        return defaultValue.applyAsInt(config);
    }
}
