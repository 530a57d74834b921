package dev.polystack.platform.envtype;

import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.VersionedEntity;
import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/** A kind of environment (development, staging, production) that rules can target. */
@Entity
@Table(name = "env_type")
public class EnvType extends VersionedEntity {

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(nullable = false, updatable = false)
    private String slug;

    private String description;

    @Embedded
    private Management management = Management.none();

    protected EnvType() {
    }

    EnvType(UUID orgId, String slug, String description, Instant now) {
        super(now);
        this.orgId = orgId;
        this.slug = slug;
        this.description = description;
    }

    public UUID orgId() {
        return orgId;
    }

    public String slug() {
        return slug;
    }

    public String description() {
        return description;
    }

    void describe(String description, Instant now) {
        this.description = description;
        touch(now);
    }

    public Management management() {
        return management;
    }

    public void manage(Management management) {
        this.management = management;
    }
}
