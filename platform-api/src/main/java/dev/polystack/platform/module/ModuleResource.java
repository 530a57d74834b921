package dev.polystack.platform.module;

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

@Path("/api/v1/orgs/{org}/modules")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Modules")
public class ModuleResource {

    @Inject
    AccessService access;

    @Inject
    ModuleService modules;

    @GET
    @Operation(operationId = "listModules", summary = "List modules, each as of its latest version")
    public Page<ModuleView> list(@PathParam("org") String org, @BeanParam PageRequest page) {
        return modules.list(access.require(org, Role.VIEWER), page);
    }

    @POST
    @Operation(operationId = "createModule", summary = "Create a module; this is its version 1 (platform engineers)")
    public RestResponse<ModuleView> create(
            @PathParam("org") String org, @Valid @NotNull ModuleRequest request, @Context UriInfo uriInfo) {
        ModuleView created = modules.create(access.require(org, Role.PLATFORM_ENGINEER), request);
        return Responses.created(uriInfo, created.id(), created.version(), created);
    }

    @GET
    @Path("/{module}")
    @Operation(operationId = "getModule", summary = "Get a module as of its latest version")
    public RestResponse<ModuleView> get(@PathParam("org") String org, @PathParam("module") String module) {
        ModuleView view = modules.get(access.require(org, Role.VIEWER), module);
        return Responses.ok(view.version(), view);
    }

    @PUT
    @Path("/{module}")
    @Operation(
            operationId = "updateModule",
            summary = "Change a module: makes its next immutable version (platform engineers)")
    public RestResponse<ModuleView> update(
            @PathParam("org") String org,
            @PathParam("module") String module,
            @HeaderParam("If-Match") String ifMatch,
            @Valid @NotNull ModuleRequest request) {
        ModuleView view = modules.update(
                access.require(org, Role.PLATFORM_ENGINEER),
                module,
                request,
                Versions.expected(ifMatch, request.version()));
        return Responses.ok(view.version(), view);
    }

    @DELETE
    @Path("/{module}")
    @Operation(operationId = "deleteModule", summary = "Delete a module no rule uses (platform engineers)")
    public RestResponse<Void> delete(@PathParam("org") String org, @PathParam("module") String module) {
        modules.delete(access.require(org, Role.PLATFORM_ENGINEER), module);
        return RestResponse.noContent();
    }

    @GET
    @Path("/{module}/versions")
    @Operation(operationId = "listModuleVersions", summary = "List a module's versions, newest first")
    public Page<ModuleVersionView> versions(
            @PathParam("org") String org, @PathParam("module") String module, @BeanParam PageRequest page) {
        return modules.versions(access.require(org, Role.VIEWER), module, page);
    }

    @GET
    @Path("/{module}/versions/{version}")
    @Operation(operationId = "getModuleVersion", summary = "Get one version of a module")
    public ModuleVersionView version(
            @PathParam("org") String org, @PathParam("module") String module, @PathParam("version") int version) {
        return modules.version(access.require(org, Role.VIEWER), module, version);
    }
}
