package dev.polystack.platform.project;

import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.VersionedEntity;
import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/** A project groups the environments of one application or team. */
@Entity
@Table(name = "project")
public class Project extends VersionedEntity {

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(nullable = false, updatable = false)
    private String slug;

    @Column(nullable = false)
    private String name;

    @Embedded
    private Management management = Management.none();

    protected Project() {}

    Project(UUID orgId, String slug, String name, Instant now) {
        super(now);
        this.orgId = orgId;
        this.slug = slug;
        this.name = name;
    }

    public UUID orgId() {
        return orgId;
    }

    public String slug() {
        return slug;
    }

    public String name() {
        return name;
    }

    void rename(String name, Instant now) {
        this.name = name;
        touch(now);
    }

    public Management management() {
        return management;
    }

    public void manage(Management management) {
        this.management = management;
    }
}
