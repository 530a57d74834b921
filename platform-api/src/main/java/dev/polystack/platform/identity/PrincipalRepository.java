package dev.polystack.platform.identity;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class PrincipalRepository implements PanacheRepositoryBase<Principal, UUID> {

    Optional<Principal> findUser(String usernameOrEmail) {
        return find(
                        "kind = ?1 and (lower(username) = lower(?2) or lower(email) = lower(?2))",
                        Principal.Kind.user,
                        usernameOrEmail)
                .firstResultOptional();
    }

    Optional<Principal> findServiceUser(UUID orgId, String slug) {
        return find("kind = ?1 and orgId = ?2 and slug = ?3", Principal.Kind.service, orgId, slug)
                .firstResultOptional();
    }

    List<Principal> serviceUsers(UUID orgId, String after, int limit) {
        return find(
                        "kind = ?1 and orgId = ?2 and slug > ?3 order by slug",
                        Principal.Kind.service,
                        orgId,
                        after == null ? "" : after)
                .page(0, limit + 1)
                .list();
    }

    Optional<Principal> findByOidc(String issuer, String subject) {
        return find("oidcIssuer = ?1 and oidcSubject = ?2", issuer, subject).firstResultOptional();
    }

    /** A user added by username or email who has not signed in yet. */
    Optional<Principal> findUnlinked(String username, String email) {
        if (username != null) {
            Optional<Principal> byName = find(
                            "kind = ?1 and lower(username) = lower(?2) and oidcSubject is null",
                            Principal.Kind.user,
                            username)
                    .firstResultOptional();
            if (byName.isPresent()) {
                return byName;
            }
        }
        return email == null
                ? Optional.empty()
                : find("kind = ?1 and lower(email) = lower(?2) and oidcSubject is null", Principal.Kind.user, email)
                        .firstResultOptional();
    }

    boolean usernameTaken(String username) {
        return count("kind = ?1 and lower(username) = lower(?2)", Principal.Kind.user, username) > 0;
    }

    boolean instanceAdminExists() {
        return count("instanceAdmin", true) > 0;
    }
}
