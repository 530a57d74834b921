package dev.polystack.platform.configuration;

import dev.polystack.platform.common.problem.Problems;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.List;

@Path("/api/v1/orgs/{org}/configuration/batch")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Configuration")
public class ConfigurationBatchResource {

    @Inject
    ConfigurationBatch batch;

    /** What each change answered, in order. */
    public record BatchResponse(List<BatchResult> results) {}

    @POST
    @Operation(
            operationId = "applyConfigurationBatch",
            summary = "Make several configuration changes in one transaction: each is the"
                    + " create, update, PATCH or delete call its method and path name, with that call's role and checks; if one fails, none is made"
                    + " (the problem points at it). Environments are deleted one at a time, not here")
    public BatchResponse apply(
            @PathParam("org") String org, @Valid @NotNull BatchRequest request, @Context HttpHeaders headers) {
        return new BatchResponse(
                batch.apply(org, request.changes(), headers.getHeaderString(Problems.REQUEST_ID_HEADER)));
    }
}
