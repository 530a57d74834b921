package dev.polystack.platform.state;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

import java.time.Instant;
import java.util.UUID;

/** One write of a resource's OpenTofu state, sealed with AES-GCM. */
@Entity
@Immutable
@Table(name = "state_version")
public class StateVersion {

    @Id
    private UUID id;

    @Column(name = "environment_id", nullable = false)
    private UUID environmentId;

    @Column(name = "resource_key", nullable = false)
    private String resourceKey;

    private Long serial;

    private String lineage;

    @Column(nullable = false)
    private byte[] content;

    @Column(nullable = false)
    private int size;

    @Column(name = "job_id")
    private UUID jobId;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected StateVersion() {}

    StateVersion(
            UUID id,
            UUID environmentId,
            String resourceKey,
            Long serial,
            String lineage,
            byte[] sealed,
            int size,
            UUID jobId,
            Instant now) {
        this.id = id;
        this.environmentId = environmentId;
        this.resourceKey = resourceKey;
        this.serial = serial;
        this.lineage = lineage;
        this.content = sealed;
        this.size = size;
        this.jobId = jobId;
        this.createdAt = now;
    }

    public UUID id() {
        return id;
    }

    public UUID environmentId() {
        return environmentId;
    }

    public String resourceKey() {
        return resourceKey;
    }

    public Long serial() {
        return serial;
    }

    public String lineage() {
        return lineage;
    }

    byte[] sealed() {
        return content;
    }

    public int size() {
        return size;
    }

    public UUID jobId() {
        return jobId;
    }

    public Instant createdAt() {
        return createdAt;
    }

    static String binding(UUID environmentId, String resourceKey, UUID versionId) {
        return "state:" + environmentId + ":" + resourceKey + ":" + versionId;
    }
}
