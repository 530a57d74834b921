package dev.polystack.platform.module;

import dev.polystack.platform.common.Management;
import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/**
 * Chooses a module for the resources whose context matches every criterion the rule sets; its criteria are
 * immutable (delete and create again to change one), only its management changes.
 */
@Entity
@Table(name = "module_rule")
public class ModuleRule {

    @Id
    private UUID id;

    @Column(name = "org_id", nullable = false)
    private UUID orgId;

    @Column(name = "module_id", nullable = false)
    private UUID moduleId;

    @Column(name = "resource_class")
    private String resourceClass;

    @Column(name = "resource_id")
    private String resourceId;

    @Column(name = "project_id")
    private UUID projectId;

    @Column(name = "env_type_id")
    private UUID envTypeId;

    @Column(name = "env_id")
    private UUID envId;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "created_by")
    private UUID createdBy;

    @Embedded
    private Management management = Management.none();

    protected ModuleRule() {}

    ModuleRule(
            UUID orgId,
            UUID moduleId,
            String resourceClass,
            String resourceId,
            UUID projectId,
            UUID envTypeId,
            UUID envId,
            UUID createdBy,
            Instant now) {
        this.id = UUID.randomUUID();
        this.orgId = orgId;
        this.moduleId = moduleId;
        this.resourceClass = resourceClass;
        this.resourceId = resourceId;
        this.projectId = projectId;
        this.envTypeId = envTypeId;
        this.envId = envId;
        this.createdBy = createdBy;
        this.createdAt = now;
    }

    public UUID id() {
        return id;
    }

    public UUID orgId() {
        return orgId;
    }

    public UUID moduleId() {
        return moduleId;
    }

    public String resourceClass() {
        return resourceClass;
    }

    public String resourceId() {
        return resourceId;
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
