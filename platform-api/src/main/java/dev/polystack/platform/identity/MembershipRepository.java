package dev.polystack.platform.identity;

import dev.polystack.platform.security.Role;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class MembershipRepository implements PanacheRepositoryBase<Membership, UUID> {

    Optional<Membership> find(UUID orgId, UUID principalId) {
        return find("orgId = ?1 and principalId = ?2", orgId, principalId).firstResultOptional();
    }

    List<Membership> ofPrincipal(UUID principalId) {
        return list("principalId", principalId);
    }

    long owners(UUID orgId) {
        return count("orgId = ?1 and role = ?2", orgId, Role.OWNER);
    }

    /** Memberships of users (not service users) in an organization, ordered by username. */
    List<Object[]> users(UUID orgId, String after, int limit) {
        return getEntityManager()
                .createQuery("""
                        select m, p from Membership m, Principal p
                        where m.principalId = p.id and m.orgId = ?1 and p.kind = ?2 and lower(p.username) > ?3
                        order by lower(p.username)""", Object[].class)
                .setParameter(1, orgId)
                .setParameter(2, Principal.Kind.user)
                .setParameter(3, after == null ? "" : after)
                .setMaxResults(limit + 1)
                .getResultList();
    }
}
