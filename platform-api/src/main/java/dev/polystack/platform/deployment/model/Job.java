package dev.polystack.platform.deployment.model;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/**
 * One attempt at running a node on its runner. A claimed job holds a lease that heartbeats extend;
 * its credentials (a random token, stored hashed) open the state backend only while the lease lives.
 */
@Entity
@Table(name = "job")
public class Job {

    @Id
    private UUID id;

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(name = "deployment_id", nullable = false, updatable = false)
    private UUID deploymentId;

    @Column(name = "node_id", nullable = false, updatable = false)
    private UUID nodeId;

    @Column(name = "runner_id", nullable = false, updatable = false)
    private UUID runnerId;

    @Column(nullable = false, updatable = false)
    private int attempt;

    @Convert(converter = JobStatus.ColumnConverter.class)
    @Column(nullable = false)
    private JobStatus status;

    @Column(name = "token_hash")
    private byte[] tokenHash;

    @Column(name = "lease_expires_at")
    private Instant leaseExpiresAt;

    @Column(name = "claimed_at")
    private Instant claimedAt;

    @Column(name = "heartbeat_at")
    private Instant heartbeatAt;

    @Column(name = "finished_at")
    private Instant finishedAt;

    /** 0: a deployment's job; 1: a check's, claimed after every queued 0 of its runner. */
    @Column(nullable = false, updatable = false)
    private short priority;

    /** Only plans its node's change, for approval: never applies, and its result records nothing but the plan. */
    @Column(name = "plan_only", nullable = false, updatable = false)
    private boolean planOnly;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    protected Job() {}

    /** A job of a deployment: claimed before any check job of its runner. */
    public Job(UUID orgId, UUID deploymentId, UUID nodeId, UUID runnerId, int attempt, Instant now) {
        this(orgId, deploymentId, nodeId, runnerId, attempt, false, now);
    }

    /** {@code check}: a check's job, which its runner claims only when it has no deployment job queued. */
    public Job(UUID orgId, UUID deploymentId, UUID nodeId, UUID runnerId, int attempt, boolean check, Instant now) {
        this.priority = (short) (check ? 1 : 0);
        this.id = UUID.randomUUID();
        this.orgId = orgId;
        this.deploymentId = deploymentId;
        this.nodeId = nodeId;
        this.runnerId = runnerId;
        this.attempt = attempt;
        this.status = JobStatus.QUEUED;
        this.createdAt = now;
    }

    /** A job that only plans, in the first part of a deployment that needs approval. */
    public Job planOnly() {
        this.planOnly = true;
        return this;
    }

    public boolean isPlanOnly() {
        return planOnly;
    }

    public UUID id() {
        return id;
    }

    public UUID orgId() {
        return orgId;
    }

    public UUID deploymentId() {
        return deploymentId;
    }

    public UUID nodeId() {
        return nodeId;
    }

    public UUID runnerId() {
        return runnerId;
    }

    public int attempt() {
        return attempt;
    }

    public JobStatus status() {
        return status;
    }

    public Instant leaseExpiresAt() {
        return leaseExpiresAt;
    }

    public Instant claimedAt() {
        return claimedAt;
    }

    byte[] tokenHash() {
        return tokenHash;
    }

    public Instant createdAt() {
        return createdAt;
    }

    /** Whether the job may still act: claimed, and its lease not expired. */
    public boolean holdsLease(Instant now) {
        return status == JobStatus.RUNNING && leaseExpiresAt != null && leaseExpiresAt.isAfter(now);
    }

    public void heartbeat(Instant leaseExpiresAt, Instant now) {
        require(JobStatus.RUNNING);
        this.heartbeatAt = now;
        this.leaseExpiresAt = leaseExpiresAt;
    }

    public void end(JobStatus outcome, Instant now) {
        moveTo(outcome);
        this.finishedAt = now;
    }

    private void moveTo(JobStatus next) {
        if (!status.canMoveTo(next)) {
            throw new IllegalTransitionException("job " + id, status.wireName(), next.wireName());
        }
        status = next;
    }

    private void require(JobStatus expected) {
        if (status != expected) {
            throw new IllegalStateException("job " + id + " is " + status.wireName() + ", not " + expected.wireName());
        }
    }
}
