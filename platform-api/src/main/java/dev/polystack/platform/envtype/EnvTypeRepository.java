package dev.polystack.platform.envtype;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class EnvTypeRepository implements PanacheRepositoryBase<EnvType, UUID> {

    Optional<EnvType> find(UUID orgId, String slug) {
        return find("orgId = ?1 and slug = ?2", orgId, slug).firstResultOptional();
    }

    List<EnvType> page(UUID orgId, String after, int limit) {
        return find("orgId = ?1 and slug > ?2 order by slug", orgId, after == null ? "" : after)
                .page(0, limit + 1)
                .list();
    }
}
