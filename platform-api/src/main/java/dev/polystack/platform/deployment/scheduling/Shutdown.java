package dev.polystack.platform.deployment.scheduling;

import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** Whether the application is shutting down: work that fails then is not a fault of the deployment. */
@ApplicationScoped
public class Shutdown {

    private volatile boolean started;

    void onShutdown(@Observes ShutdownEvent event) {
        started = true;
    }

    boolean started() {
        return started;
    }
}
