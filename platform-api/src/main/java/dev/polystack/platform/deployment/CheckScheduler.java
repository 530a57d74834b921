package dev.polystack.platform.deployment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.platform.envtype.CheckSchedule;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Starts the checks that are due, and the reconciles that could not start when their check ended. An
 * environment whose schedule (its own, else its type's) has an interval is checked that long after its last deployment or check ended, inside the schedule's window, when nothing of
 * it runs or waits. Stateless: every replica runs it, and an environment is taken under its row lock
 * ({@code skip locked}) and looked at again there, so a check is started once whichever replica gets it.
 */
@ApplicationScoped
public class CheckScheduler {

    private static final Logger LOG = Logger.getLogger(CheckScheduler.class);
    private static final int BATCH = 100;

    /**
     * The due environments ({@link #due}): ?1 now, ?2 the batch, ?3 the organization's limit of scheduled checks, ?4
     * who scheduled checks are created by. The count of an organization's running checks is one probe of
     * {@code deployment_running_checks_idx} (V33). Whether an environment has an unfinished deployment is one probe of
     * {@code deployment_active_idx}; whether it had one within its interval is one of
     * {@code deployment_last_activity_idx} (V37), and that probe repeats the index's expression. Whether checks are on,
     * and the interval, are {@link CheckSchedule}'s SQL.
     */
    static final String DUE_ENVIRONMENTS = """
            select e.id, cast(coalesce(e.checks, t.checks) as text)
            from environment e join env_type t on t.id = e.env_type_id
            where e.status = 'active'
              and %1$s
              and exists (select 1 from active_resource r where r.environment_id = e.id)
              and not exists (select 1 from deployment d where d.environment_id = e.id
                              and d.status in ('queued', 'running', 'awaiting_approval'))
              and not exists (select 1 from deployment d where d.environment_id = e.id
                              and coalesce(d.finished_at, d.created_at) > cast(?1 as timestamptz)
                                  - make_interval(mins => %2$s))
              and (select count(*) from deployment c where c.org_id = e.org_id and c.mode = 'check'
                   and c.status in ('queued', 'running')
                   and c.created_by is null and c.created_by_name = ?4) < ?3
            order by e.check_tried_at nulls first, e.id limit ?2
            """.formatted(CheckSchedule.ENABLED_SQL, CheckSchedule.INTERVAL_SQL);

    @Inject
    EntityManager entityManager;

    @Inject
    DeploymentService deployments;

    @Inject
    Reconciler reconciler;

    @Inject
    Clock clock;

    @Inject
    ObjectMapper json;

    @Inject
    CheckSettings settings;

    /** A due environment and its effective schedule. */
    record Due(UUID environmentId, CheckSchedule schedule) {}

    @Scheduled(
            every = "${polystack.checks.schedule-interval:60s}",
            delayed = "${polystack.checks.schedule-interval:60s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            Instant now = clock.instant();
            int started = startDue(now);
            if (started > 0) {
                LOG.infof("Started %d scheduled check(s)", started);
            }
            reconciler.reconcileWaiting(now);
        } catch (RuntimeException e) {
            LOG.warnf("Scheduling checks failed (%s); it runs again shortly", e.getMessage());
        }
    }

    /** Starts every check due at {@code now}; returns how many it started. */
    public int startDue(Instant now) {
        int started = 0;
        List<UUID> looked = new ArrayList<>();
        for (Due due : QuarkusTransaction.requiringNew().call(() -> due(now))) {
            looked.add(due.environmentId());
            try {
                if (due.schedule().allows(now)
                        && QuarkusTransaction.requiringNew()
                                .call(() -> deployments.scheduledCheck(
                                        due.environmentId(), due.schedule(), now, settings.maxPerOrganization()))) {
                    started++;
                }
            } catch (RuntimeException e) {
                failed(due.environmentId(), e, now);
            }
        }
        // looked at: behind every environment not looked at since, whether its check started, had to wait (for its
        // window or its organization's limit) or failed
        if (!looked.isEmpty()) {
            QuarkusTransaction.requiringNew()
                    .run(() -> entityManager
                            .createNativeQuery("update environment set check_tried_at = ?1 where id in (?2)")
                            .setParameter(1, now)
                            .setParameter(2, looked)
                            .executeUpdate());
        }
        return started;
    }

    /**
     * Records that an environment's scheduled check could not start, for the engine's diagnostics, and logs it. The
     * first failure (none recorded since a check last started) is logged as an error with its stack trace and a
     * reference, which the record names, never the error itself (it may quote values); a failure at a later look
     * keeps that record (and its reference) and is one warning line naming it, so an environment that cannot start
     * its checks does not write a stack trace at every look.
     */
    private void failed(UUID environmentId, RuntimeException e, Instant now) {
        String reference = UUID.randomUUID().toString();
        String reason = "could not start: an unexpected error (log reference " + reference + ")";
        String recorded = null;
        try {
            recorded = QuarkusTransaction.requiringNew().call(() -> (String) entityManager
                    .createNativeQuery("""
                            update environment e set check_failed_reason = coalesce(old.check_failed_reason, ?1),
                                check_failed_at = ?2
                            from environment old where e.id = ?3 and old.id = e.id
                            returning coalesce(old.check_failed_reason, '')""")
                    .setParameter(1, reason)
                    .setParameter(2, now)
                    .setParameter(3, environmentId)
                    .getResultStream()
                    .findFirst()
                    .filter(earlier -> !earlier.equals(""))
                    .orElse(null));
        } catch (RuntimeException again) {
            LOG.warnf(
                    "Could not record that the check of environment %s could not start: %s",
                    environmentId, again.getMessage());
        }
        if (recorded == null) {
            LOG.errorf(
                    e,
                    "Could not start the scheduled check of environment %s (reference %s); it is tried again at a"
                            + " later look",
                    environmentId,
                    reference);
        } else {
            LOG.warnf(
                    "The scheduled check of environment %s still could not start (%s; recorded: %s); it is tried"
                            + " again at a later look",
                    environmentId, e.getClass().getSimpleName(), recorded);
        }
    }

    /**
     * Environments whose interval has passed since their last deployment or check, with nothing running or waiting,
     * of organizations that run fewer scheduled checks than they may (checks a person asked for are not counted),
     * those looked at least recently first: environments outside their window or whose check cannot start would
     * otherwise fill every batch, and the environments after them would never be looked at.
     */
    private List<Due> due(Instant now) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = entityManager
                .createNativeQuery(DUE_ENVIRONMENTS)
                .setParameter(1, now)
                .setParameter(2, BATCH)
                .setParameter(3, settings.maxPerOrganization())
                .setParameter(4, DeploymentService.SCHEDULED_CHECK)
                .getResultList();
        List<Due> due = new ArrayList<>();
        for (Object[] row : rows) {
            try {
                due.add(new Due((UUID) row[0], CheckSchedule.fromJson(json.readTree((String) row[1]))));
            } catch (JsonProcessingException e) {
                LOG.warnf(
                        "Environment %s has a check schedule that cannot be read: %s", row[0], e.getOriginalMessage());
            }
        }
        return due;
    }
}
