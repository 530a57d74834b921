package dev.polystack.platform.runner;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.util.UUID;

/** How many jobs a runner is running, for its status. */
@ApplicationScoped
public class RunnerWorkload {

    @Inject
    EntityManager entityManager;

    public long running(UUID runnerId) {
        return ((Number) entityManager.createNativeQuery("select count(*) from job where runner_id = ?1 and status = 'running'")
                .setParameter(1, runnerId).getSingleResult()).longValue();
    }
}
