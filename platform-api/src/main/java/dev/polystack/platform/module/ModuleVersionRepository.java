package dev.polystack.platform.module;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import org.hibernate.jpa.HibernateHints;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class ModuleVersionRepository implements PanacheRepositoryBase<ModuleVersion, UUID> {

    Optional<ModuleVersion> find(UUID moduleId, int number) {
        return find("moduleId = ?1 and number = ?2", moduleId, number).firstResultOptional();
    }

    /**
     * A version of a module by the module's slug, in one statement (claims look one up for every job), without
     * flushing the session first: deployment transactions never change modules but hold nodes whose flush would
     * cost more than the query, and versions are immutable.
     */
    Optional<ModuleVersion> findWithoutFlush(UUID orgId, String slug, int number) {
        return find(
                        "number = ?3 and moduleId = (select m.id from Module m where m.orgId = ?1 and m.slug = ?2)",
                        orgId,
                        slug,
                        number)
                .withHint(HibernateHints.HINT_FLUSH_MODE, "COMMIT")
                .firstResultOptional();
    }

    /** Newest first; the sort key is the version number. */
    List<ModuleVersion> page(UUID moduleId, Integer before, int limit) {
        return find(
                        "moduleId = ?1 and number < ?2 order by number desc",
                        moduleId,
                        before == null ? Integer.MAX_VALUE : before)
                .page(0, limit + 1)
                .list();
    }
}
