package dev.polystack.platform.module;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class ModuleRuleRepository implements PanacheRepositoryBase<ModuleRule, UUID> {

    Optional<ModuleRule> find(UUID orgId, UUID id) {
        return find("orgId = ?1 and id = ?2", orgId, id).firstResultOptional();
    }

    /** Oldest first; the sort key is "createdAt|id". */
    List<ModuleRule> page(UUID orgId, UUID moduleId, String after, int limit) {
        Instant createdAt = Instant.EPOCH;
        UUID id = new UUID(0, 0);
        if (after != null) {
            String[] key = after.split("\\|", 2);
            createdAt = Instant.parse(key[0]);
            id = UUID.fromString(key[1]);
        }
        String moduleFilter = moduleId == null ? "" : " and moduleId = ?4";
        var query = find(
                "orgId = ?1 and (createdAt > ?2 or (createdAt = ?2 and id > ?3))" + moduleFilter
                        + " order by createdAt, id",
                moduleId == null ? new Object[] {orgId, createdAt, id} : new Object[] {orgId, createdAt, id, moduleId});
        return query.page(0, limit + 1).list();
    }

    /** A rule with exactly these criteria for a module of the same resource type: the two would always tie. */
    Optional<ModuleRule> sameCriteria(
            UUID orgId,
            UUID resourceTypeId,
            String resourceClass,
            String resourceId,
            UUID projectId,
            UUID envTypeId,
            UUID envId) {
        return getEntityManager()
                .createQuery(
                        "select r from ModuleRule r, Module m where m.id = r.moduleId"
                                + " and r.orgId = ?1 and m.resourceTypeId = ?2 and r.resourceClass is not distinct from ?3"
                                + " and r.resourceId is not distinct from ?4 and r.projectId is not distinct from ?5"
                                + " and r.envTypeId is not distinct from ?6 and r.envId is not distinct from ?7",
                        ModuleRule.class)
                .setParameter(1, orgId)
                .setParameter(2, resourceTypeId)
                .setParameter(3, resourceClass)
                .setParameter(4, resourceId)
                .setParameter(5, projectId)
                .setParameter(6, envTypeId)
                .setParameter(7, envId)
                .setMaxResults(1)
                .getResultStream()
                .findFirst();
    }

    List<ModuleRule> all(UUID orgId) {
        return list("orgId", orgId);
    }

    static String sortKey(ModuleRule rule) {
        return rule.createdAt() + "|" + rule.id();
    }
}
