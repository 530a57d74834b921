package dev.polystack.platform.provider;

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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

@Path("/api/v1/orgs/{org}/providers")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Providers")
public class ProviderResource {

    @Inject
    AccessService access;

    @Inject
    ProviderService providers;

    @GET
    @Operation(operationId = "listProviders", summary = "List providers, optionally of one provider type")
    public Page<ProviderView> list(
            @PathParam("org") String org,
            @QueryParam("provider_type") String providerType,
            @BeanParam PageRequest page) {
        return providers.list(access.require(org, Role.VIEWER), providerType, page);
    }

    @POST
    @Operation(operationId = "createProvider", summary = "Create a provider (platform engineers)")
    public RestResponse<ProviderView> create(
            @PathParam("org") String org, @Valid @NotNull ProviderRequest request, @Context UriInfo uriInfo) {
        ProviderView created = providers.create(access.require(org, Role.PLATFORM_ENGINEER), request);
        return Responses.created(uriInfo, created.providerType() + "/" + created.id(), created.version(), created);
    }

    @GET
    @Path("/{provider_type}/{id}")
    @Operation(operationId = "getProvider", summary = "Get a provider; secret values are masked")
    public RestResponse<ProviderView> get(
            @PathParam("org") String org, @PathParam("provider_type") String providerType, @PathParam("id") String id) {
        ProviderView view = providers.get(access.require(org, Role.VIEWER), providerType, id);
        return Responses.ok(view.version(), view);
    }

    @PUT
    @Path("/{provider_type}/{id}")
    @Operation(operationId = "updateProvider", summary = "Replace a provider's definition (platform engineers)")
    public RestResponse<ProviderView> update(
            @PathParam("org") String org,
            @PathParam("provider_type") String providerType,
            @PathParam("id") String id,
            @HeaderParam("If-Match") String ifMatch,
            @Valid @NotNull ProviderRequest request) {
        ProviderView view = providers.update(
                access.require(org, Role.PLATFORM_ENGINEER),
                providerType,
                id,
                request,
                Versions.expected(ifMatch, request.version()));
        return Responses.ok(view.version(), view);
    }

    @DELETE
    @Path("/{provider_type}/{id}")
    @Operation(operationId = "deleteProvider", summary = "Delete a provider no module maps (platform engineers)")
    public RestResponse<Void> delete(
            @PathParam("org") String org, @PathParam("provider_type") String providerType, @PathParam("id") String id) {
        providers.delete(access.require(org, Role.PLATFORM_ENGINEER), providerType, id);
        return RestResponse.noContent();
    }
}
