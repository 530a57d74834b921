package dev.polystack.platform.organization;

import dev.polystack.platform.common.sql.Autocommit;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class OrganizationRepository implements PanacheRepositoryBase<Organization, UUID> {

    @Inject
    Autocommit autocommit;

    /** An organization's id by its slug, in one statement outside any transaction: nearly every request asks. */
    Optional<UUID> idBySlug(String slug) {
        return autocommit.first(
                "select id from organization where slug = ?", row -> row.getObject(1, UUID.class), slug);
    }

    Optional<Organization> findBySlug(String slug) {
        return find("slug", slug).firstResultOptional();
    }

    List<Organization> page(String after, int limit) {
        return find("slug > ?1 order by slug", after == null ? "" : after)
                .page(0, limit + 1)
                .list();
    }

    List<Organization> pageOf(List<UUID> ids, String after, int limit) {
        return find("id in ?1 and slug > ?2 order by slug", ids, after == null ? "" : after)
                .page(0, limit + 1)
                .list();
    }
}
