package dev.polystack.platform.identity;

import dev.polystack.platform.security.AccessService;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

@Path("/api/v1/me")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "Identity")
public class MeResource {

    @Inject
    AccessService access;

    @Inject
    MemberService members;

    @GET
    @Operation(operationId = "getMe", summary = "Who the caller is and which organizations it belongs to")
    public MeView me() {
        return members.me(access.caller());
    }
}
