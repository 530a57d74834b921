package dev.polystack.platform.common;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.common.sql.JsonTreeJavaType;
import jakarta.persistence.Column;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.Version;
import org.hibernate.annotations.JavaTypeRegistration;

import java.time.Instant;
import java.util.UUID;

/**
 * The identity, timestamps and optimistic-locking version every mutable object has. Also where every entity's
 * {@code JsonNode} columns get their Java type ({@link JsonTreeJavaType}): a registration applies to all entities.
 */
@MappedSuperclass
@JavaTypeRegistration(javaType = JsonNode.class, descriptorClass = JsonTreeJavaType.class)
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
