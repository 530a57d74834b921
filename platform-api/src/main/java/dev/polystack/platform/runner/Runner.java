package dev.polystack.platform.runner;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.VersionedEntity;
import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;
import java.util.UUID;

/** A registered runner agent, known by the Ed25519 public key it signs its requests with. */
@Entity
@Table(name = "runner")
public class Runner extends VersionedEntity {

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(nullable = false, updatable = false)
    private String slug;

    private String description;

    @Column(name = "public_key", nullable = false)
    private String publicKey;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    private JsonNode labels;

    @Column(name = "max_concurrent_jobs", nullable = false)
    private int maxConcurrentJobs;

    @Column(name = "last_seen_at")
    private Instant lastSeenAt;

    @Embedded
    private Management management = Management.none();

    protected Runner() {}

    Runner(UUID orgId, String slug, Instant now) {
        super(now);
        this.orgId = orgId;
        this.slug = slug;
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

    public String publicKey() {
        return publicKey;
    }

    public JsonNode labels() {
        return labels.deepCopy();
    }

    public int maxConcurrentJobs() {
        return maxConcurrentJobs;
    }

    public Instant lastSeenAt() {
        return lastSeenAt;
    }

    void define(String description, String publicKey, JsonNode labels, int maxConcurrentJobs, Instant now) {
        this.description = description;
        this.publicKey = publicKey;
        this.labels = labels.deepCopy();
        this.maxConcurrentJobs = maxConcurrentJobs;
        touch(now);
    }

    public Management management() {
        return management;
    }

    public void manage(Management management) {
        this.management = management;
    }
}
