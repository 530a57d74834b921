package dev.polystack.platform.audit;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

import java.time.Instant;
import java.util.UUID;

/** Who did what to which object, when, and how it went. Append-only (a database trigger enforces it). */
@Entity
@Immutable
@Table(name = "audit_event")
public class AuditEvent {

    @Id
    private UUID id;

    @Column(name = "org_id")
    private UUID orgId;

    @Column(name = "org_slug")
    private String orgSlug;

    @Column(name = "occurred_at", nullable = false)
    private Instant occurredAt;

    @Column(name = "actor_id")
    private UUID actorId;

    @Column(name = "actor_name", nullable = false)
    private String actorName;

    @Column(name = "actor_kind", nullable = false)
    private String actorKind;

    @Column(nullable = false)
    private String action;

    @Column(nullable = false)
    private String method;

    @Column(nullable = false)
    private String target;

    @Column(name = "request_id")
    private String requestId;

    @Column(nullable = false)
    private int status;

    @Column(nullable = false)
    private String outcome;

    protected AuditEvent() {}

    AuditEvent(
            UUID orgId,
            String orgSlug,
            Instant occurredAt,
            UUID actorId,
            String actorName,
            String actorKind,
            String action,
            String method,
            String target,
            String requestId,
            int status) {
        this.id = UUID.randomUUID();
        this.orgId = orgId;
        this.orgSlug = orgSlug;
        this.occurredAt = occurredAt;
        this.actorId = actorId;
        this.actorName = actorName;
        this.actorKind = actorKind;
        this.action = action;
        this.method = method;
        this.target = target;
        this.requestId = requestId;
        this.status = status;
        this.outcome = status < 400 ? "success" : "failure";
    }

    public UUID id() {
        return id;
    }

    public String orgSlug() {
        return orgSlug;
    }

    public Instant occurredAt() {
        return occurredAt;
    }

    public String actorName() {
        return actorName;
    }

    public String actorKind() {
        return actorKind;
    }

    public String action() {
        return action;
    }

    public String method() {
        return method;
    }

    public String target() {
        return target;
    }

    public String requestId() {
        return requestId;
    }

    public int status() {
        return status;
    }

    public String outcome() {
        return outcome;
    }
}
