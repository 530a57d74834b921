package dev.polystack.platform.quota;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;

/** The quotas set for one organization; an absent value is the configured default. */
@Entity
@Table(name = "org_quota")
public class OrgQuota {

    @Id
    @Column(name = "org_id")
    private UUID orgId;

    private Integer projects;

    @Column(name = "environments_per_project")
    private Integer environmentsPerProject;

    @Column(name = "resources_per_manifest")
    private Integer resourcesPerManifest;

    @Column(name = "queued_deployments_per_environment")
    private Integer queuedDeploymentsPerEnvironment;

    @Column(name = "concurrent_jobs")
    private Integer concurrentJobs;

    private Integer runners;

    @Column(name = "tokens_per_user")
    private Integer tokensPerUser;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected OrgQuota() {
    }

    OrgQuota(UUID orgId) {
        this.orgId = orgId;
    }

    /** The values set, by quota. */
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

    /** Replaces every value: an absent one goes back to the default. */
    void set(Map<Quota, Integer> values, Instant now) {
        projects = values.get(Quota.PROJECTS);
        environmentsPerProject = values.get(Quota.ENVIRONMENTS_PER_PROJECT);
        resourcesPerManifest = values.get(Quota.RESOURCES_PER_MANIFEST);
        queuedDeploymentsPerEnvironment = values.get(Quota.QUEUED_DEPLOYMENTS_PER_ENVIRONMENT);
        concurrentJobs = values.get(Quota.CONCURRENT_JOBS);
        runners = values.get(Quota.RUNNERS);
        tokensPerUser = values.get(Quota.TOKENS_PER_USER);
        updatedAt = now;
    }

    private static void put(Map<Quota, Integer> values, Quota quota, Integer value) {
        if (value != null) {
            values.put(quota, value);
        }
    }
}
