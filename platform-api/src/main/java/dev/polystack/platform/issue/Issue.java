package dev.polystack.platform.issue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.rules.ResourceIdentity;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;
import java.util.UUID;

/**
 * A deviation of a resource from what Polystack applied, or a failure that needs attention: open until a
 * later check or deployment shows it gone. Written by the engine ({@link IssueService#open},
 * {@link IssueService#resolve}); read and acknowledged through the API.
 */
@Entity
@Table(name = "issue")
public class Issue {

    @Id
    private UUID id;

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(name = "environment_id", nullable = false, updatable = false)
    private UUID environmentId;

    @Column(name = "res_type", nullable = false, updatable = false)
    private String resType;

    @Column(name = "res_class", nullable = false, updatable = false)
    private String resClass;

    @Column(name = "res_id", nullable = false, updatable = false)
    private String resId;

    @Column(nullable = false, updatable = false)
    private String kind;

    @Column(nullable = false)
    private String state;

    @Column(nullable = false)
    private String summary;

    @JdbcTypeCode(SqlTypes.JSON)
    private JsonNode detail;

    @Column(name = "first_seen", nullable = false)
    private Instant firstSeen;

    @Column(name = "last_seen", nullable = false)
    private Instant lastSeen;

    @Column(name = "seen_by")
    private UUID seenBy;

    @Column(name = "resolved_at")
    private Instant resolvedAt;

    @Column(name = "resolved_by")
    private UUID resolvedBy;

    private String resolution;

    @Column(name = "acknowledged_at")
    private Instant acknowledgedAt;

    @Column(name = "acknowledged_by")
    private String acknowledgedBy;

    @Column(name = "ack_comment")
    private String ackComment;

    @Version
    private long version;

    protected Issue() {}

    public UUID id() {
        return id;
    }

    public UUID orgId() {
        return orgId;
    }

    public UUID environmentId() {
        return environmentId;
    }

    public ResourceIdentity resource() {
        return new ResourceIdentity(resType, resClass, resId);
    }

    public String kind() {
        return kind;
    }

    public String state() {
        return state;
    }

    public String summary() {
        return summary;
    }

    public JsonNode detail() {
        return detail;
    }

    public Instant firstSeen() {
        return firstSeen;
    }

    public Instant lastSeen() {
        return lastSeen;
    }

    public UUID seenBy() {
        return seenBy;
    }

    public Instant resolvedAt() {
        return resolvedAt;
    }

    public UUID resolvedBy() {
        return resolvedBy;
    }

    public String resolution() {
        return resolution;
    }

    public Instant acknowledgedAt() {
        return acknowledgedAt;
    }

    public String acknowledgedBy() {
        return acknowledgedBy;
    }

    public String ackComment() {
        return ackComment;
    }

    void acknowledge(String by, String comment, Instant now) {
        this.acknowledgedBy = by;
        this.ackComment = comment;
        this.acknowledgedAt = now;
    }
}
