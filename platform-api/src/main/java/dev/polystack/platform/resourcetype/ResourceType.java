package dev.polystack.platform.resourcetype;

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

/** A kind of resource developers can ask for (postgres, redis, dns), with the outputs it promises. */
@Entity
@Table(name = "resource_type")
public class ResourceType extends VersionedEntity {

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(nullable = false, updatable = false)
    private String slug;

    private String description;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "output_schema", nullable = false)
    private JsonNode outputSchema;

    @Column(name = "developer_accessible", nullable = false)
    private boolean developerAccessible;

    @Column(nullable = false)
    private String reconcile = ReconcilePolicy.OBSERVE.wireName();

    @Embedded
    private Management management = Management.none();

    protected ResourceType() {}

    ResourceType(UUID orgId, String slug, Instant now) {
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

    public JsonNode outputSchema() {
        return outputSchema.deepCopy();
    }

    /** What happens to drift of its resources, unless an environment type says otherwise. */
    public ReconcilePolicy reconcile() {
        return ReconcilePolicy.fromWire(reconcile);
    }

    void reconcile(ReconcilePolicy policy) {
        this.reconcile = policy.wireName();
    }

    public boolean developerAccessible() {
        return developerAccessible;
    }

    void define(String description, JsonNode outputSchema, boolean developerAccessible, Instant now) {
        this.description = description;
        this.outputSchema = outputSchema.deepCopy();
        this.developerAccessible = developerAccessible;
        touch(now);
    }

    public Management management() {
        return management;
    }

    public void manage(Management management) {
        this.management = management;
    }
}
