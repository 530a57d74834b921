package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.platform.resource.Fingerprint;
import dev.polystack.rules.ResourceIdentity;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.Mutability;
import org.hibernate.type.SqlTypes;
import org.hibernate.type.descriptor.java.Immutability;

import java.time.Instant;
import java.util.UUID;

/**
 * One resource of a deployment. {@code spec} is what the rules engine decided (module version, runner,
 * unresolved inputs and provider configuration); {@code resolved} is the sealed result of resolving it
 * when the node was dispatched.
 */
@Entity
@Table(name = "deployment_node")
// a node is written about three times in its life (queued, running, ended), each time with every column. Hibernate
// batches the updates of one statement, so an advance that queues many nodes at once (a deployment's first layer)
// sends them in one round trip. Updates of only the changed columns (@DynamicUpdate) are never batched: a 500-node
// deployment's create call, in which no job can be claimed yet, sent its first 100 one by one. Each update now sends
// the spec (about 1 KB in the benchmark's nodes) and the sealed inputs again; PostgreSQL writes the whole row anyway.
public class DeploymentNode {

    @Id
    private UUID id;

    @Column(name = "deployment_id", nullable = false, updatable = false)
    private UUID deploymentId;

    @Column(name = "res_type", nullable = false, updatable = false)
    private String resType;

    @Column(name = "res_class", nullable = false, updatable = false)
    private String resClass;

    @Column(name = "res_id", nullable = false, updatable = false)
    private String resId;

    @Column(nullable = false, updatable = false)
    private String path;

    @Column(nullable = false, updatable = false)
    private String operation;

    private String action;

    @Convert(converter = NodeStatus.ColumnConverter.class)
    @Column(nullable = false)
    private NodeStatus status;

    @Column(name = "module_id")
    private UUID moduleId;

    @Column(name = "module_slug")
    private String moduleSlug;

    @Column(name = "module_version")
    private Integer moduleVersion;

    @Column(name = "runner_id")
    private UUID runnerId;

    // JSON values are replaced, never changed in place: marked immutable, Hibernate dirty-checks them by
    // their setter instead of comparing whole trees at every flush (which dominated job ends under load)
    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    private JsonNode spec;

    private byte[] resolved;

