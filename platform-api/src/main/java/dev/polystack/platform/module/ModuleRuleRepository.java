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
        var query = find("orgId = ?1 and (createdAt > ?2 or (createdAt = ?2 and id > ?3))" + moduleFilter
                + " order by createdAt, id", moduleId == null
                ? new Object[]{orgId, createdAt, id} : new Object[]{orgId, createdAt, id, moduleId});
        return query.page(0, limit + 1).list();
    }

    Optional<ModuleRule> sameCriteria(UUID orgId, String resourceClass, String resourceId, UUID projectId,
                                      UUID envTypeId, UUID envId) {
        return find("orgId = ?1 and resourceClass is not distinct from ?2 and resourceId is not distinct from ?3"
                        + " and projectId is not distinct from ?4 and envTypeId is not distinct from ?5"
                        + " and envId is not distinct from ?6",
                orgId, resourceClass, resourceId, projectId, envTypeId, envId).firstResultOptional();
    }

    List<ModuleRule> all(UUID orgId) {
        return list("orgId", orgId);
    }

    static String sortKey(ModuleRule rule) {
        return rule.createdAt() + "|" + rule.id();
    }
}
