package dev.polystack.platform.runner;

import dev.polystack.platform.common.Management;
import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/** Chooses a runner for the resources whose context matches every criterion the rule sets. Immutable. */
@Entity
@Table(name = "runner_rule")
public class RunnerRule {

    @Id
    private UUID id;

    @Column(name = "org_id", nullable = false)
    private UUID orgId;

    @Column(name = "runner_id", nullable = false)
    private UUID runnerId;

    @Column(name = "project_id")
    private UUID projectId;

    @Column(name = "env_type_id")
    private UUID envTypeId;

    @Column(name = "env_id")
    private UUID envId;

    @Column(name = "resource_type_id")
    private UUID resourceTypeId;

    @Column(name = "resource_class")
    private String resourceClass;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "created_by")
    private UUID createdBy;

    @Embedded
    private Management management = Management.none();

    protected RunnerRule() {}

    RunnerRule(
            UUID orgId,
            UUID runnerId,
            UUID projectId,
            UUID envTypeId,
            UUID envId,
            UUID resourceTypeId,
            String resourceClass,
            UUID createdBy,
            Instant now) {
        this.id = UUID.randomUUID();
        this.orgId = orgId;
        this.runnerId = runnerId;
        this.projectId = projectId;
        this.envTypeId = envTypeId;
        this.envId = envId;
        this.resourceTypeId = resourceTypeId;
        this.resourceClass = resourceClass;
        this.createdBy = createdBy;
        this.createdAt = now;
    }

    public UUID id() {
        return id;
    }

    public UUID orgId() {
        return orgId;
    }

    public UUID runnerId() {
        return runnerId;
    }

    public UUID projectId() {
        return projectId;
    }

    public UUID envTypeId() {
        return envTypeId;
    }

    public UUID envId() {
        return envId;
    }

    public UUID resourceTypeId() {
        return resourceTypeId;
    }

    public String resourceClass() {
        return resourceClass;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Management management() {
        return management;
    }

    public void manage(Management management) {
        this.management = management;
    }
}
