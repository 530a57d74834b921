package dev.polystack.platform.identity;

import dev.polystack.platform.common.VersionedEntity;
import dev.polystack.platform.security.Role;
import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/** A principal's role in one organization. */
@Entity
@Table(name = "membership")
public class Membership extends VersionedEntity {

    @Column(name = "org_id", nullable = false, updatable = false)
    private UUID orgId;

    @Column(name = "principal_id", nullable = false, updatable = false)
    private UUID principalId;

    @Convert(converter = Role.ColumnConverter.class)
    @Column(nullable = false)
    private Role role;

    /** manual (added by an owner) or oidc (derived from the token's groups at sign-in). */
    @Column(nullable = false)
    private String source = "manual";

    protected Membership() {}

    Membership(UUID orgId, UUID principalId, Role role, Instant now) {
        super(now);
        this.orgId = orgId;
        this.principalId = principalId;
        this.role = role;
    }

    public UUID orgId() {
        return orgId;
    }

    public UUID principalId() {
        return principalId;
    }

    public Role role() {
        return role;
    }

    boolean isFromOidc() {
        return "oidc".equals(source);
    }

    static Membership fromOidc(UUID orgId, UUID principalId, Role role, Instant now) {
        Membership membership = new Membership(orgId, principalId, role, now);
        membership.source = "oidc";
        return membership;
    }

    void changeRole(Role role, Instant now) {
        this.role = role;
        touch(now);
    }
}
