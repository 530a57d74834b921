package dev.polystack.platform.resourcetype;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class ResourceTypeRepository implements PanacheRepositoryBase<ResourceType, UUID> {

    Optional<ResourceType> find(UUID orgId, String slug) {
        return find("orgId = ?1 and slug = ?2", orgId, slug).firstResultOptional();
    }

    List<ResourceType> page(UUID orgId, String after, int limit) {
        return find("orgId = ?1 and slug > ?2 order by slug", orgId, after == null ? "" : after)
                .page(0, limit + 1)
                .list();
    }

    List<ResourceType> all(UUID orgId) {
        return list("orgId", orgId);
    }
}
