package dev.polystack.platform.identity;

import dev.polystack.platform.security.AccessService;
import dev.polystack.platform.security.Role;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path("/api/v1/orgs/{org}/oidc-group-mappings")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Members")
public class GroupMappingResource {

    @Inject
    AccessService access;

    @Inject
    GroupMappingService mappings;

    @GET
    @Operation(
            operationId = "getGroupMappings",
            summary = "OIDC groups that make users members of the organization (owners)")
    public GroupMappingService.GroupMappings get(@PathParam("org") String org) {
        return mappings.get(access.require(org, Role.OWNER));
    }

    @PUT
    @Operation(
            operationId = "putGroupMappings",
            summary = "Replace the OIDC group mappings; they apply at each user's next sign-in (owners)")
    public GroupMappingService.GroupMappings put(
            @PathParam("org") String org, @Valid @NotNull GroupMappingService.GroupMappings body) {
        return mappings.replace(access.require(org, Role.OWNER), body);
    }
}
