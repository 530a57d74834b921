package dev.polystack.platform.deployment.model;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/** One member's decision on a deployment's plan: approve or reject, bound to the plan's fingerprint. Never changes. */
@Entity
@Table(name = "approval")
public class Approval {

    public static final String APPROVE = "approve";
    public static final String REJECT = "reject";

    @Id
    private UUID id;

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(name = "deployment_id", nullable = false, updatable = false)
    private UUID deploymentId;

    @Column(nullable = false, updatable = false)
    private String decision;

    @Column(updatable = false)
    private String comment;

    @Column(name = "user_id", nullable = false, updatable = false)
    private UUID userId;

    @Column(name = "user_name", nullable = false, updatable = false)
    private String userName;

    @Column(nullable = false, updatable = false)
    private String role;

    @Column(nullable = false, updatable = false)
    private String fingerprint;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    protected Approval() {}

    public Approval(
            UUID orgId,
            UUID deploymentId,
            String decision,
            String comment,
            UUID userId,
            String userName,
            String role,
            String fingerprint,
            Instant now) {
        this.id = UUID.randomUUID();
        this.orgId = orgId;
        this.deploymentId = deploymentId;
        this.decision = decision;
        this.comment = comment;
        this.userId = userId;
        this.userName = userName;
        this.role = role;
        this.fingerprint = fingerprint;
        this.createdAt = now;
    }

    public UUID id() {
        return id;
    }

    public UUID deploymentId() {
        return deploymentId;
    }

    public String decision() {
        return decision;
    }

    public boolean approves() {
        return APPROVE.equals(decision);
    }

    public String comment() {
        return comment;
    }

    public UUID userId() {
        return userId;
    }

    public String userName() {
        return userName;
    }

    public String role() {
        return role;
    }

    public String fingerprint() {
        return fingerprint;
    }

    public Instant createdAt() {
        return createdAt;
    }
}
