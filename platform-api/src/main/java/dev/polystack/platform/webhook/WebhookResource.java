package dev.polystack.platform.webhook;

import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
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
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

import java.util.UUID;

/** An organization's webhook subscriptions and their delivery logs (platform engineers and owners). */
@Path("/api/v1/orgs/{org}/webhooks")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Webhooks")
public class WebhookResource {

    @Inject
    AccessService access;

    @Inject
    WebhookService webhooks;

    @POST
    @Operation(
            operationId = "createWebhook",
            summary = "Subscribe an address to events; a signed test delivery (ping) follows at once")
    @APIResponse(
            responseCode = "201",
            description = "The subscription, with its signing secret (shown this once)",
            content = @Content(schema = @Schema(implementation = WebhookView.class)))
    public Response create(
            @PathParam("org") String org, @Valid @NotNull CreateWebhookRequest request, @Context UriInfo uriInfo) {
        WebhookView created = webhooks.create(access.require(org, Role.PLATFORM_ENGINEER), request);
        return Response.created(uriInfo.getAbsolutePathBuilder()
                        .path(created.id().toString())
                        .build())
                .entity(created)
                .build();
    }

    @GET
    @Operation(operationId = "listWebhooks", summary = "The organization's webhook subscriptions")
    public Page<WebhookView> list(@PathParam("org") String org, @BeanParam PageRequest page) {
        return webhooks.list(access.require(org, Role.PLATFORM_ENGINEER), page);
    }

    @GET
    @Path("/{id}")
    @Operation(operationId = "getWebhook", summary = "A webhook subscription (without its secret)")
    public WebhookView get(@PathParam("org") String org, @PathParam("id") UUID id) {
        return webhooks.get(access.require(org, Role.PLATFORM_ENGINEER), id);
    }

    @DELETE
    @Path("/{id}")
    @Operation(operationId = "deleteWebhook", summary = "Remove a subscription and its delivery log")
    @APIResponse(responseCode = "204", description = "Removed")
    public void delete(@PathParam("org") String org, @PathParam("id") UUID id) {
        webhooks.delete(access.require(org, Role.PLATFORM_ENGINEER), id);
    }

    @GET
    @Path("/{id}/deliveries")
    @Operation(
            operationId = "listWebhookDeliveries",
            summary = "A subscription's deliveries, newest first: status, answer, attempts")
    public Page<WebhookDeliveryView> deliveries(
            @PathParam("org") String org, @PathParam("id") UUID id, @BeanParam PageRequest page) {
        return webhooks.deliveries(access.require(org, Role.PLATFORM_ENGINEER), id, page);
    }
}
