package dev.polystack.platform.identity;

import dev.polystack.platform.common.VersionedEntity;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Table;

import java.time.Instant;
import java.util.UUID;

/**
 * Someone who acts: a user (identified by username, and by OIDC issuer + subject once they sign
 * in) or a service user that belongs to one organization.
 */
@Entity
@Table(name = "principal")
public class Principal extends VersionedEntity {

    public enum Kind {
        user,
        service
    }

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, updatable = false)
    private Kind kind;

    private String username;
    private String email;

    @Column(name = "display_name")
    private String displayName;

    @Column(name = "oidc_issuer")
    private String oidcIssuer;

    @Column(name = "oidc_subject")
    private String oidcSubject;

    @Column(name = "org_id", updatable = false)
    private UUID orgId;

    @Column(updatable = false)
    private String slug;

    private String description;

    @Column(name = "instance_admin", nullable = false)
    private boolean instanceAdmin;

    protected Principal() {}

    private Principal(Kind kind, Instant now) {
        super(now);
        this.kind = kind;
    }

    static Principal user(String username, String email, Instant now) {
        Principal p = new Principal(Kind.user, now);
        p.username = username;
        p.email = email;
        return p;
    }

    static Principal instanceAdmin(Instant now) {
        Principal p = user("admin", null, now);
        p.displayName = "Instance administrator";
        p.instanceAdmin = true;
        return p;
    }

    static Principal serviceUser(UUID orgId, String slug, String description, Instant now) {
        Principal p = new Principal(Kind.service, now);
        p.orgId = orgId;
        p.slug = slug;
        p.description = description;
        return p;
    }

    public Kind kind() {
        return kind;
    }

    public String username() {
        return username;
    }

    public String email() {
        return email;
    }

    public String displayName() {
        return displayName;
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

    public boolean isInstanceAdmin() {
        return instanceAdmin;
    }

    /** The name shown in audit records and member lists. */
    public String name() {
        return kind == Kind.user ? username : "service:" + slug;
    }

    String oidcSubject() {
        return oidcSubject;
    }

    /** Links a user to the OIDC identity it signed in with, and refreshes what the token says about it. */
    void signedIn(String issuer, String subject, String email, String displayName, Instant now) {
        this.oidcIssuer = issuer;
        this.oidcSubject = subject;
        if (email != null) {
            this.email = email;
        }
        if (displayName != null) {
            this.displayName = displayName;
        }
        touch(now);
    }

    void describe(String description, Instant now) {
        this.description = description;
        touch(now);
    }
}
