package dev.polystack.platform.identity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/** An API token: only its SHA-256 hash is stored; the token itself is shown once when it is made. */
@Entity
@Table(name = "api_token")
public class ApiToken {

    /** A use is recorded at most this often, so that reads do not turn into writes. */
    static final Duration USE_RESOLUTION = Duration.ofMinutes(1);

    @Id
    private UUID id;

    @Column(name = "principal_id", nullable = false, updatable = false)
    private UUID principalId;

    @Column(nullable = false)
    private String name;

    @Column(name = "token_hash", nullable = false, updatable = false)
    private byte[] tokenHash;

    @Column(name = "display_prefix", nullable = false, updatable = false)
    private String displayPrefix;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    @Column(name = "created_by", updatable = false)
    private UUID createdBy;

    @Column(name = "expires_at", updatable = false)
    private Instant expiresAt;

    @Column(name = "last_used_at")
    private Instant lastUsedAt;

    @Column(name = "revoked_at")
    private Instant revokedAt;

    protected ApiToken() {}

    ApiToken(
            UUID principalId,
            String name,
            byte[] tokenHash,
            String displayPrefix,
            UUID createdBy,
            Instant expiresAt,
            Instant now) {
        this.id = UUID.randomUUID();
        this.principalId = principalId;
        this.name = name;
        this.tokenHash = tokenHash;
        this.displayPrefix = displayPrefix;
        this.createdBy = createdBy;
        this.expiresAt = expiresAt;
        this.createdAt = now;
    }

    public UUID id() {
        return id;
    }

    public UUID principalId() {
        return principalId;
    }

    public String name() {
        return name;
    }

    public String displayPrefix() {
        return displayPrefix;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant expiresAt() {
        return expiresAt;
    }

    public Instant lastUsedAt() {
        return lastUsedAt;
    }

    public Instant revokedAt() {
        return revokedAt;
    }

    boolean isUsableAt(Instant now) {
        return revokedAt == null && (expiresAt == null || expiresAt.isAfter(now));
    }

    void revoke(Instant now) {
        if (revokedAt == null) {
            revokedAt = now;
        }
    }
}
