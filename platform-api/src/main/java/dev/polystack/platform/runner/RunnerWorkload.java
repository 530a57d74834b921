package dev.polystack.platform.runner;

import dev.polystack.platform.common.sql.SqlTimes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The jobs a runner is running now, for its status and for the console. */
@ApplicationScoped
public class RunnerWorkload {

    @Inject
    EntityManager entityManager;

    /**
     * A job a runner holds.
     *
     * @param resource {@code type/class/id}
     */
    public record CurrentJob(
            UUID jobId,
            UUID deploymentId,
            String project,
            String env,
            String resource,
            int attempt,
            Instant claimedAt) {}

    public List<CurrentJob> current(UUID runnerId) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows =
                entityManager.createNativeQuery("""
                        select j.id, j.deployment_id, p.slug, e.slug, n.res_type || '/' || n.res_class || '/' || n.res_id, j.attempt,
                               j.claimed_at
                        from job j
                        join deployment_node n on n.id = j.node_id
                        join deployment d on d.id = j.deployment_id
                        join environment e on e.id = d.environment_id
                        join project p on p.id = e.project_id
                        where j.runner_id = ?1 and j.status = 'running'
                        order by j.claimed_at""").setParameter(1, runnerId).getResultList();
        return rows.stream()
                .map(row -> new CurrentJob(
                        (UUID) row[0],
                        (UUID) row[1],
                        (String) row[2],
                        (String) row[3],
                        (String) row[4],
                        ((Number) row[5]).intValue(),
                        SqlTimes.instant(row[6])))
                .toList();
    }
}
