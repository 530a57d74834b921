package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.common.VersionedEntity;
import dev.polystack.rules.ResourceIdentity;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.Mutability;
import org.hibernate.type.SqlTypes;
import org.hibernate.type.descriptor.java.Immutability;

import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/** One run of an environment's resources through OpenTofu: plan, deploy, destroy or rollback. */
@Entity
@Table(name = "deployment")
public class Deployment extends VersionedEntity {

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(name = "environment_id", nullable = false, updatable = false)
    private UUID environmentId;

    @Column(nullable = false, updatable = false)
    private String mode;

    @Convert(converter = DeploymentStatus.ColumnConverter.class)
    @Column(nullable = false)
    private DeploymentStatus status;

    @Column(name = "manifest_number", updatable = false)
    private Integer manifestNumber;

    @Column(name = "rollback_of", updatable = false)
    private UUID rollbackOf;

    @Column(nullable = false, updatable = false)
    private boolean force;

    @Column(name = "cancel_requested", nullable = false)
    private boolean cancelRequested;

    @Column(name = "delete_environment", nullable = false, updatable = false)
    private boolean deleteEnvironment;

    @Column(name = "idempotency_key", updatable = false)
    private String idempotencyKey;

    @Column(name = "created_by", updatable = false)
    private UUID createdBy;

    @Column(name = "created_by_name", updatable = false)
    private String createdByName;

    private String error;

    @Column(name = "allow_destroy", nullable = false)
    private boolean allowDestroy;

    /** The only resources it applies (type/class/id), when it is limited to some; null: the whole manifest. */
    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    private List<String> targets;

    /** The issues a reconcile deployment was made for. */
    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    private List<UUID> reconciles;

    @Column(name = "refresh_only", nullable = false)
    private boolean refreshOnly;

    /** The approval settings it runs under (an {@code ApprovalPolicy}, as stored); null: it applies without approval. */
    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    private JsonNode approval;

    @Convert(converter = ApprovalState.ColumnConverter.class)
    @Column(name = "approval_state")
    private ApprovalState approvalState;

    @Column(name = "plan_fingerprint")
    private String planFingerprint;

    @Column(name = "approval_expires_at")
    private Instant approvalExpiresAt;

    @Column(name = "stalled_reason")
    private String stalledReason;

    @Column(name = "stalled_at")
    private Instant stalledAt;

    @Column(name = "started_at")
    private Instant startedAt;

    @Column(name = "finished_at")
    private Instant finishedAt;

    /** When the log retention removed the deployment's logs; set by the cleanup's own statement, never here. */
    @Column(name = "logs_removed_at", insertable = false, updatable = false)
    private Instant logsRemovedAt;

    protected Deployment() {}

    public Deployment(
            UUID orgId,
            UUID environmentId,
            DeploymentMode mode,
            Integer manifestNumber,
            UUID rollbackOf,
            boolean force,
            boolean deleteEnvironment,
            String idempotencyKey,
            UUID createdBy,
            String createdByName,
            Instant now) {
        super(now);
        this.deleteEnvironment = deleteEnvironment;
        this.orgId = orgId;
        this.environmentId = environmentId;
        this.mode = mode.wireName();
        this.status = DeploymentStatus.QUEUED;
        this.manifestNumber = manifestNumber;
        this.rollbackOf = rollbackOf;
        this.force = force;
        this.idempotencyKey = idempotencyKey;
        this.createdBy = createdBy;
        this.createdByName = createdByName;
    }

    public UUID orgId() {
        return orgId;
    }

    public UUID environmentId() {
        return environmentId;
    }

    public DeploymentMode mode() {
        return DeploymentMode.fromWire(mode);
    }

    public DeploymentStatus status() {
        return status;
    }

    public Integer manifestNumber() {
        return manifestNumber;
    }

    public UUID rollbackOf() {
        return rollbackOf;
    }

    public boolean force() {
        return force;
    }

    public boolean cancelRequested() {
        return cancelRequested;
    }

    /** Whether the environment is deleted when this (destroy) deployment succeeds. */
    public boolean deletesEnvironment() {
        return deleteEnvironment;
    }

    public String idempotencyKey() {
        return idempotencyKey;
    }

    /** Who started it; null for what Polystack started itself (a scheduled check, a reconcile). */
    public UUID createdBy() {
        return createdBy;
    }

    public String createdByName() {
        return createdByName;
    }

    public String error() {
        return error;
    }

    public Instant startedAt() {
        return startedAt;
    }

    public Instant finishedAt() {
        return finishedAt;
    }

