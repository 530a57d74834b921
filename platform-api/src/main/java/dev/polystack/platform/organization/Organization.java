package dev.polystack.platform.organization;

import dev.polystack.platform.common.VersionedEntity;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.time.Instant;

/** A tenant: every other object belongs to exactly one organization. */
@Entity
@Table(name = "organization")
public class Organization extends VersionedEntity {

    @Column(nullable = false, updatable = false)
    private String slug;

    @Column(nullable = false)
    private String name;

    protected Organization() {}

    Organization(String slug, String name, Instant now) {
        super(now);
        this.slug = slug;
        this.name = name;
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
}
