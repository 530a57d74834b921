package dev.polystack.platform.identity;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class PrincipalRepository implements PanacheRepositoryBase<Principal, UUID> {

    Optional<Principal> findUser(String usernameOrEmail) {
        return find("kind = ?1 and (lower(username) = lower(?2) or lower(email) = lower(?2))",
                Principal.Kind.user, usernameOrEmail).firstResultOptional();
    }

    Optional<Principal> findServiceUser(UUID orgId, String slug) {
        return find("kind = ?1 and orgId = ?2 and slug = ?3", Principal.Kind.service, orgId, slug).firstResultOptional();
    }

    List<Principal> serviceUsers(UUID orgId, String after, int limit) {
        return find("kind = ?1 and orgId = ?2 and slug > ?3 order by slug", Principal.Kind.service, orgId,
                after == null ? "" : after).page(0, limit + 1).list();
    }

    boolean instanceAdminExists() {
        return count("instanceAdmin", true) > 0;
    }
}
