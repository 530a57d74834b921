package dev.polystack.platform.organization;

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

@Path("/api/v1/orgs")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Organizations")
public class OrganizationResource {

    @Inject
    AccessService access;

    @Inject
    OrganizationService organizations;

    @GET
    @Operation(operationId = "listOrgs", summary = "List the organizations you can see")
    public Page<OrganizationView> list(@BeanParam PageRequest page) {
        return organizations.list(access.caller(), page);
    }

    @POST
    @Operation(operationId = "createOrg", summary = "Create an organization (instance administrators only)")
    public RestResponse<OrganizationView> create(
            @Valid @NotNull CreateOrganizationRequest request, @Context UriInfo uriInfo) {
        access.requireInstanceAdmin();
        OrganizationView created = organizations.create(request);
        return Responses.created(uriInfo, created.id(), created.version(), created);
    }

    @GET
    @Path("/{org}")
    @Operation(operationId = "getOrg", summary = "Get an organization")
    public RestResponse<OrganizationView> get(@PathParam("org") String org) {
        OrganizationView view = organizations.get(access.require(org, Role.VIEWER));
        return Responses.ok(view.version(), view);
    }

    @PUT
    @Path("/{org}")
    @Operation(operationId = "updateOrg", summary = "Rename an organization (owners)")
    public RestResponse<OrganizationView> update(
            @PathParam("org") String org,
            @HeaderParam("If-Match") String ifMatch,
            @Valid @NotNull UpdateOrganizationRequest request) {
        OrganizationView view = organizations.update(
                access.require(org, Role.OWNER), request, Versions.expected(ifMatch, request.version()));
        return Responses.ok(view.version(), view);
    }

    @DELETE
    @Path("/{org}")
    @Operation(operationId = "deleteOrg", summary = "Delete an empty organization (instance administrators only)")
    public RestResponse<Void> delete(@PathParam("org") String org) {
        access.requireInstanceAdmin();
        organizations.delete(access.require(org, Role.OWNER));
        return RestResponse.noContent();
    }
}
