package dev.polystack.platform.project;

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

@Path("/api/v1/orgs/{org}/projects")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "Projects")
public class ProjectResource {

    @Inject
    AccessService access;

    @Inject
    ProjectService projects;

    @GET
    @Operation(operationId = "listProjects", summary = "List projects")
    public Page<ProjectView> list(@PathParam("org") String org, @BeanParam PageRequest page) {
        return projects.list(access.require(org, Role.VIEWER), page);
    }

    @POST
    @Operation(operationId = "createProject", summary = "Create a project (developers and up)")
    public RestResponse<ProjectView> create(
            @PathParam("org") String org, @Valid @NotNull CreateProjectRequest request, @Context UriInfo uriInfo) {
        ProjectView created = projects.create(access.require(org, Role.DEVELOPER), request);
        return Responses.created(uriInfo, created.id(), created.version(), created);
    }

    @GET
    @Path("/{project}")
    @Operation(operationId = "getProject", summary = "Get a project")
    public RestResponse<ProjectView> get(@PathParam("org") String org, @PathParam("project") String project) {
        ProjectView view = projects.get(access.require(org, Role.VIEWER), project);
        return Responses.ok(view.version(), view);
    }

    @PUT
    @Path("/{project}")
    @Operation(operationId = "updateProject", summary = "Rename a project (developers and up)")
    public RestResponse<ProjectView> update(
            @PathParam("org") String org,
            @PathParam("project") String project,
            @HeaderParam("If-Match") String ifMatch,
            @Valid @NotNull UpdateProjectRequest request) {
        ProjectView view = projects.update(
                access.require(org, Role.DEVELOPER), project, request, Versions.expected(ifMatch, request.version()));
        return Responses.ok(view.version(), view);
    }

    @DELETE
    @Path("/{project}")
    @Operation(operationId = "deleteProject", summary = "Delete a project without environments (developers and up)")
    public RestResponse<Void> delete(@PathParam("org") String org, @PathParam("project") String project) {
        projects.delete(access.require(org, Role.DEVELOPER), project);
        return RestResponse.noContent();
    }
}
