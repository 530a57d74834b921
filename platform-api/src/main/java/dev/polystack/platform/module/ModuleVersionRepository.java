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

    /** See {@link ModuleRepository#findWithoutFlush}: versions are immutable. */
    Optional<ModuleVersion> findWithoutFlush(UUID moduleId, int number) {
        return find("moduleId = ?1 and number = ?2", moduleId, number).withHint(org.hibernate.jpa.HibernateHints.HINT_FLUSH_MODE, "COMMIT")
                .firstResultOptional();
    }

    /** Newest first; the sort key is the version number. */
    List<ModuleVersion> page(UUID moduleId, Integer before, int limit) {
        return find("moduleId = ?1 and number < ?2 order by number desc", moduleId, before == null ? Integer.MAX_VALUE : before)
                .page(0, limit + 1).list();
    }
}
