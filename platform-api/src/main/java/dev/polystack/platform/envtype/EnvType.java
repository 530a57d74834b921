package dev.polystack.platform.envtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.VersionedEntity;
import dev.polystack.platform.resourcetype.ReconcilePolicy;
import jakarta.persistence.Column;
import jakarta.persistence.Embedded;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.Mutability;
import org.hibernate.type.SqlTypes;
import org.hibernate.type.descriptor.java.Immutability;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/** A kind of environment (development, staging, production) that rules can target. */
@Entity
@Table(name = "env_type")
public class EnvType extends VersionedEntity {

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(nullable = false, updatable = false)
    private String slug;

    private String description;

    @Embedded
    private Management management = Management.none();

    /** When it is checked without being asked ({@link CheckSchedule}, as stored). */
    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    private JsonNode checks;

    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    private JsonNode reconcile;

    /** Who approves its deployments ({@link ApprovalPolicy}, as stored); null: the defaults, and deployments are not gated. */
    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    private JsonNode approval;

    protected EnvType() {}

    EnvType(UUID orgId, String slug, String description, Instant now) {
        super(now);
        this.orgId = orgId;
        this.slug = slug;
        this.description = description;
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

    void describe(String description, Instant now) {
        this.description = description;
        touch(now);
    }

    /** What happens to drift, by resource type, where this type of environment overrides the resource type's policy. */
    public Map<String, ReconcilePolicy> reconcile() {
        Map<String, ReconcilePolicy> policies = new TreeMap<>();
        if (reconcile != null) {
            reconcile
                    .fields()
                    .forEachRemaining(e -> policies.put(
                            e.getKey(), ReconcilePolicy.fromWire(e.getValue().asText())));
        }
        return policies;
    }

    void reconcile(Map<String, ReconcilePolicy> policies) {
        if (policies == null || policies.isEmpty()) {
            this.reconcile = null;
            return;
        }
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        new TreeMap<>(policies).forEach((type, policy) -> json.put(type, policy.wireName()));
        this.reconcile = json;
    }

    public CheckSchedule checks() {
        return CheckSchedule.fromJson(checks);
    }

    void scheduleChecks(CheckSchedule schedule) {
        this.checks = schedule == null ? null : schedule.toJson();
    }

    /** Its approval settings, with defaults filled in; null when it has none. */
    public ApprovalPolicy approval() {
        return ApprovalPolicy.fromJson(approval);
    }

    void requireApproval(ApprovalPolicy policy) {
        this.approval = policy == null || policy.isEmpty() ? null : policy.toJson();
    }

    public Management management() {
        return management;
    }

    public void manage(Management management) {
        this.management = management;
    }
}
