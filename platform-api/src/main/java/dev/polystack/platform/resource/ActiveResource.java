package dev.polystack.platform.resource;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.rules.ResourceIdentity;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.annotations.Mutability;
import org.hibernate.type.SqlTypes;
import org.hibernate.type.descriptor.java.Immutability;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A resource an environment currently has: what provisioned it (module version, runner, the node spec
 * and the digest of its resolved inputs), its outputs (sealed) and the OpenTofu resources in its state.
 * Read as an entity; written by {@link ActiveResourceService#record} in one plain statement.
 */
@Entity
@Table(name = "active_resource")
public class ActiveResource {

    @Id
    private UUID id;

    @Column(name = "environment_id", nullable = false)
    private UUID environmentId;

    @Column(name = "res_type", nullable = false)
    private String resType;

    @Column(name = "res_class", nullable = false)
    private String resClass;

    @Column(name = "res_id", nullable = false)
    private String resId;

    @Column(name = "module_id")
    private UUID moduleId;

    @Column(name = "module_slug", nullable = false)
    private String moduleSlug;

    @Column(name = "module_version", nullable = false)
    private int moduleVersion;

    @Column(name = "runner_id", nullable = false)
    private UUID runnerId;

    // JSON values are replaced, never changed in place: marked immutable, Hibernate dirty-checks them by
    // their setter instead of comparing whole trees at every flush (which dominated job ends under load)
    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    private JsonNode spec;

    @Column(name = "inputs_digest", nullable = false)
    private String inputsDigest;

    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "digest_parts")
    private JsonNode digestParts;

    @Column(nullable = false)
    private byte[] resolved;

    private byte[] outputs;

    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "sensitive_outputs", nullable = false)
    private JsonNode sensitiveOutputs;

    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "tofu_resources", nullable = false)
    private JsonNode tofuResources;

    @Mutability(Immutability.class)
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    private JsonNode dependencies;

    @Column(name = "last_deployment_id")
    private UUID lastDeploymentId;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected ActiveResource() {}

    public ResourceIdentity identity() {
        return new ResourceIdentity(resType, resClass, resId);
    }

    public UUID id() {
        return id;
    }

    public UUID environmentId() {
        return environmentId;
    }

    public UUID moduleId() {
        return moduleId;
    }

    public String moduleSlug() {
        return moduleSlug;
    }

    public int moduleVersion() {
        return moduleVersion;
    }

    public UUID runnerId() {
        return runnerId;
    }

    public JsonNode spec() {
        return spec.deepCopy();
    }

    public String inputsDigest() {
        return inputsDigest;
    }

    public Fingerprint fingerprint() {
        return new Fingerprint(inputsDigest, digestParts);
    }

    /** The sealed resolved inputs of the last apply, bound to {@link #resolvedBinding()}. */
    public byte[] sealedResolved() {
        return resolved;
    }

    public String resolvedBinding() {
        return "resolved:" + environmentId + ":" + identity();
    }

    byte[] sealedOutputs() {
        return outputs;
    }

    public JsonNode sensitiveOutputs() {
        return sensitiveOutputs.deepCopy();
    }

    public JsonNode tofuResources() {
        return tofuResources.deepCopy();
    }

    public List<ResourceDependency> dependencies() {
        return ResourceDependency.read(dependencies);
    }

    public UUID lastDeploymentId() {
        return lastDeploymentId;
    }

    public Instant updatedAt() {
        return updatedAt;
    }

    /** What the outputs are sealed for: this environment's resource, so a ciphertext cannot be moved. */
    String outputsBinding() {
        return outputsBinding(environmentId, identity());
    }

    static String outputsBinding(UUID environmentId, ResourceIdentity identity) {
        return "outputs:" + environmentId + ":" + identity;
    }
}
