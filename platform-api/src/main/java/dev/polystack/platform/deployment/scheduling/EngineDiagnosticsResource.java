package dev.polystack.platform.deployment.scheduling;

import dev.polystack.platform.common.web.Durations;
import dev.polystack.platform.security.AccessService;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.time.Duration;

@Path("/api/v1/admin/engine")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Administration")
public class EngineDiagnosticsResource {

    @Inject
    AccessService access;

    @Inject
    EngineDiagnostics diagnostics;

    @GET
    @Operation(
            operationId = "getEngineDiagnostics",
            summary = "Why deployments do not move: stalled and long-running deployments,"
                    + " queues, jobs no runner took, recent advance failures (instance administrators only)")
    public EngineDiagnosticsView get(
            @QueryParam("long_running_after") String longRunningAfter,
            @QueryParam("waiting_after") String waitingAfter) {
        access.requireInstanceAdmin();
        return diagnostics.read(
                Durations.parse(longRunningAfter, Duration.ofMinutes(30), Duration.ofDays(30), "long_running_after"),
                Durations.parse(waitingAfter, Duration.ofSeconds(60), Duration.ofDays(30), "waiting_after"));
    }
}
