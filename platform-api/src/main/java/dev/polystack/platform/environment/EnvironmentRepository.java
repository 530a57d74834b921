package dev.polystack.platform.environment;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class EnvironmentRepository implements PanacheRepositoryBase<Environment, UUID> {

    Optional<Environment> find(UUID projectId, String slug) {
        return find("projectId = ?1 and slug = ?2", projectId, slug).firstResultOptional();
    }

    List<Environment> page(UUID projectId, String after, int limit) {
        return find("projectId = ?1 and slug > ?2 order by slug", projectId, after == null ? "" : after)
                .page(0, limit + 1)
                .list();
    }
}
