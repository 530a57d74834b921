package dev.polystack.platform.state;

import java.util.Optional;

/**
 * Checks the HTTP Basic credentials a job sends to the state backend. The jobs feature implements it,
 * so that the state backend needs nothing of deployments.
 */
public interface StateCredentials {

    /** The access that a job's id and token give, or empty when they do not belong together. */
    Optional<StateAccess> access(String jobId, String token);
}
