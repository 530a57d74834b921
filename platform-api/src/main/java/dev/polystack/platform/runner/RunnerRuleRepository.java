package dev.polystack.platform.runner;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class RunnerRuleRepository implements PanacheRepositoryBase<RunnerRule, UUID> {

    Optional<RunnerRule> find(UUID orgId, UUID id) {
        return find("orgId = ?1 and id = ?2", orgId, id).firstResultOptional();
    }

    /** Oldest first; the sort key is "createdAt|id". */
    List<RunnerRule> page(UUID orgId, UUID runnerId, String after, int limit) {
        Instant createdAt = Instant.EPOCH;
        UUID id = new UUID(0, 0);
        if (after != null) {
            String[] key = after.split("\\|", 2);
            createdAt = Instant.parse(key[0]);
            id = UUID.fromString(key[1]);
        }
        String runnerFilter = runnerId == null ? "" : " and runnerId = ?4";
        return find(
                        "orgId = ?1 and (createdAt > ?2 or (createdAt = ?2 and id > ?3))" + runnerFilter
                                + " order by createdAt, id",
                        runnerId == null
                                ? new Object[] {orgId, createdAt, id}
                                : new Object[] {orgId, createdAt, id, runnerId})
                .page(0, limit + 1)
                .list();
    }

    Optional<RunnerRule> sameCriteria(
            UUID orgId, UUID projectId, UUID envTypeId, UUID envId, UUID resourceTypeId, String resourceClass) {
        return find(
                        "orgId = ?1 and projectId is not distinct from ?2 and envTypeId is not distinct from ?3"
                                + " and envId is not distinct from ?4 and resourceTypeId is not distinct from ?5"
                                + " and resourceClass is not distinct from ?6",
                        orgId,
                        projectId,
                        envTypeId,
                        envId,
                        resourceTypeId,
                        resourceClass)
                .firstResultOptional();
    }

    static String sortKey(RunnerRule rule) {
        return rule.createdAt() + "|" + rule.id();
    }
}
