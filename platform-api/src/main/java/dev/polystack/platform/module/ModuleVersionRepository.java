package dev.polystack.platform.module;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class ModuleVersionRepository implements PanacheRepositoryBase<ModuleVersion, UUID> {

    Optional<ModuleVersion> find(UUID moduleId, int number) {
        return find("moduleId = ?1 and number = ?2", moduleId, number).firstResultOptional();
    }

    /** Newest first; the sort key is the version number. */
    List<ModuleVersion> page(UUID moduleId, Integer before, int limit) {
        return find("moduleId = ?1 and number < ?2 order by number desc", moduleId, before == null ? Integer.MAX_VALUE : before)
                .page(0, limit + 1).list();
    }
}
