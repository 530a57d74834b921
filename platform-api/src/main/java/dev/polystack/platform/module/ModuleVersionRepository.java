package dev.polystack.platform.module;

import dev.polystack.platform.common.sql.InTransaction;
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

    /** A module version's id and its sealed secret inputs. */
    record RunRow(UUID id, byte[] sealedSecretInputs) {}

    /**
     * The id and sealed secret inputs of a module version by the module's slug, with a plain statement (claims
     * look one up for every job): no entity, and the session is not flushed first (versions are immutable, and
     * deployment transactions do not create them).
     */
    Optional<RunRow> runRow(UUID orgId, String slug, int number) {
        return InTransaction.queryAll(
                        getEntityManager(),
                        """
                        select v.id, v.secret_inputs from module_version v join module m on m.id = v.module_id
                        where m.org_id = ? and m.slug = ? and v.number = ?""",
                        row -> new RunRow(row.getObject(1, UUID.class), row.getBytes(2)),
                        orgId,
                        slug,
                        number)
                .stream()
                .findFirst();
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
