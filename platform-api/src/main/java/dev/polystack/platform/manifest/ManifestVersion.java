package dev.polystack.platform.manifest;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

import java.time.Instant;
import java.util.UUID;

/** One stored version of an environment's manifest, exactly as it was submitted. */
@Entity
@Immutable
@Table(name = "manifest")
public class ManifestVersion {

    @Id
    private UUID id;

    @Column(name = "environment_id", nullable = false)
    private UUID environmentId;

    @Column(nullable = false)
    private int number;

    @Column(nullable = false)
    private String format;

    @Column(nullable = false)
    private String content;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "created_by")
    private UUID createdBy;

    @Column(name = "created_by_name")
    private String createdByName;

    protected ManifestVersion() {}

    ManifestVersion(
            UUID environmentId,
            int number,
            ManifestFormat format,
            String content,
            UUID createdBy,
            String createdByName,
            Instant now) {
        this.id = UUID.randomUUID();
        this.environmentId = environmentId;
        this.number = number;
        this.format = format.wireName();
        this.content = content;
        this.createdBy = createdBy;
        this.createdByName = createdByName;
        this.createdAt = now;
    }

    public UUID id() {
        return id;
    }

    public UUID environmentId() {
        return environmentId;
    }

    public int number() {
        return number;
    }

    public ManifestFormat format() {
        return ManifestFormat.fromWire(format);
    }

    public String content() {
        return content;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public String createdByName() {
        return createdByName;
    }
}
