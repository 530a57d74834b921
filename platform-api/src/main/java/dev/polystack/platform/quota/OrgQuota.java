package dev.polystack.platform.quota;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
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

    protected OrgQuota() {}

    OrgQuota(UUID orgId) {
        this.orgId = orgId;
    }

    /** The values set, by quota. */
    Map<Quota, Integer> values() {
        return new QuotaRequest(
                        projects,
                        environmentsPerProject,
                        resourcesPerManifest,
                        queuedDeploymentsPerEnvironment,
                        concurrentJobs,
                        runners,
                        tokensPerUser)
                .values();
    }

    /** Replaces every value: an absent one goes back to the default. */
    void set(QuotaRequest request, Instant now) {
        projects = request.projects();
        environmentsPerProject = request.environmentsPerProject();
        resourcesPerManifest = request.resourcesPerManifest();
        queuedDeploymentsPerEnvironment = request.queuedDeploymentsPerEnvironment();
        concurrentJobs = request.concurrentJobs();
        runners = request.runners();
        tokensPerUser = request.tokensPerUser();
        updatedAt = now;
    }
}
