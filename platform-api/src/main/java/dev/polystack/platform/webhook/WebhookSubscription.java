package dev.polystack.platform.webhook;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Where an organization wants to hear of its events, and which; the signing secret is sealed. */
@Entity
@Table(name = "webhook_subscription")
public class WebhookSubscription {

    @Id
    private UUID id;

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(nullable = false)
    private String url;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    private List<String> events;

    @Column(nullable = false)
    private byte[] secret;

    private String description;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    @Column(name = "created_by", updatable = false)
    private String createdBy;

    @Version
    private long version;

    protected WebhookSubscription() {}

    WebhookSubscription(
            UUID id, UUID orgId, String url, List<String> events, String description, String createdBy, Instant now) {
        this.id = id;
        this.orgId = orgId;
        this.url = url;
        this.events = List.copyOf(events);
        this.description = description;
        this.createdBy = createdBy;
        this.createdAt = now;
    }

    public UUID id() {
        return id;
    }

    public UUID orgId() {
        return orgId;
    }

    public String url() {
        return url;
    }

    public List<String> events() {
        return events;
    }

    public String description() {
        return description;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public String createdBy() {
        return createdBy;
    }

    byte[] sealedSecret() {
        return secret;
    }

    void seal(byte[] sealed) {
        this.secret = sealed;
    }

    static String secretBinding(UUID id) {
        return "webhook:" + id;
    }
}
