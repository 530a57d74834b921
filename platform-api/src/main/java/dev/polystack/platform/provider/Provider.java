package dev.polystack.platform.provider;

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

/**
 * A configured OpenTofu provider ({@code aws.default}): its source, version constraint and
 * configuration. Secret configuration values are sealed as one encrypted JSON object.
 */
@Entity
@Table(name = "provider")
public class Provider extends VersionedEntity {

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(name = "provider_type", nullable = false, updatable = false)
    private String providerType;

    @Column(nullable = false, updatable = false)
    private String slug;

    @Column(nullable = false)
    private String source;

    @Column(name = "version_constraint")
    private String versionConstraint;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(nullable = false)
    private JsonNode configuration;

    @Column(name = "secret_configuration")
    private byte[] secretConfiguration;

    @Embedded
    private Management management = Management.none();

    protected Provider() {}

    Provider(UUID orgId, String providerType, String slug, Instant now) {
        super(now);
        this.orgId = orgId;
        this.providerType = providerType;
        this.slug = slug;
    }

    public UUID orgId() {
        return orgId;
    }

    public String providerType() {
        return providerType;
    }

    public String slug() {
        return slug;
    }

    public String source() {
        return source;
    }

    public String versionConstraint() {
        return versionConstraint;
    }

    public JsonNode configuration() {
        return configuration.deepCopy();
    }

    byte[] secretConfiguration() {
        return secretConfiguration;
    }

    /** What the associated data of the sealed secrets is bound to. */
    String secretBinding() {
        return "provider:" + id();
    }

    void define(String source, String versionConstraint, JsonNode configuration, byte[] sealedSecrets, Instant now) {
        this.source = source;
        this.versionConstraint = versionConstraint;
        this.configuration = configuration.deepCopy();
        this.secretConfiguration = sealedSecrets;
        touch(now);
    }

    public Management management() {
        return management;
    }

    public void manage(Management management) {
        this.management = management;
    }
}
