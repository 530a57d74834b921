package dev.polystack.platform.module;

import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.VersionedEntity;
import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/** A module: how one resource type is provisioned. Its definition lives in immutable {@link ModuleVersion}s. */
@Entity
@Table(name = "module")
public class Module extends VersionedEntity {

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(nullable = false, updatable = false)
    private String slug;

    @Column(name = "resource_type_id", nullable = false, updatable = false)
    private UUID resourceTypeId;

    @Column(name = "latest_version", nullable = false)
    private int latestVersion;

    @Embedded
    private Management management = Management.none();

    protected Module() {}

    Module(UUID orgId, String slug, UUID resourceTypeId, Instant now) {
        super(now);
        this.orgId = orgId;
        this.slug = slug;
        this.resourceTypeId = resourceTypeId;
    }

    public UUID orgId() {
        return orgId;
    }

    public String slug() {
        return slug;
    }

    public UUID resourceTypeId() {
        return resourceTypeId;
    }

    public int latestVersion() {
        return latestVersion;
    }

    /** Reserves the number of the next version. */
    int nextVersion(Instant now) {
        latestVersion++;
        touch(now);
        return latestVersion;
    }

    public Management management() {
        return management;
    }

    public void manage(Management management) {
        this.management = management;
    }
}