    public Instant logsRemovedAt() {
        return logsRemovedAt;
    }

    /** A rollback: whether it may destroy live resources that its target did not have. */
    /** The resources it is limited to, or null when it deploys the whole manifest. */
    public Set<ResourceIdentity> targets() {
        if (targets == null) {
            return null;
        }
        Set<ResourceIdentity> identities = new TreeSet<>();
        for (String target : targets) {
            String[] parts = target.split("/", 3);
            identities.add(new ResourceIdentity(parts[0], parts[1], parts[2]));
        }
        return identities;
    }

    public List<UUID> reconciles() {
        return reconciles == null ? List.of() : reconciles;
    }

    /** Limits it to some resources, as the reconcile deployment of these issues. */
    public void reconcile(Set<ResourceIdentity> targets, List<UUID> issues) {
        this.targets = targets.stream().map(ResourceIdentity::toString).sorted().toList();
        this.reconciles = List.copyOf(issues);
    }

    /** For a check: plan with {@code -refresh-only}. */
    public boolean refreshOnly() {
        return refreshOnly;
    }

    public void refreshOnly(boolean refreshOnly) {
        this.refreshOnly = refreshOnly;
    }

    public boolean allowDestroy() {
        return allowDestroy;
    }

    public void allowDestroying() {
        this.allowDestroy = true;
    }

    /** Its approval settings as stored, or null when it needs no approval. */
    public JsonNode approval() {
        return approval;
    }

    /** Where it is on its way through the approval gate; null when it needs no approval. */
    public ApprovalState approvalState() {
        return approvalState;
    }

    /** Whether it is in its first part: planning every resource before it asks for approval. */
    public boolean planning() {
        return approvalState == ApprovalState.PLANNING;
    }

    /** What its approvals are bound to, once it waits for them. */
    public String planFingerprint() {
        return planFingerprint;
    }

    public Instant approvalExpiresAt() {
        return approvalExpiresAt;
    }

    /** Plans first, and applies only once the plan is approved under {@code policy} (stored as given). */
    public void requireApproval(JsonNode policy) {
        this.approval = policy;
        this.approvalState = ApprovalState.PLANNING;
    }

    /** Planned, with changes: it waits for approvals of this plan until {@code expiresAt}. */
    public void awaitApproval(String fingerprint, Instant expiresAt, Instant now) {
        moveTo(DeploymentStatus.AWAITING_APPROVAL, now);
        this.approvalState = ApprovalState.AWAITING;
        this.planFingerprint = fingerprint;
        this.approvalExpiresAt = expiresAt;
    }

    /** Planned without changes: it applies (records what it planned) without waiting. */
    public void approvalNotNeeded(Instant now) {
        this.approvalState = ApprovalState.NOT_NEEDED;
        touch(now);
    }

    /** Approved: it goes on to apply. */
    public void approved(Instant now) {
        moveTo(DeploymentStatus.RUNNING, now);
        this.approvalState = ApprovalState.APPROVED;
    }

    /** It ends without applying: rejected, expired or stale; failed only when stale. */
    public void notApproved(ApprovalState state, String error, Instant now) {
        this.approvalState = state;
        finish(state == ApprovalState.STALE ? DeploymentStatus.FAILED : DeploymentStatus.CANCELLED, error, now);
    }

    /** Why it cannot advance, while it cannot; null otherwise. */
    public String stalledReason() {
        return stalledReason;
    }

    public Instant stalledAt() {
        return stalledAt;
    }

    /** An advance went through: whatever stalled it is over. */
    public void advanced() {
        if (stalledReason != null) {
            stalledReason = null;
            stalledAt = null;
        }
    }

    public void start(Instant now) {
        moveTo(DeploymentStatus.RUNNING, now);
        startedAt = now;
    }

    public void requestCancel(Instant now) {
        cancelRequested = true;
        touch(now);
    }

    public void finish(DeploymentStatus outcome, String error, Instant now) {
        moveTo(outcome, now);
        if (approvalState == ApprovalState.PLANNING || approvalState == ApprovalState.AWAITING) {
            // it ended before anyone decided: nothing was approved
            approvalState = outcome == DeploymentStatus.CANCELLED ? ApprovalState.CANCELLED : ApprovalState.PLAN_FAILED;
        }
        this.error = error;
        finishedAt = now;
    }

    private void moveTo(DeploymentStatus next, Instant now) {
        if (!status.canMoveTo(next)) {
            throw new IllegalTransitionException("deployment " + id(), status.wireName(), next.wireName());
        }
        status = next;
        touch(now);
    }
}
