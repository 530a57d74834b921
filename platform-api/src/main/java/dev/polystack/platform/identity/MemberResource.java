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

@Path("/api/v1/orgs/{org}/members")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Members")
public class MemberResource {

    @Inject
    AccessService access;

    @Inject
    MemberService members;

    @GET
    @Operation(operationId = "listMembers", summary = "List the users who are members of the organization")
    public Page<MemberView> list(@PathParam("org") String org, @BeanParam PageRequest page) {
        return members.list(access.require(org, Role.VIEWER), page);
    }

    @POST
    @Operation(operationId = "addMember", summary = "Add a user by username or email (owners only)")
    public RestResponse<MemberView> add(
            @PathParam("org") String org, @Valid @NotNull AddMemberRequest request, @Context UriInfo uriInfo) {
        MemberView member = members.add(access.require(org, Role.OWNER), request);
        return Responses.created(uriInfo, member.username(), member.version(), member);
    }

    @GET
    @Path("/{username}")
    @Operation(operationId = "getMember", summary = "Get a member")
    public RestResponse<MemberView> get(@PathParam("org") String org, @PathParam("username") String username) {
        MemberView member = members.get(access.require(org, Role.VIEWER), username);
        return Responses.ok(member.version(), member);
    }

    @PUT
    @Path("/{username}")
    @Operation(operationId = "updateMember", summary = "Change a member's role (owners only)")
    public RestResponse<MemberView> update(
            @PathParam("org") String org,
            @PathParam("username") String username,
            @HeaderParam("If-Match") String ifMatch,
            @Valid @NotNull UpdateMemberRequest request) {
        MemberView member = members.update(
                access.require(org, Role.OWNER), username, request, Versions.expected(ifMatch, request.version()));
        return Responses.ok(member.version(), member);
    }

    @DELETE
    @Path("/{username}")
    @Operation(operationId = "removeMember", summary = "Remove a member (owners only)")
    public RestResponse<Void> remove(@PathParam("org") String org, @PathParam("username") String username) {
        members.remove(access.require(org, Role.OWNER), username);
        return RestResponse.noContent();
    }
}
