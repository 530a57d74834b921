package dev.polystack.platform.module;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.Instant;
import java.util.UUID;

/** One immutable definition of a module. Deployments record which version they used. */
@Entity
@Immutable
@Table(name = "module_version")
public class ModuleVersion {

    @Id
    private UUID id;

    @Column(name = "module_id", nullable = false)
    private UUID moduleId;

    @Column(nullable = false)
    private int number;

    @Column(name = "module_source", nullable = false)
    private String moduleSource;

    @Column(name = "module_source_code")
    private String moduleSourceCode;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "module_params", nullable = false)
    private JsonNode moduleParams;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "module_inputs", nullable = false)
    private JsonNode moduleInputs;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "provider_mapping", nullable = false)
    private JsonNode providerMapping;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    private JsonNode dependencies;

    @Column(name = "secret_inputs")
    private byte[] secretInputs;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "module_interface")
    private JsonNode moduleInterface;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "created_by")
    private UUID createdBy;

    protected ModuleVersion() {}

    ModuleVersion(
            UUID id,
            UUID moduleId,
            int number,
            ModuleDefinition definition,
            byte[] sealedSecretInputs,
            JsonNode moduleInterface,
            UUID createdBy,
            Instant now) {
        this.id = id;
        this.moduleInterface = moduleInterface;
        this.secretInputs = sealedSecretInputs;
        this.moduleId = moduleId;
        this.number = number;
        this.moduleSource = definition.moduleSource();
        this.moduleSourceCode = definition.moduleSourceCode();
        this.moduleParams = definition.moduleParams();
        this.moduleInputs = definition.moduleInputs();
        this.providerMapping = definition.providerMapping();
        this.dependencies = definition.dependencies();
        this.createdBy = createdBy;
        this.createdAt = now;
    }

    public UUID id() {
        return id;
    }

    public UUID moduleId() {
        return moduleId;
    }

    public int number() {
        return number;
    }

    byte[] sealedSecretInputs() {
        return secretInputs;
    }

    /** What the sealed secret inputs are bound to. */
    static String secretBinding(UUID versionId) {
        return "module-version:" + versionId;
    }

    /** What the code declares, as read when the version was saved; null for versions saved before that was done. */
    JsonNode moduleInterface() {
        return moduleInterface == null ? null : moduleInterface.deepCopy();
    }

    public Instant createdAt() {
        return createdAt;
    }

    public ModuleDefinition definition() {
        return new ModuleDefinition(
                moduleSource,
                moduleSourceCode,
                moduleParams.deepCopy(),
                moduleInputs.deepCopy(),
                providerMapping.deepCopy(),
                dependencies.deepCopy());
    }
}
