package dev.polystack.platform.resourcetype;

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

@Path("/api/v1/orgs/{org}/resource-types")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Resource types")
public class ResourceTypeResource {

    @Inject
    AccessService access;

    @Inject
    ResourceTypeService resourceTypes;

    @GET
    @Operation(operationId = "listResourceTypes", summary = "List resource types")
    public Page<ResourceTypeView> list(@PathParam("org") String org, @BeanParam PageRequest page) {
        return resourceTypes.list(access.require(org, Role.VIEWER), page);
    }

    @POST
    @Operation(
            operationId = "createResourceType",
            summary = "Create a resource type; its output schema must be a valid JSON Schema (platform engineers)")
    public RestResponse<ResourceTypeView> create(
            @PathParam("org") String org, @Valid @NotNull CreateResourceTypeRequest request, @Context UriInfo uriInfo) {
        ResourceTypeView created = resourceTypes.create(access.require(org, Role.PLATFORM_ENGINEER), request);
        return Responses.created(uriInfo, created.id(), created.version(), created);
    }

    @GET
    @Path("/{resource_type}")
    @Operation(operationId = "getResourceType", summary = "Get a resource type")
    public RestResponse<ResourceTypeView> get(@PathParam("org") String org, @PathParam("resource_type") String id) {
        ResourceTypeView view = resourceTypes.get(access.require(org, Role.VIEWER), id);
        return Responses.ok(view.version(), view);
    }

    @PUT
    @Path("/{resource_type}")
    @Operation(operationId = "updateResourceType", summary = "Update a resource type (platform engineers)")
    public RestResponse<ResourceTypeView> update(
            @PathParam("org") String org,
            @PathParam("resource_type") String id,
            @HeaderParam("If-Match") String ifMatch,
            @Valid @NotNull UpdateResourceTypeRequest request) {
        ResourceTypeView view = resourceTypes.update(
                access.require(org, Role.PLATFORM_ENGINEER),
                id,
                request,
                Versions.expected(ifMatch, request.version()));
        return Responses.ok(view.version(), view);
    }

    @DELETE
    @Path("/{resource_type}")
    @Operation(
            operationId = "deleteResourceType",
            summary = "Delete a resource type no module or rule uses (platform engineers)")
    public RestResponse<Void> delete(@PathParam("org") String org, @PathParam("resource_type") String id) {
        resourceTypes.delete(access.require(org, Role.PLATFORM_ENGINEER), id);
        return RestResponse.noContent();
    }
}
