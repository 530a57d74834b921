package dev.polystack.platform.deployment;

import dev.polystack.platform.common.sql.ScalarQueries;
import dev.polystack.platform.deployment.scheduling.CheckFinished;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Hands drift to reconcile deployments where the policy is {@code auto}: as soon as a check's findings are
 * committed, and on every scheduler tick for what could not start then (a deployment was running, the
 * replica stopped). A deployment running or waiting in the environment always goes first.
 */
@ApplicationScoped
public class Reconciler {

    private static final Logger LOG = Logger.getLogger(Reconciler.class);

    @Inject
    EntityManager entityManager;

    @Inject
    DeploymentService deployments;

    @Inject
    Clock clock;

    void onCheckFinished(@Observes CheckFinished event) {
        try {
            reconcile(event.environmentId(), clock.instant());
        } catch (RuntimeException e) {
            LOG.warnf(
                    "Could not start the reconcile of environment %s after its check: %s (the next check scheduling tries again)",
                    event.environmentId(), e.getMessage());
        }
    }

    /** Starts the reconcile of one environment when it has auto drift waiting; its id, or empty. */
    public Optional<UUID> reconcile(UUID environmentId, Instant now) {
        Optional<UUID> started =
                QuarkusTransaction.requiringNew().call(() -> deployments.reconcile(environmentId, now));
        started.ifPresent(id -> LOG.infof("Created reconcile deployment %s of environment %s", id, environmentId));
        return started;
    }

    /** Starts the reconciles of every environment with auto drift waiting; how many it started. */
    public int reconcileWaiting(Instant now) {
        List<UUID> environments = QuarkusTransaction.requiringNew()
                .call(() -> ScalarQueries.of(
                                entityManager,
                                "select distinct w.environment_id from (" + DeploymentService.RECONCILE_WAITING
                                        + ") w limit 100",
                                "environment_id",
                                UUID.class)
                        .getResultList());
        int started = 0;
        for (UUID environment : environments) {
            try {
                if (reconcile(environment, now).isPresent()) {
                    started++;
                }
            } catch (RuntimeException e) {
                LOG.warnf("Could not start the reconcile of environment %s: %s", environment, e.getMessage());
            }
        }
        return started;
    }
}