    @Column(name = "inputs_digest")
    private String inputsDigest;

    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "digest_parts")
    private JsonNode digestParts;

    @Column(nullable = false)
    private int attempt;

    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "plan_summary")
    private JsonNode planSummary;

    private String error;

    /** What a check found (drift, changes, relevant attributes), as the runner reported it. */
    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "check_report")
    private JsonNode checkReport;

    /** The serial of its resource's state when it was planned for approval (-1: no state yet). */
    @Column(name = "planned_serial")
    private Long plannedSerial;

    @Column(name = "queued_at")
    private Instant queuedAt;

    @Column(name = "started_at")
    private Instant startedAt;

    @Column(name = "finished_at")
    private Instant finishedAt;

    /** Resolved once, copied from an earlier deployment (a rollback), never resolved again. */
    @Column(name = "fixed")
    private boolean fixed;

    @Version
    private long version;

    protected DeploymentNode() {}

    /** Gives a node (of a rollback) the resolution it copies; it is never resolved again. */
    public void preset(byte[] sealedResolved) {
        this.resolved = sealedResolved;
        this.fixed = true;
    }

    /** Whether its resolution was copied from an earlier deployment (a rollback) rather than computed. */
    public boolean fixed() {
        return fixed;
    }

    public DeploymentNode(
            UUID deploymentId,
            ResourceIdentity identity,
            String path,
            NodeOperation operation,
            UUID moduleId,
            String moduleSlug,
            Integer moduleVersion,
            UUID runnerId,
            JsonNode spec) {
        this.id = UUID.randomUUID();
        this.deploymentId = deploymentId;
        this.resType = identity.type();
        this.resClass = identity.resourceClass();
        this.resId = identity.id();
        this.path = path;
        this.operation = operation.wireName();
        this.status = NodeStatus.PENDING;
        this.moduleId = moduleId;
        this.moduleSlug = moduleSlug;
        this.moduleVersion = moduleVersion;
        this.runnerId = runnerId;
        this.spec = spec;
    }

    public UUID id() {
        return id;
    }

    public UUID deploymentId() {
        return deploymentId;
    }

    public ResourceIdentity identity() {
        return new ResourceIdentity(resType, resClass, resId);
    }

    public String path() {
        return path;
    }

    public NodeOperation operation() {
        return NodeOperation.fromWire(operation);
    }

    public String action() {
        return action;
    }

    public NodeStatus status() {
        return status;
    }

    public UUID moduleId() {
        return moduleId;
    }

    public String moduleSlug() {
        return moduleSlug;
    }

    public Integer moduleVersion() {
        return moduleVersion;
    }

    public UUID runnerId() {
        return runnerId;
    }

    public JsonNode spec() {
        return spec.deepCopy();
    }

    public byte[] sealedResolved() {
        return resolved;
    }

    public String resolvedBinding() {
        return "node:" + id;
    }

    public String inputsDigest() {
        return inputsDigest;
    }

    public Fingerprint fingerprint() {
        return inputsDigest == null ? null : new Fingerprint(inputsDigest, digestParts);
    }

    public int attempt() {
        return attempt;
    }

    public JsonNode planSummary() {
        return planSummary;
    }

    public JsonNode checkReport() {
        return checkReport;
    }

    public void reported(JsonNode checkReport) {
        this.checkReport = checkReport;
    }

    public String error() {
        return error;
    }

    public Instant queuedAt() {
        return queuedAt;
    }

    public Instant startedAt() {
        return startedAt;
    }

    public Instant finishedAt() {
        return finishedAt;
    }

    /** Queued with its inputs resolved, or without ({@code null}): they are resolved when its job is claimed. */
    public void queue(String action, NodeResolver.Resolved resolved, Instant now) {
        moveTo(NodeStatus.QUEUED);
        this.action = action;
        if (resolved != null) {
            resolvedForRun(resolved);
        }
        this.attempt++;
        this.queuedAt = now;
    }

    /** Inputs resolved for the run: when it was queued, or when its job was claimed. */
    public void resolvedForRun(NodeResolver.Resolved resolved) {
        this.resolved = resolved.sealed();
        this.inputsDigest = resolved.fingerprint().digest();
        this.digestParts = resolved.fingerprint().parts();
    }

    /** Whether its inputs are still to be resolved (when its job is claimed). */
    public boolean unresolved() {
        return resolved == null;
    }

    /** Another attempt after the runner was lost. */
    public void requeue(Instant now) {
        moveTo(NodeStatus.QUEUED);
        this.attempt++;
        this.queuedAt = now;
    }

    public void run(Instant now) {
        moveTo(NodeStatus.RUNNING);
        this.startedAt = now;
    }

    public void end(NodeStatus outcome, String error, JsonNode planSummary, Instant now) {
        moveTo(outcome);
        this.error = error;
        if (planSummary != null) {
            this.planSummary = planSummary;
        }
        this.finishedAt = now;
    }

    /**
     * Planned for approval: by its plan job ({@code running}), or without one ({@code pending}: a removal, or a
     * change whose inputs are known only after its dependencies apply). It goes on from here once approved, with
     * attempts counted afresh.
     */
    public void planned(JsonNode planSummary, long stateSerial, Instant now) {
        planned(action, planSummary, stateSerial, now);
    }

    /** The same, for a node planned without a job: what it will do once approved ({@code create}, {@code update}, {@code delete}). */
    public void planned(String action, JsonNode planSummary, long stateSerial, Instant now) {
        moveTo(NodeStatus.PLANNED);
        this.action = action;
        this.planSummary = planSummary;
        this.plannedSerial = stateSerial;
        this.attempt = 0;
    }

    public Long plannedSerial() {
        return plannedSerial;
    }

    /** A destroy that finds its resource already gone: done, with nothing to do. */
    public void nothingToDestroy(Instant now) {
        moveTo(NodeStatus.SUCCEEDED);
        this.action = "no-op";
        this.finishedAt = now;
    }

    public void unchanged(byte[] sealedResolved, Fingerprint fingerprint, Instant now) {
        moveTo(NodeStatus.UNCHANGED);
        this.action = "no-op";
        this.resolved = sealedResolved;
        this.inputsDigest = fingerprint.digest();
        this.digestParts = fingerprint.parts();
        this.finishedAt = now;
    }

    private void moveTo(NodeStatus next) {
        if (!status.canMoveTo(next)) {
            throw new IllegalTransitionException("node " + identity(), status.wireName(), next.wireName());
        }
        status = next;
    }
}
