package dev.polystack.platform.deployment.scheduling;

import dev.polystack.platform.common.sql.SqlTimes;
import dev.polystack.platform.envtype.CheckSchedule;
import dev.polystack.platform.runner.RunnerService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;

/** Reads what keeps deployments from moving, across organizations; for instance administrators only. */
@ApplicationScoped
public class EngineDiagnostics {

    private static final int KEPT_FAILURES = 50;
    private static final int LIMIT = 200;

    @Inject
    EntityManager entityManager;

    @Inject
    RunnerService runners;

    @Inject
    Clock clock;

    private final Deque<EngineDiagnosticsView.Failure> failures = new ArrayDeque<>();

    /** Remembers an advance failure of this replica (the newest {@value #KEPT_FAILURES}). */
    void failed(UUID deploymentId, String reason, Instant at) {
        synchronized (failures) {
            failures.addFirst(new EngineDiagnosticsView.Failure(deploymentId, reason, at));
            while (failures.size() > KEPT_FAILURES) {
                failures.removeLast();
            }
        }
    }

    @Transactional
    public EngineDiagnosticsView read(Duration longRunningAfter, Duration waitingAfter) {
        Instant now = clock.instant();
        List<EngineDiagnosticsView.DeploymentEntry> stalled = deployments("d.stalled_reason is not null", null);
        List<EngineDiagnosticsView.DeploymentEntry> longRunning =
                deployments("d.status = 'running' and d.started_at < ?1", now.minus(longRunningAfter));
        @SuppressWarnings("unchecked")
        List<Object[]> queueRows =
                entityManager.createNativeQuery("""
                        select o.slug, p.slug, e.slug, count(*) from deployment d
                        join environment e on e.id = d.environment_id join project p on p.id = e.project_id
                        join organization o on o.id = d.org_id
                        where d.status = 'queued' group by o.slug, p.slug, e.slug order by count(*) desc limit """ + " " + LIMIT).getResultList();
        List<EngineDiagnosticsView.Queue> queues = queueRows.stream()
                .map(r -> new EngineDiagnosticsView.Queue(
                        (String) r[0], (String) r[1], (String) r[2], ((Number) r[3]).longValue()))
                .toList();
        @SuppressWarnings("unchecked")
        List<Object[]> jobRows = entityManager
                .createNativeQuery("""
                        select j.id, j.deployment_id, o.slug, p.slug, e.slug, n.res_type || '/' || n.res_class || '/' || n.res_id,
                               r.slug, n.spec ->> 'runnerRuleId', j.created_at, j.runner_id
                        from job j join deployment_node n on n.id = j.node_id join deployment d on d.id = j.deployment_id
                        join environment e on e.id = d.environment_id join project p on p.id = e.project_id
                        join organization o on o.id = j.org_id join runner r on r.id = j.runner_id
                        where j.status = 'queued' and j.created_at < ?1 order by j.created_at limit """ + " " + LIMIT)
                .setParameter(1, now.minus(waitingAfter))
                .getResultList();
        List<EngineDiagnosticsView.WaitingJob> waiting = new ArrayList<>();
        for (Object[] r : jobRows) {
            waiting.add(new EngineDiagnosticsView.WaitingJob(
                    (UUID) r[0],
                    (UUID) r[1],
                    (String) r[2],
                    (String) r[3],
                    (String) r[4],
                    (String) r[5],
                    (String) r[6],
                    runners.statusOf((UUID) r[9]),
                    (String) r[7],
                    SqlTimes.instant(r[8])));
        }
        List<EngineDiagnosticsView.Failure> recent;
        synchronized (failures) {
            recent = List.copyOf(failures);
        }
        // only while the scheduler still tries: an environment whose checks were turned off since (or that is being
        // deleted) keeps its last reason until a check starts, but nothing will try again
        @SuppressWarnings("unchecked")
        List<Object[]> checkRows = entityManager
                .createNativeQuery("""
                        select o.slug, p.slug, e.slug, e.check_failed_reason, e.check_failed_at from environment e
                        join project p on p.id = e.project_id join organization o on o.id = e.org_id
                        join env_type t on t.id = e.env_type_id
                        where e.check_failed_reason is not null and e.status = 'active' and\s""" + CheckSchedule.ENABLED_SQL + " order by e.check_failed_at desc limit " + LIMIT)
                .getResultList();
        List<EngineDiagnosticsView.CheckNotStarted> checksNotStarted = checkRows.stream()
                .map(r -> new EngineDiagnosticsView.CheckNotStarted(
                        (String) r[0], (String) r[1], (String) r[2], (String) r[3], SqlTimes.instant(r[4])))
                .toList();
        return new EngineDiagnosticsView(stalled, longRunning, queues, waiting, recent, checksNotStarted);
    }

    private List<EngineDiagnosticsView.DeploymentEntry> deployments(String condition, Instant parameter) {
        var query = entityManager.createNativeQuery("""
                select d.id, o.slug, p.slug, e.slug, d.mode, d.status, d.created_at, d.started_at, d.stalled_reason, d.stalled_at
                from deployment d join environment e on e.id = d.environment_id join project p on p.id = e.project_id
                join organization o on o.id = d.org_id
                where\s""" + condition + " order by d.created_at limit " + LIMIT);
        if (parameter != null) {
            query.setParameter(1, parameter);
        }
        @SuppressWarnings("unchecked")
        List<Object[]> rows = query.getResultList();
        return rows.stream()
                .map(r -> new EngineDiagnosticsView.DeploymentEntry(
                        (UUID) r[0],
                        (String) r[1],
                        (String) r[2],
                        (String) r[3],
                        (String) r[4],
                        (String) r[5],
                        SqlTimes.instant(r[6]),
                        SqlTimes.instant(r[7]),
                        (String) r[8],
                        SqlTimes.instant(r[9])))
                .toList();
    }
}
