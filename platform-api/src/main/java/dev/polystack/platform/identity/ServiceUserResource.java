package dev.polystack.platform.identity;

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

import java.util.UUID;

@Path("/api/v1/orgs/{org}/service-users")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Service users")
public class ServiceUserResource {

    @Inject
    AccessService access;

    @Inject
    ServiceUserService serviceUsers;

    @GET
    @Operation(operationId = "listServiceUsers", summary = "List service users")
    public Page<ServiceUserView> list(@PathParam("org") String org, @BeanParam PageRequest page) {
        return serviceUsers.list(access.require(org, Role.VIEWER), page);
    }

    @POST
    @Operation(operationId = "createServiceUser", summary = "Create a service user (owners only)")
    public RestResponse<ServiceUserView> create(
            @PathParam("org") String org, @Valid @NotNull CreateServiceUserRequest request, @Context UriInfo uriInfo) {
        ServiceUserView created = serviceUsers.create(access.require(org, Role.OWNER), request);
        return Responses.created(uriInfo, created.id(), created.version(), created);
    }

    @GET
    @Path("/{id}")
    @Operation(operationId = "getServiceUser", summary = "Get a service user")
    public RestResponse<ServiceUserView> get(@PathParam("org") String org, @PathParam("id") String id) {
        ServiceUserView view = serviceUsers.get(access.require(org, Role.VIEWER), id);
        return Responses.ok(view.version(), view);
    }

    @PUT
    @Path("/{id}")
    @Operation(operationId = "updateServiceUser", summary = "Change a service user's role or description (owners only)")
    public RestResponse<ServiceUserView> update(
            @PathParam("org") String org,
            @PathParam("id") String id,
            @HeaderParam("If-Match") String ifMatch,
            @Valid @NotNull UpdateServiceUserRequest request) {
        ServiceUserView view = serviceUsers.update(
                access.require(org, Role.OWNER), id, request, Versions.expected(ifMatch, request.version()));
        return Responses.ok(view.version(), view);
    }

    @DELETE
    @Path("/{id}")
    @Operation(operationId = "deleteServiceUser", summary = "Delete a service user and its tokens (owners only)")
    public RestResponse<Void> delete(@PathParam("org") String org, @PathParam("id") String id) {
        serviceUsers.delete(access.require(org, Role.OWNER), id);
        return RestResponse.noContent();
    }

    @GET
    @Path("/{id}/tokens")
    @Operation(operationId = "listServiceUserTokens", summary = "List a service user's tokens (owners only)")
    public Page<TokenView> listTokens(
            @PathParam("org") String org, @PathParam("id") String id, @BeanParam PageRequest page) {
        return serviceUsers.listTokens(access.require(org, Role.OWNER), id, page);
    }

    @POST
    @Path("/{id}/tokens")
    @Operation(
            operationId = "createServiceUserToken",
            summary = "Create a token for a service user; its value is shown once (owners only)")
    public RestResponse<CreatedTokenView> createToken(
            @PathParam("org") String org,
            @PathParam("id") String id,
            @Valid @NotNull CreateTokenRequest request,
            @Context UriInfo uriInfo) {
        CreatedTokenView created = serviceUsers.issueToken(access.require(org, Role.OWNER), id, request);
        return RestResponse.ResponseBuilder.<CreatedTokenView>created(uriInfo.getAbsolutePathBuilder()
                        .path(created.id().toString())
                        .build())
                .entity(created)
                .build();
    }

    @DELETE
    @Path("/{id}/tokens/{token_id}")
    @Operation(operationId = "revokeServiceUserToken", summary = "Revoke a service user's token (owners only)")
    public TokenView revokeToken(
            @PathParam("org") String org, @PathParam("id") String id, @PathParam("token_id") UUID tokenId) {
        return serviceUsers.revokeToken(access.require(org, Role.OWNER), id, tokenId);
    }
}
