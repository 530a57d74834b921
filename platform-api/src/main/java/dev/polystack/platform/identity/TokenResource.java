package dev.polystack.platform.identity;

import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.security.AccessService;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
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

/** The caller's own API tokens. */
@Path("/api/v1/tokens")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Identity")
public class TokenResource {

    @Inject
    AccessService access;

    @Inject
    TokenService tokens;

    @GET
    @Operation(operationId = "listOwnTokens", summary = "List your own API tokens")
    public Page<TokenView> list(@BeanParam PageRequest page) {
        return tokens.listOwn(access.caller(), page);
    }

    @POST
    @Operation(operationId = "createOwnToken", summary = "Create an API token for yourself; its value is shown once")
    public RestResponse<CreatedTokenView> create(@Valid @NotNull CreateTokenRequest request, @Context UriInfo uriInfo) {
        CreatedTokenView created = tokens.issueOwn(access.caller(), request);
        return RestResponse.ResponseBuilder.<CreatedTokenView>created(uriInfo.getAbsolutePathBuilder()
                        .path(created.id().toString())
                        .build())
                .entity(created)
                .build();
    }

    @DELETE
    @Path("/{token_id}")
    @Operation(operationId = "revokeOwnToken", summary = "Revoke one of your API tokens")
    public TokenView revoke(@PathParam("token_id") UUID tokenId) {
        return tokens.revokeOwn(access.caller(), tokenId);
    }
}
