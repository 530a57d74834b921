package dev.polystack.platform.envtype;

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

@Path("/api/v1/orgs/{org}/env-types")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Environment types")
public class EnvTypeResource {

    @Inject
    AccessService access;

    @Inject
    EnvTypeService envTypes;

    @GET
    @Operation(operationId = "listEnvTypes", summary = "List environment types")
    public Page<EnvTypeView> list(@PathParam("org") String org, @BeanParam PageRequest page) {
        return envTypes.list(access.require(org, Role.VIEWER), page);
    }

    @POST
    @Operation(operationId = "createEnvType", summary = "Create an environment type (platform engineers)")
    public RestResponse<EnvTypeView> create(
            @PathParam("org") String org, @Valid @NotNull CreateEnvTypeRequest request, @Context UriInfo uriInfo) {
        EnvTypeView created = envTypes.create(access.require(org, Role.PLATFORM_ENGINEER), request);
        return Responses.created(uriInfo, created.id(), created.version(), created);
    }

    @GET
    @Path("/{env_type}")
    @Operation(operationId = "getEnvType", summary = "Get an environment type")
    public RestResponse<EnvTypeView> get(@PathParam("org") String org, @PathParam("env_type") String envType) {
        EnvTypeView view = envTypes.get(access.require(org, Role.VIEWER), envType);
        return Responses.ok(view.version(), view);
    }

    @PUT
    @Path("/{env_type}")
    @Operation(operationId = "updateEnvType", summary = "Update an environment type's description (platform engineers)")
    public RestResponse<EnvTypeView> update(
            @PathParam("org") String org,
            @PathParam("env_type") String envType,
            @HeaderParam("If-Match") String ifMatch,
            @Valid @NotNull UpdateEnvTypeRequest request) {
        EnvTypeView view = envTypes.update(
                access.require(org, Role.PLATFORM_ENGINEER),
                envType,
                request,
                Versions.expected(ifMatch, request.version()));
        return Responses.ok(view.version(), view);
    }

    @DELETE
    @Path("/{env_type}")
    @Operation(
            operationId = "deleteEnvType",
            summary = "Delete an environment type no environment or rule uses (platform engineers)")
    public RestResponse<Void> delete(@PathParam("org") String org, @PathParam("env_type") String envType) {
        envTypes.delete(access.require(org, Role.PLATFORM_ENGINEER), envType);
        return RestResponse.noContent();
    }
}
