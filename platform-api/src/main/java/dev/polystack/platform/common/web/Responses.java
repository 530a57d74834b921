package dev.polystack.platform.common.web;

import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.RestResponse;

import java.net.URI;

/** The few response shapes the REST resources use. */
public final class Responses {

    private Responses() {}

    /** 201 with the new object's address (the collection's address plus its id) and its ETag. */
    public static <T> RestResponse<T> created(UriInfo uriInfo, String id, long version, T body) {
        URI location = uriInfo.getAbsolutePathBuilder().path(id).build();
        return RestResponse.ResponseBuilder.<T>created(location)
                .entity(body)
                .header("ETag", Versions.etag(version))
                .build();
    }

    /** 200 with the object's ETag. */
    public static <T> RestResponse<T> ok(long version, T body) {
        return RestResponse.ResponseBuilder.ok(body)
                .header("ETag", Versions.etag(version))
                .build();
    }
}
