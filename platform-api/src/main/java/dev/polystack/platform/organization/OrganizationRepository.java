package dev.polystack.platform.organization;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class OrganizationRepository implements PanacheRepositoryBase<Organization, UUID> {

    Optional<Organization> findBySlug(String slug) {
        return find("slug", slug).firstResultOptional();
    }

    List<Organization> page(String after, int limit) {
        return find("slug > ?1 order by slug", after == null ? "" : after).page(0, limit + 1).list();
    }

    List<Organization> pageOf(List<UUID> ids, String after, int limit) {
        return find("id in ?1 and slug > ?2 order by slug", ids, after == null ? "" : after).page(0, limit + 1).list();
    }
}
