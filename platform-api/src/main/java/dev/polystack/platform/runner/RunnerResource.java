package dev.polystack.platform.runner;

import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.common.web.Responses;
import dev.polystack.platform.common.web.Versions;
import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

@Path("/api/v1/orgs/{org}/runners")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Runners")
public class RunnerResource {

    @Inject
    AccessService access;

    @Inject
    RunnerService runners;

    @GET
    @Operation(operationId = "listRunners", summary = "List runners with their status")
    public Page<RunnerView> list(@PathParam("org") String org, @BeanParam PageRequest page) {
        return runners.list(access.require(org, Role.VIEWER), page);
    }

    @POST
    @Operation(
            operationId = "createRunner",
            summary = "Register a runner by its Ed25519 public key (platform engineers)")
    public RestResponse<RunnerView> create(
            @PathParam("org") String org, @Valid @NotNull RunnerRequest request, @Context UriInfo uriInfo) {
        RunnerView created = runners.create(access.require(org, Role.PLATFORM_ENGINEER), request);
        return Responses.created(uriInfo, created.id(), created.version(), created);
    }

    @GET
    @Path("/{runner}")
    @Operation(operationId = "getRunner", summary = "Get a runner")
    public RestResponse<RunnerView> get(@PathParam("org") String org, @PathParam("runner") String runner) {
        RunnerView view = runners.get(access.require(org, Role.VIEWER), runner);
        return Responses.ok(view.version(), view);
    }

    @PUT
    @Path("/{runner}")
    @Operation(
            operationId = "updateRunner",
            summary = "Replace a runner's key, labels or capacity (platform engineers)")
    public RestResponse<RunnerView> update(
            @PathParam("org") String org,
            @PathParam("runner") String runner,
            @HeaderParam("If-Match") String ifMatch,
            @Valid @NotNull RunnerRequest request) {
        RunnerView view = runners.update(
                access.require(org, Role.PLATFORM_ENGINEER),
                runner,
                request,
                Versions.expected(ifMatch, request.version()));
        return Responses.ok(view.version(), view);
    }

    @DELETE
    @Path("/{runner}")
    @Operation(operationId = "deleteRunner", summary = "Delete a runner no rule uses (platform engineers)")
    public RestResponse<Void> delete(@PathParam("org") String org, @PathParam("runner") String runner) {
        runners.delete(access.require(org, Role.PLATFORM_ENGINEER), runner);
        return RestResponse.noContent();
    }
}
