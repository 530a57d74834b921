package dev.polystack.platform.common;

import jakarta.persistence.Column;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.Version;

import java.time.Instant;
import java.util.UUID;

/** The identity, timestamps and optimistic-locking version every mutable object has. */
@MappedSuperclass
public abstract class VersionedEntity {

    @Id
    private UUID id;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    @Version
    private long version;

    protected VersionedEntity() {}

    protected VersionedEntity(Instant now) {
        this.id = UUID.randomUUID();
        this.createdAt = now;
        this.updatedAt = now;
    }

    public UUID id() {
        return id;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant updatedAt() {
        return updatedAt;
    }

    public long version() {
        return version;
    }

    /** Records a change; the version is bumped by Hibernate when the row is written. */
    protected void touch(Instant now) {
        this.updatedAt = now;
    }
}
