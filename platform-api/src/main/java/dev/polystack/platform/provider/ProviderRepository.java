package dev.polystack.platform.provider;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class ProviderRepository implements PanacheRepositoryBase<Provider, UUID> {

    Optional<Provider> find(UUID orgId, String providerType, String slug) {
        return find("orgId = ?1 and providerType = ?2 and slug = ?3", orgId, providerType, slug)
                .firstResultOptional();
    }

    /** Ordered by "type.slug", optionally of one provider type. */
    List<Provider> page(UUID orgId, String providerType, String after, int limit) {
        String key = after == null ? "" : after;
        if (providerType == null) {
            return find("orgId = ?1 and concat(providerType, '.', slug) > ?2 order by providerType, slug", orgId, key)
                    .page(0, limit + 1)
                    .list();
        }
        return find(
                        "orgId = ?1 and providerType = ?2 and concat(providerType, '.', slug) > ?3 order by slug",
                        orgId,
                        providerType,
                        key)
                .page(0, limit + 1)
                .list();
    }
}
